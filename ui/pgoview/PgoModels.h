// The PGO panel's tables as item models over the model's values (model/pgo): the edge list, the
// devirtualisation candidates, the inlining changes and the hot edges that appeared or vanished between two
// profiles. They show numbers the model computed; the one thing computed here is the running sum of the edge
// list (the cum % column), a prefix sum over the order the model gave.
#pragma once

#include "pgo/InliningChanges.h"
#include "pgo/PgoCandidates.h"
#include "pgo/PgoEdges.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include <memory>

namespace qflame {

// Sorting by the number behind a cell, not by its text ("9.5" after "10.2").
inline constexpr int kPgoSortRole = Qt::UserRole + 1;

class PgoEdgeModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Rank, Caller, Callee, Offset, Weight, Share, Cum, Hot, ColumnCount };
    explicit PgoEdgeModel(QObject *parent = nullptr);

    void setEdges(std::shared_ptr<const PgoEdges> edges);
    const PgoEdges *edges() const { return m_edges.get(); }
    // The hot edges are a prefix of the list (markHotEdges): the panel counts them at its threshold
    // (hotEdgeCount) and tells the model how long the prefix is, so that a slider move repaints one column, no more.
    void setHotCount(size_t hot);
    size_t hotCount() const { return m_hot; }
    // The weight of edges[0 .. i], as the model computed it (cumulativeWeights).
    int64_t cumulativeWeight(size_t i) const { return m_cum[i]; }
    // The edge of a row of this model.
    const PgoEdge *edge(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::shared_ptr<const PgoEdges> m_edges;
    std::vector<int64_t> m_cum;   // the weight of edges[0..i], inclusive
    size_t m_hot = 0;
};

// The edge table's filter: a regular expression over the caller and the callee (either may match), and the
// sort by kPgoSortRole.
class PgoEdgeFilter : public QSortFilterProxyModel {
    Q_OBJECT

public:
    explicit PgoEdgeFilter(QObject *parent = nullptr);

protected:
    bool filterAcceptsRow(int row, const QModelIndex &parent) const override;
};

class PgoCandidatesModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Caller, Offset, Callees, Heaviest, Weight, SiteShare, TotalShare, ColumnCount };
    explicit PgoCandidatesModel(QObject *parent = nullptr);
    void setCandidates(std::vector<PgoCallSite> sites);
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::vector<PgoCallSite> m_sites;
};

class InliningModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Kind, Caller, Callee, BaseCalled, BaseInlined, NewCalled, NewInlined, ColumnCount };
    explicit InliningModel(QObject *parent = nullptr);
    void setChanges(std::shared_ptr<const InliningChanges> changes);
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::shared_ptr<const InliningChanges> m_changes;
};

class HotEdgeChangesModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Change, Caller, Callee, Offset, BaseWeight, NewWeight, ColumnCount };
    explicit HotEdgeChangesModel(QObject *parent = nullptr);
    void setChanges(std::shared_ptr<const InliningChanges> changes);
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::shared_ptr<const InliningChanges> m_changes;
};

}   // namespace qflame
