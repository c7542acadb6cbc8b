// The diff table: per function, before/after/delta of flat and cum in units, delta as % of its own before, and
// the classification. Delta columns sort by |delta|.
#pragma once

#include "diff/DiffTable.h"

#include <QAbstractTableModel>

#include <memory>

namespace qflame {

class DiffTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Name, BeforeFlat, AfterFlat, DeltaFlat, BeforeCum, AfterCum, DeltaCum, DeltaCumPercent, Class,
                  ColumnCount };
    static constexpr int SortRole = Qt::UserRole;        // exact numbers; |delta| for the delta columns
    static constexpr int FrameRole = Qt::UserRole + 1;   // FrameId in the DiffTree's frame table
    static constexpr int ValueRole = Qt::UserRole + 2;   // the signed number behind a cell

    explicit DiffTableModel(QObject *parent = nullptr);
    void setTable(std::shared_ptr<const DiffTable> table);
    const DiffTable *table() const { return m_table.get(); }
    std::shared_ptr<const DiffTable> sharedTable() const { return m_table; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    double value(const DiffRow &row, int column) const;
    std::shared_ptr<const DiffTable> m_table;
};

}   // namespace qflame
