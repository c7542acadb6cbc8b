// A call graph laid out by Graphviz's own library (cgraph + gvc, the `dot` layout), for the window to paint:
// boxes sized by their labels (the font grows with flat, as pprof's), edges as Bézier splines with their arrow
// ends. Computed off the GUI thread; Graphviz is not reentrant, so layouts run one at a time.
#pragma once

#include "graph/CallGraph.h"

#include <QPointF>
#include <QRectF>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace qflame {

struct GraphLayoutNode {
    QRectF box;                       // in points, y growing downwards
    int fontSize = 8;                 // pprof's: 8 + 16 * sqrt(|flat| / max |flat|)
    std::vector<std::string> lines;   // name lines, then the values ("12ms (3%)", "of 40ms (9%)")
};

struct GraphLayoutEdge {
    std::vector<QPointF> spline;      // a cubic Bézier chain: p0, c1, c2, p1, c1, c2, p2, ...
    QPointF arrowTip;                 // where the arrow ends (at the callee's box)
    bool hasArrow = false;
};

class GraphLayout {
public:
    // Lays `graph` out. The only exception is std::runtime_error when Graphviz fails.
    // `attributes`: Graphviz graph attributes set after qflame's own (name, value), e.g. {"splines", "line"}: for
    // the benchmark's trials of dot's knobs.
    static std::shared_ptr<const GraphLayout> compute(
        std::shared_ptr<const CallGraph> graph, const std::vector<std::pair<std::string, std::string>> &attributes = {});
    // The same boxes and splines for `graph`, the laid-out graph with other marks (graph/GraphMarks.h): the same
    // nodes and edges in the same order, so nothing moves.
    static std::shared_ptr<const GraphLayout> withGraph(const GraphLayout &layout,
                                                        std::shared_ptr<const CallGraph> graph);

    const CallGraph &graph() const { return *m_graph; }
    std::shared_ptr<const CallGraph> graphPtr() const { return m_graph; }
    const std::vector<GraphLayoutNode> &nodes() const { return m_nodes; }   // by CallGraph node index
    const std::vector<GraphLayoutEdge> &edges() const { return m_edges; }   // by CallGraph edge index
    QRectF bounds() const { return m_bounds; }

private:
    std::shared_ptr<const CallGraph> m_graph;
    std::vector<GraphLayoutNode> m_nodes;
    std::vector<GraphLayoutEdge> m_edges;
    QRectF m_bounds;
};

}   // namespace qflame
