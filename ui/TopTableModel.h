// The top table: flat, flat%, cum, cum% and name per function, read from a FlatTable.
#pragma once

#include "FlatTable.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

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

// The sorting proxy of the top table. The table arrives sorted by flat descending (FlatTable's order), so that
// order is the source's own and costs nothing; other orders compare rows directly, not through QVariants.
// Re-sorting a 400,000-row table through data() held the GUI thread for half a second on every load.
class TopTableProxy : public QSortFilterProxyModel {
    Q_OBJECT

public:
    explicit TopTableProxy(TopTableModel *source, QObject *parent = nullptr);
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

protected:
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    TopTableModel *m_source;
};

}   // namespace qflame
