#include "TopTableModel.h"

#include "Units.h"

namespace qflame {

TopTableModel::TopTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void TopTableModel::setTable(std::shared_ptr<const FlatTable> table)
{
    beginResetModel();
    m_table = std::move(table);
    endResetModel();
}

int TopTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_table ? 0 : int(m_table->rows().size());
}

int TopTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TopTableModel::data(const QModelIndex &index, int role) const
{
    if (!m_table || !index.isValid() || index.row() >= rowCount())
        return {};
    const FlatRow &row = m_table->rows()[size_t(index.row())];
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

TopTableProxy::TopTableProxy(TopTableModel *source, QObject *parent)
    : QSortFilterProxyModel(parent), m_source(source)
{
    setSourceModel(source);
    setSortRole(TopTableModel::SortRole);
    setFilterKeyColumn(TopTableModel::Name);
}

void TopTableProxy::sort(int column, Qt::SortOrder order)
{
    // Flat descending is the source order (ties by cum, then name, as go tool pprof): no sort at all.
    const bool sourceOrder = (column == TopTableModel::Flat || column == TopTableModel::FlatPercent) &&
                             order == Qt::DescendingOrder;
    QSortFilterProxyModel::sort(sourceOrder ? -1 : column, order);
}

bool TopTableProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const FlatTable *t = m_source->table();
    if (!t)
        return false;
    const FlatRow &a = t->rows()[size_t(left.row())], &b = t->rows()[size_t(right.row())];
    switch (left.column()) {
    case TopTableModel::Flat:
    case TopTableModel::FlatPercent: return a.flat < b.flat;
    case TopTableModel::Cum:
    case TopTableModel::CumPercent: return a.cum < b.cum;
    default: {   // by name, as the Name column shows it: the label, then its inline marker
        const std::string &la = t->tree().frames().label(a.frame), &lb = t->tree().frames().label(b.frame);
        return la != lb ? la < lb : a.inlined < b.inlined;
    }
    }
}

}   // namespace qflame
