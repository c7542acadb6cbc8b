#include "pgoview/PgoModels.h"

#include <QBrush>
#include <QColor>
#include <QRegularExpression>

namespace qflame {

namespace {

// As `qflame pgo` prints its share columns (the model's one wording), so the window and the CLI agree.
QString percentText(double p)
{
    return QString::fromStdString(pgoShareText(p));
}

QString text(const std::string &s)
{
    return QString::fromStdString(s);
}

QVariant header(int section, Qt::Orientation orientation, int role, std::initializer_list<const char *> names)
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= int(names.size()))
        return {};
    return QObject::tr(names.begin()[section]);
}

// Numbers right-aligned, names left, as in the other tables of the window.
QVariant alignment(bool number)
{
    return QVariant::fromValue(Qt::Alignment((number ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter));
}

}   // namespace

// ---- PgoEdgeModel -------------------------------------------------------------------------------------------

PgoEdgeModel::PgoEdgeModel(QObject *parent) : QAbstractTableModel(parent) {}

void PgoEdgeModel::setEdges(std::shared_ptr<const PgoEdges> edges)
{
    beginResetModel();
    m_edges = std::move(edges);
    m_hot = m_edges ? m_edges->hotCount : 0;
    m_cum = m_edges ? cumulativeWeights(m_edges->edges) : std::vector<int64_t>();
    endResetModel();
}

void PgoEdgeModel::setHotCount(size_t hot)
{
    if (hot == m_hot || !m_edges || m_edges->edges.empty())
        return;
    m_hot = hot;
    Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));   // the hot column and its colour
}

const PgoEdge *PgoEdgeModel::edge(int row) const
{
    if (!m_edges || row < 0 || size_t(row) >= m_edges->edges.size())
        return nullptr;
    return &m_edges->edges[size_t(row)];
}

int PgoEdgeModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_edges ? 0 : int(m_edges->edges.size());
}

int PgoEdgeModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PgoEdgeModel::data(const QModelIndex &index, int role) const
{
    const PgoEdge *e = index.isValid() ? edge(index.row()) : nullptr;
    if (!e)
        return {};
    const size_t row = size_t(index.row());
    const bool hot = row < m_hot;
    const int64_t total = m_edges->totalWeight;
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Rank: return qulonglong(row + 1);
        case Caller: return text(e->caller);
        case Callee: return text(e->callee);
        case Offset: return qlonglong(e->offset);
        case Weight: return qlonglong(e->weight);
        case Share: return percentText(pgoPercent(e->weight, total));
        case Cum: return percentText(pgoPercent(m_cum[row], total));
        case Hot: return hot ? tr("hot") : QString();
        }
    } else if (role == kPgoSortRole) {
        switch (index.column()) {
        case Rank: case Cum: return qulonglong(row);   // the cumulative share grows with the rank
        case Caller: return text(e->caller);
        case Callee: return text(e->callee);
        case Offset: return qlonglong(e->offset);
        case Weight: case Share: return qlonglong(e->weight);
        case Hot: return hot ? 1 : 0;
        }
    } else if (role == Qt::TextAlignmentRole) {
        return alignment(index.column() != Caller && index.column() != Callee);
    } else if (role == Qt::ToolTipRole && (index.column() == Caller || index.column() == Callee)) {
        return text(index.column() == Caller ? e->caller : e->callee);   // Go names outgrow any column
    } else if (role == Qt::BackgroundRole && hot && index.column() == Hot) {
        return QBrush(QColor(0xff, 0xcc, 0x80));   // the hot edges stand out in both palettes (light fill)
    } else if (role == Qt::ForegroundRole && hot && index.column() == Hot) {
        return QBrush(Qt::black);
    }
    return {};
}

QVariant PgoEdgeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    return header(section, orientation, role,
                  {"Rank", "Caller", "Callee", "Offset", "Weight", "Share %", "Cum %", "Hot"});
}

// ---- PgoEdgeFilter ------------------------------------------------------------------------------------------

PgoEdgeFilter::PgoEdgeFilter(QObject *parent) : QSortFilterProxyModel(parent)
{
    setSortRole(kPgoSortRole);
}

bool PgoEdgeFilter::filterAcceptsRow(int row, const QModelIndex &parent) const
{
    const QRegularExpression &re = filterRegularExpression();
    if (re.pattern().isEmpty() || !re.isValid())
        return true;
    const QAbstractItemModel *m = sourceModel();
    return re.match(m->index(row, PgoEdgeModel::Caller, parent).data().toString()).hasMatch() ||
           re.match(m->index(row, PgoEdgeModel::Callee, parent).data().toString()).hasMatch();
}

// ---- PgoCandidatesModel -------------------------------------------------------------------------------------

