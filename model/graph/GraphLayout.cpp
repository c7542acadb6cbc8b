#include "graph/GraphLayout.h"

#include "graph/GraphReport.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <stdexcept>

namespace qflame {

namespace {

// Graphviz keeps global state (its plugins, error handling): one layout at a time.
std::mutex &graphvizLock()
{
    static std::mutex lock;
    return lock;
}

// Average glyph width and line height for the sans-serif fonts the view paints with, in units of the font size.
constexpr double kCharWidth = 0.6, kLineHeight = 1.25, kPadding = 8;

void set(void *object, const char *name, const std::string &value)
{
    agsafeset(object, const_cast<char *>(name), const_cast<char *>(value.c_str()), const_cast<char *>(""));
}

std::string number(double v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
}

}   // namespace

std::shared_ptr<const GraphLayout> GraphLayout::compute(std::shared_ptr<const CallGraph> graphPtr,
                                                       const std::vector<std::pair<std::string, std::string>> &attributes)
{
    auto layout = std::shared_ptr<GraphLayout>(new GraphLayout);
    layout->m_graph = graphPtr;
    const CallGraph &graph = *graphPtr;
    double maxFlat = 0;   // the shown values: deltas under the comparison's normalisation
    for (const GraphNode &n : graph.nodes())
        maxFlat = std::max(maxFlat, std::fabs(graph.flatDelta(n)));
    layout->m_nodes.resize(graph.nodes().size());
    for (uint32_t i = 0; i < graph.nodes().size(); ++i) {
        const GraphNode &n = graph.nodes()[i];
        const double flat = graph.flatDelta(n), cum = graph.cumDelta(n);
        GraphLayoutNode &box = layout->m_nodes[i];
        box.lines = nodeNameLines(graph, i);
        if (flat != 0)
            box.lines.push_back(graphDeltaText(graph, flat) + " (" + graphPercentText(graph, flat) + ")");
        if (cum != flat || flat == 0)
            box.lines.push_back("of " + graphDeltaText(graph, cum) + " (" + graphPercentText(graph, cum) + ")");
        if (maxFlat != 0 && flat != 0)
            box.fontSize += int(std::ceil(16.0 * std::sqrt(std::fabs(flat) / maxFlat)));
    }

    std::lock_guard<std::mutex> lock(graphvizLock());
    GVC_t *gvc = gvContext();
    if (!gvc)
        throw std::runtime_error("Graphviz could not start");
    // cgraph's Agdirected (a directed main graph), made here: a window that loads Graphviz when first asked
    // (GraphvizOnDemand.cpp) has none of its data before.
    Agdesc_t directed{};
    directed.directed = 1;
    directed.maingraph = 1;
    Agraph_t *g = agopen(const_cast<char *>("callgraph"), directed, nullptr);
    set(g, "nodesep", "0.25");
    set(g, "ranksep", "0.45");
    if (graph.nodes().size() > 200) {
        // dot's network simplex (ranks, then x positions) and crossing minimisation iterate in proportion to
        // these: on a graph of hundreds of nodes and thousands of edges they took seconds for little visible
        // gain (gen__gotypes-stdlib.cpu, 832 nodes, 1,483 edges: 7.0 s with the defaults, 1.5 s with these, on a
        // loaded machine; docs/benchmarks.md).
        set(g, "mclimit", "0.2");
        set(g, "nslimit", "0.2");
        set(g, "nslimit1", "0.2");
        set(g, "searchsize", "10");
    }
    for (const auto &[name, value] : attributes)
        set(g, name.c_str(), value);
    std::vector<Agnode_t *> nodes(graph.nodes().size());
    for (uint32_t i = 0; i < nodes.size(); ++i) {
        const GraphLayoutNode &box = layout->m_nodes[i];
        size_t longest = 0;
        for (const std::string &line : box.lines)
            longest = std::max(longest, line.size());
        const double width = (double(longest) * kCharWidth * box.fontSize + 2 * kPadding) / 72.0;
        const double height = (double(box.lines.size()) * kLineHeight * box.fontSize + kPadding) / 72.0;
        nodes[i] = agnode(g, const_cast<char *>(("n" + std::to_string(i)).c_str()), 1);
        set(nodes[i], "shape", "box");
        set(nodes[i], "fixedsize", "true");
        set(nodes[i], "label", "");
        set(nodes[i], "width", number(width));
        set(nodes[i], "height", number(height));
    }
    const double total = std::max(1.0, std::fabs(graph.scaledTotal()));
    std::vector<Agedge_t *> edges(graph.edges().size());
    for (size_t e = 0; e < edges.size(); ++e) {
        const GraphEdge &edge = graph.edges()[e];
        edges[e] = agedge(g, nodes[edge.from], nodes[edge.to], const_cast<char *>(("e" + std::to_string(e)).c_str()), 1);
        // Heavy calls pull their ends together, as pprof's weight attribute does.
        set(edges[e], "weight",
            std::to_string(1 + int64_t(std::min(std::fabs(graph.edgeDelta(edge)) * 100 / total, 100.0))));
    }
    if (gvLayout(gvc, g, "dot") != 0) {
        agclose(g);
        gvFreeContext(gvc);
        throw std::runtime_error("Graphviz could not lay the graph out");
    }
    const boxf bb = GD_bb(g);
    const double top = bb.UR.y;   // Graphviz's y grows upwards; the view's downwards
    auto flip = [&](pointf p) { return QPointF(p.x - bb.LL.x, top - p.y); };
    layout->m_bounds = QRectF(0, 0, bb.UR.x - bb.LL.x, bb.UR.y - bb.LL.y);
    for (uint32_t i = 0; i < nodes.size(); ++i) {
        const QPointF c = flip(ND_coord(nodes[i]));
        const double w = ND_width(nodes[i]) * 72, h = ND_height(nodes[i]) * 72;
        layout->m_nodes[i].box = QRectF(c.x() - w / 2, c.y() - h / 2, w, h);
    }
    layout->m_edges.resize(edges.size());
    for (size_t e = 0; e < edges.size(); ++e) {
        const splines *spl = ED_spl(edges[e]);
        if (!spl || spl->size == 0)
            continue;
        GraphLayoutEdge &out = layout->m_edges[e];
        for (int b = 0; b < spl->size; ++b) {
            const bezier &bz = spl->list[b];
            for (int p = 0; p < bz.size; ++p)
                out.spline.push_back(flip(bz.list[p]));
            if (bz.eflag) {
                out.hasArrow = true;
                out.arrowTip = flip(bz.ep);
            }
        }
    }
    gvFreeLayout(gvc, g);
    agclose(g);
    gvFreeContext(gvc);
    return layout;
}

std::shared_ptr<const GraphLayout> GraphLayout::withGraph(const GraphLayout &layout,
                                                         std::shared_ptr<const CallGraph> graph)
{
    if (!graph || graph->nodes().size() != layout.m_nodes.size() || graph->edges().size() != layout.m_edges.size())
        throw std::runtime_error("a layout can only take the graph it laid out");
    auto copy = std::shared_ptr<GraphLayout>(new GraphLayout(layout));
    copy->m_graph = std::move(graph);
    return copy;
}

}   // namespace qflame
