#include "graph/GraphMarks.h"

#include "diff/DiffTable.h"

#include <cmath>
#include <map>
#include <utility>

namespace qflame {

namespace {

// The function name of a node: its frame's name, whatever the granularity adds to the label.
const std::string &functionOf(const CallGraph &g, uint32_t node)
{
    const FrameTable &frames = g.frames();
    return frames.strings().str(frames.frame(g.nodes()[node].frame).key.name);
}

}   // namespace

std::shared_ptr<const CallGraph> withInliningChanges(std::shared_ptr<const CallGraph> graph,
                                                     const InliningChanges &changes)
{
    if (!graph || !graph->isDiff())
        return graph;
    std::map<std::pair<std::string, std::string>, InliningChange::Kind> byPair;
    for (const InliningChange &c : changes.inlining)
        byPair.emplace(std::pair{c.caller, c.callee}, c.kind);
    auto copy = std::make_shared<CallGraph>(*graph);
    copy->m_edgeInlining.assign(graph->edges().size(), -1);
    for (uint32_t i = 0; i < graph->edges().size(); ++i) {
        const GraphEdge &e = graph->edges()[i];
        if (e.residual)   // a path through dropped nodes, not the call itself
            continue;
        const auto it = byPair.find({functionOf(*graph, e.from), functionOf(*graph, e.to)});
        if (it != byPair.end())
            copy->m_edgeInlining[i] = int8_t(it->second);
    }
    return copy;
}

std::optional<InliningChange::Kind> edgeInliningChange(const CallGraph &graph, uint32_t edge)
{
    const int kind = graph.inliningChangeOf(edge);
    if (kind < 0)
        return std::nullopt;
    return InliningChange::Kind(kind);
}

std::string edgeInliningText(const CallGraph &graph, uint32_t edge)
{
    const auto kind = edgeInliningChange(graph, edge);
    return kind ? inliningKindName(*kind) : std::string();
}

std::shared_ptr<const CallGraph> withMeasuredNoise(std::shared_ptr<const CallGraph> graph, const MeasuredNoise &noise,
                                                   double scaleBefore, double scaleAfter)
{
    if (!graph || !graph->isDiff())
        return graph;
    auto copy = std::make_shared<CallGraph>(*graph);
    copy->m_measuredError.assign(graph->nodes().size(), 0);
    copy->m_measuredScale[0] = scaleBefore;
    copy->m_measuredScale[1] = scaleAfter;
    copy->m_measuredSource = noise.source;
    for (uint32_t i = 0; i < graph->nodes().size(); ++i) {
        auto it = noise.cumStandardError.find(graph->name(i));
        if (it == noise.cumStandardError.end())
            it = noise.cumStandardError.find(graph->name(i) + " (inline)");
        if (it != noise.cumStandardError.end() && std::isfinite(it->second) && it->second > 0)
            copy->m_measuredError[i] = it->second;
    }
    copy->m_measuredEdgeError.assign(graph->edges().size(), 0);
    for (uint32_t i = 0; i < graph->edges().size(); ++i) {
        const GraphEdge &e = graph->edges()[i];
        if (e.residual)
            continue;
        const auto it = noise.edgeStandardError.find({graph->name(e.from), graph->name(e.to)});
        if (it != noise.edgeStandardError.end() && std::isfinite(it->second) && it->second > 0)
            copy->m_measuredEdgeError[i] = it->second;
    }
    return copy;
}

size_t measuredNodeCount(const CallGraph &graph)
{
    size_t n = 0;
    for (uint32_t i = 0; i < graph.nodes().size(); ++i)
        n += graph.measuredError(i) > 0;
    return n;
}

size_t measuredEdgeCount(const CallGraph &graph)
{
    size_t n = 0;
    for (uint32_t i = 0; i < graph.edges().size(); ++i)
        n += graph.measuredEdgeError(i) > 0;
    return n;
}

}   // namespace qflame