PgoCandidatesModel::PgoCandidatesModel(QObject *parent) : QAbstractTableModel(parent) {}

void PgoCandidatesModel::setCandidates(std::vector<PgoCallSite> sites)
{
    beginResetModel();
    m_sites = std::move(sites);
    endResetModel();
}

int PgoCandidatesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_sites.size());
}

int PgoCandidatesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PgoCandidatesModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_sites.size()))
        return {};
    const PgoCallSite &s = m_sites[size_t(index.row())];
    if (role == Qt::DisplayRole || role == kPgoSortRole) {
        const bool sort = role == kPgoSortRole;
        switch (index.column()) {
        case Caller: return text(s.caller);
        case Offset: return qlonglong(s.offset);
        case Callees: return qulonglong(s.callees);
        case Heaviest: return text(s.heaviest);
        case Weight: return qlonglong(s.heaviestWeight);
        case SiteShare: return sort ? QVariant(s.siteShare) : QVariant(percentText(s.siteShare));
        case TotalShare: return sort ? QVariant(s.totalShare) : QVariant(percentText(s.totalShare));
        }
    } else if (role == Qt::TextAlignmentRole) {
        return alignment(index.column() != Caller && index.column() != Heaviest);
    } else if (role == Qt::ToolTipRole) {
        return tr("%1 +%2: %n callee(s) seen; the heaviest, %3, is the candidate if the call is indirect "
                  "(only the compiler knows)", "", int(s.callees))
            .arg(text(s.caller)).arg(s.offset).arg(text(s.heaviest));
    }
    return {};
}

QVariant PgoCandidatesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    return header(section, orientation, role,
                  {"Caller", "Offset", "Callees", "Heaviest callee", "Weight", "Of site %", "Of total %"});
}

// ---- InliningModel ------------------------------------------------------------------------------------------

InliningModel::InliningModel(QObject *parent) : QAbstractTableModel(parent) {}

void InliningModel::setChanges(std::shared_ptr<const InliningChanges> changes)
{
    beginResetModel();
    m_changes = std::move(changes);
    endResetModel();
}

int InliningModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_changes ? 0 : int(m_changes->inlining.size());
}

int InliningModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant InliningModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const InliningChange &c = m_changes->inlining[size_t(index.row())];
    if (role == Qt::DisplayRole || role == kPgoSortRole) {
        switch (index.column()) {
        case Kind: return QString::fromLatin1(inliningKindName(c.kind));
        case Caller: return text(c.caller);
        case Callee: return text(c.callee);
        case BaseCalled: return qlonglong(c.base.called);
        case BaseInlined: return qlonglong(c.base.inlined);
        case NewCalled: return qlonglong(c.next.called);
        case NewInlined: return qlonglong(c.next.inlined);
        }
    } else if (role == Qt::TextAlignmentRole) {
        return alignment(index.column() >= BaseCalled);
    } else if (role == Qt::ToolTipRole) {
        return tr("%1 → %2: weights (%3) of the samples through this call as a real call and as an inline frame; "
                  "the diff flamegraph marks these frames with a purple corner")
            .arg(text(c.caller), text(c.callee), text(m_changes->sampleType));
    }
    return {};
}

QVariant InliningModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    return header(section, orientation, role,
                  {"Change", "Caller", "Callee", "Base called", "Base inlined", "New called", "New inlined"});
}

// ---- HotEdgeChangesModel ------------------------------------------------------------------------------------

HotEdgeChangesModel::HotEdgeChangesModel(QObject *parent) : QAbstractTableModel(parent) {}

void HotEdgeChangesModel::setChanges(std::shared_ptr<const InliningChanges> changes)
{
    beginResetModel();
    m_changes = std::move(changes);
    endResetModel();
}

int HotEdgeChangesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_changes ? 0 : int(m_changes->hotEdges.size());
}

int HotEdgeChangesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant HotEdgeChangesModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const HotEdgeChange &c = m_changes->hotEdges[size_t(index.row())];
    if (role == Qt::DisplayRole || role == kPgoSortRole) {
        switch (index.column()) {
        case Change: return c.appeared ? tr("appeared") : tr("vanished");
        case Caller: return text(c.caller);
        case Callee: return text(c.callee);
        case Offset: return qlonglong(c.offset);
        case BaseWeight: return qlonglong(c.baseWeight);
        case NewWeight: return qlonglong(c.nextWeight);
        }
    } else if (role == Qt::TextAlignmentRole) {
        return alignment(index.column() >= Offset);
    }
    return {};
}

QVariant HotEdgeChangesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    return header(section, orientation, role,
                  {"Hot edge", "Caller", "Callee", "Offset", "Base weight", "New weight"});
}

}   // namespace qflame
