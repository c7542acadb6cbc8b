#include "tables/TopTableModel.h"

#include "pprof/Units.h"

namespace qflame {

TopTableModel::TopTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void TopTableModel::setTable(std::shared_ptr<const FlatTable> table)
{
    beginResetModel();
    m_table = std::move(table);
    // Until the worker answers, no rows: the previous table's order does not fit the new table.
    m_rows = m_query.isTableOrder() || !m_table ? nullptr : std::make_shared<const std::vector<uint32_t>>();
    endResetModel();
    if (m_rows) {
        m_rowsChange = true;
        reorder();
    } else {   // shown as it is: nothing to wait for (an answer still on its way is stale)
        m_ordering.drop();
        m_rowsChange = false;
        Q_EMIT ordered();
    }
}

void TopTableModel::setFrameFilter(std::shared_ptr<const std::vector<uint8_t>> filter)
{
    if (!filter && !m_query.frameFilter)
        return;
    m_query.frameFilter = std::move(filter);
    m_rowsChange = true;
    reorder();
}

void TopTableModel::sort(int column, Qt::SortOrder order)
{
    m_query.key = column == Name ? FlatSortKey::Name
                  : column == Cum || column == CumPercent ? FlatSortKey::Cum
                                                          : FlatSortKey::Flat;
    m_query.descending = order == Qt::DescendingOrder;
    reorder();
}

void TopTableModel::reorder()
{
    if (!m_table || m_query.isTableOrder()) {
        m_ordering.drop();
        apply(nullptr);
        return;
    }
    m_ordering.start([table = m_table, query = m_query]() -> Rows {
        return std::make_shared<const std::vector<uint32_t>>(orderFlatRows(*table, query));
    }, [this](Rows rows) { apply(std::move(rows)); });
}

void TopTableModel::apply(Rows rows)
{
    if (m_rowsChange) {   // other rows (a filter, a new table): start afresh
        m_rowsChange = false;
        beginResetModel();
        m_rows = std::move(rows);
        endResetModel();
    } else if (rows != m_rows) {   // the same rows in another order: the selection follows its rows
        Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
        const QModelIndexList from = persistentIndexList();
        std::vector<size_t> tableRows;
        for (const QModelIndex &i : from)
            tableRows.push_back(tableRow(i.row()));
        m_rows = std::move(rows);
        if (!from.isEmpty()) {
            std::vector<int> position(m_table ? m_table->rows().size() : 0, -1);
            for (int r = 0; r < rowCount(); ++r)
                position[tableRow(r)] = r;
            QModelIndexList to;
            for (qsizetype k = 0; k < from.size(); ++k)
                to << index(position[tableRows[size_t(k)]], from[k].column());
            changePersistentIndexList(from, to);
        }
        Q_EMIT layoutChanged({}, QAbstractItemModel::VerticalSortHint);
    }
    Q_EMIT ordered();
}

int TopTableModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() || !m_table)
        return 0;
    return int(m_rows ? m_rows->size() : m_table->rows().size());
}

int TopTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TopTableModel::data(const QModelIndex &index, int role) const
{
    if (!m_table || !index.isValid() || index.row() >= rowCount())
        return {};
    const FlatRow &row = m_table->rows()[tableRow(index.row())];
    const double total = double(m_table->total());
    const std::string &unit = m_table->tree().sampleType().unit;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Flat: return QString::fromStdString(formatValue(double(row.flat), unit));
        case FlatPercent: return QString::fromStdString(formatPercent(double(row.flat), total));
        case Cum: return QString::fromStdString(formatValue(double(row.cum), unit));
        case CumPercent: return QString::fromStdString(formatPercent(double(row.cum), total));
        case Name: return QString::fromStdString(m_table->displayName(row));
        }
        break;
    case SortRole:
        switch (index.column()) {
        case Flat:
        case FlatPercent: return qlonglong(row.flat);
        case Cum:
        case CumPercent: return qlonglong(row.cum);
        case Name: return QString::fromStdString(m_table->displayName(row));
        }
        break;
    case Qt::ToolTipRole:
        if (index.column() == Name)
            return QString::fromStdString(m_table->displayName(row));
        return QStringLiteral("%1 %2").arg(qlonglong(index.column() <= FlatPercent ? row.flat : row.cum))
            .arg(QString::fromStdString(unit));
    case Qt::TextAlignmentRole:
        return index.column() == Name ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                      : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case FrameRole:
        return uint(row.frame);
    }
    return {};
}

QVariant TopTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Flat: return tr("Flat");
    case FlatPercent: return tr("Flat%");
    case Cum: return tr("Cum");
    case CumPercent: return tr("Cum%");
    case Name: return tr("Name");
    }
    return {};
}

}   // namespace qflame
