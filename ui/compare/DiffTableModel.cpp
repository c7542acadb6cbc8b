#include "compare/DiffTableModel.h"

#include "compare/DiffSource.h"
#include "diff/DiffHeadline.h"

#include <QBrush>

#include <cmath>

namespace qflame {

DiffTableModel::DiffTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void DiffTableModel::setTable(std::shared_ptr<const DiffTable> table)
{
    beginResetModel();
    m_table = std::move(table);
    endResetModel();
}

int DiffTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_table ? 0 : int(m_table->rows().size());
}

int DiffTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

double DiffTableModel::value(const DiffRow &r, int column) const
{
    switch (column) {
    case BeforeFlat: return r.beforeFlat;
    case AfterFlat: return r.afterFlat;
    case DeltaFlat: return r.deltaFlat;
    case BeforeCum: return r.beforeCum;
    case AfterCum: return r.afterCum;
    case DeltaCum: return r.deltaCum;
    case DeltaCumPercent: return cumChangePercent(r);
    }
    return 0;
}

QVariant DiffTableModel::data(const QModelIndex &index, int role) const
{
    if (!m_table || !index.isValid() || index.row() >= rowCount())
        return {};
    const DiffRow &r = m_table->rows()[size_t(index.row())];
    const DiffTree &d = m_table->tree();
    const int c = index.column();
    switch (role) {
    case Qt::DisplayRole:
        if (c == Name)
            return QString::fromStdString(m_table->displayName(r));
        if (c == Class)
            return QString::fromLatin1(diffClassName(r.diffClass));
        if (c == DeltaCumPercent)
            return QString::fromStdString(cumChangeText(r));
        return QString::fromStdString(d.formatValue(value(r, c), c == DeltaFlat || c == DeltaCum));
    case SortRole:
        if (c == Name)
            return QString::fromStdString(m_table->displayName(r));
        if (c == Class)
            return int(r.diffClass);
        if (c == DeltaFlat || c == DeltaCum || c == DeltaCumPercent)
            return std::fabs(value(r, c));
        return value(r, c);
    case ValueRole:
        return c == Name || c == Class ? QVariant() : QVariant(value(r, c));
    case Qt::ToolTipRole:
        if (c == Name)
            return QString::fromStdString(m_table->displayName(r));
        if (c == Class || c == DeltaCumPercent)
            return {};
        return QStringLiteral("%1 %2").arg(QString::number(value(r, c), 'g', 17),
                                           QString::fromStdString(d.valueUnit()));
    case Qt::ForegroundRole:
        if (c == DeltaCum || c == DeltaFlat || c == Class) {
            const DiffClass k = c == DeltaFlat ? r.flatDiffClass : r.diffClass;
            if (k == DiffClass::Slower || k == DiffClass::New)
                return QBrush(QColor(0xb0, 0x20, 0x20));
            if (k == DiffClass::Faster || k == DiffClass::Removed)
                return QBrush(QColor(0x10, 0x80, 0x40));
        }
        return {};
    case Qt::TextAlignmentRole:
        return c == Name ? QVariant(Qt::AlignLeft | Qt::AlignVCenter) : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case FrameRole:
        return uint(r.frame);
    }
    return {};
}

QVariant DiffTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name: return tr("Function");
    case BeforeFlat: return tr("Flat before");
    case AfterFlat: return tr("Flat after");
    case DeltaFlat: return tr("Δ flat");
    case BeforeCum: return tr("Cum before");
    case AfterCum: return tr("Cum after");
    case DeltaCum: return tr("Δ cum");
    case DeltaCumPercent: return tr("Δ cum %");
    case Class: return tr("Change");
    }
    return {};
}

}   // namespace qflame
