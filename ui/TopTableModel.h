// The top table: flat, flat%, cum, cum% and name per function, read from a FlatTable.
#pragma once

#include "FlatTable.h"

#include <QAbstractTableModel>

#include <memory>

namespace qflame {

class TopTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Flat, FlatPercent, Cum, CumPercent, Name, ColumnCount };
    // Qt::UserRole gives the exact value to sort by (integers for values, the name for Name).
    static constexpr int SortRole = Qt::UserRole;
    static constexpr int FrameRole = Qt::UserRole + 1;

    explicit TopTableModel(QObject *parent = nullptr);
    void setTable(std::shared_ptr<const FlatTable> table);
    const FlatTable *table() const { return m_table.get(); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const FlatTable> m_table;
};

}   // namespace qflame
