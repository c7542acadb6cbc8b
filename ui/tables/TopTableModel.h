// The top table: flat, flat%, cum, cum% and name per function, read from a FlatTable.
//
// The model sorts and filters itself instead of sitting behind a QSortFilterProxyModel: the proxy maps every
// source row on each reset (15 ms on the GUI thread for 400,000 functions, on every load) and sorts on the GUI
// thread. Here the table's own order costs nothing, and any other order or search filter is computed by a
// worker (orderFlatRows); the rows change when it is done.
#pragma once

#include "controls/LatestJob.h"
#include "tree/FlatOrder.h"
#include "tree/FlatTable.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace qflame {

class TopTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Flat, FlatPercent, Cum, CumPercent, Name, ColumnCount };
    // Qt::UserRole gives the exact value to sort by (integers for values, the name for Name).
    static constexpr int SortRole = Qt::UserRole;
    static constexpr int FrameRole = Qt::UserRole + 1;

    explicit TopTableModel(QObject *parent = nullptr);

    // A new table keeps the order and the filter chosen. Until a worker has ordered it, the table shows no rows.
    void setTable(std::shared_ptr<const FlatTable> table);
    const FlatTable *table() const { return m_table.get(); }
    // Shows only the rows of frames with a non-zero entry (per FrameId); null shows all.
    void setFrameFilter(std::shared_ptr<const std::vector<uint8_t>> filter);
    bool hasFrameFilter() const { return bool(m_query.frameFilter); }
    // True while a worker computes the rows to show.
    bool isOrdering() const { return m_ordering.running(); }
    // The table's row behind a model row.
    size_t tableRow(int row) const { return m_rows ? (*m_rows)[size_t(row)] : size_t(row); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    // Flat descending is the table's own order (ties by cum, then name, as go tool pprof): applied at once.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

Q_SIGNALS:
    // The rows shown follow the latest table, order and filter.
    void ordered();

private:
    using Rows = std::shared_ptr<const std::vector<uint32_t>>;
    void reorder();
    void apply(Rows rows);

    std::shared_ptr<const FlatTable> m_table;
    Rows m_rows;   // model row -> table row; null: every table row in the table's order
    FlatOrderQuery m_query;
    LatestJob<Rows> m_ordering{this};   // the rows' order for the latest question; older answers are dropped
    bool m_rowsChange = false;   // a pending answer shows other rows, not only another order
};

}   // namespace qflame
