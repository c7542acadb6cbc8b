#include "graph/CallGraph.h"

#include "graph/GraphWalk.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <functional>
#include <limits>

namespace qflame {

namespace {

// Go's abs64: the most negative value stays negative (it sorts last where pprof compares |x|).
int64_t abs64(int64_t v)
{
    return v < 0 ? int64_t(0 - uint64_t(v)) : v;
}

// Go's int64(x) on amd64: NaN and values out of range become the most negative int64.
int64_t goInt64(double x)
{
    if (std::isnan(x) || x >= 9223372036854775808.0 || x < -9223372036854775808.0)
        return std::numeric_limits<int64_t>::min();
    return int64_t(x);
}

// A graph while it is pruned: nodes, edges (alive until trimmed), and each node's edges in and out.
struct WorkGraph {
    std::vector<GraphNode> nodes;
    std::vector<GraphEdge> edges;
    std::vector<uint8_t> alive;
    std::vector<std::vector<uint32_t>> in, out;
    std::vector<uint8_t> kept;   // by frame: the KeptNodes of the walk that built it (empty: all)
};

WorkGraph makeGraph(const detail::GraphSums &g, std::vector<uint8_t> kept)
{
    WorkGraph w;
    w.kept = std::move(kept);
    std::vector<int32_t> index(g.sides.size(), -1);
    for (FrameId f = 0; f < g.sides.size(); ++f) {
        if (!g.sides[f])
            continue;
        GraphNode n;
        n.frame = f;
        for (int s = 0; s < 2; ++s) {
            n.flat[s] = g.flat[s][f];
            n.cum[s] = g.cum[s][f];
            n.cumSamples[s] = g.samples[s][f];
            n.onSide[s] = (g.sides[f] >> s) & 1;
        }
        if (n.flatValue() == 0 && n.cumValue() == 0)   // pprof's selectNodesForGraph
            continue;
        index[f] = int32_t(w.nodes.size());
        w.nodes.push_back(n);
    }
    w.in.resize(w.nodes.size());
    w.out.resize(w.nodes.size());
    for (size_t e = 0; e < g.edgeKey.size(); ++e) {
        const int32_t from = index[uint32_t(g.edgeKey[e] >> 32)], to = index[uint32_t(g.edgeKey[e])];
        if (from < 0 || to < 0)
            continue;
        GraphEdge edge;
        edge.from = uint32_t(from);
        edge.to = uint32_t(to);
        for (int s = 0; s < 2; ++s) {
            edge.weight[s] = g.weight[s][e];
            edge.samples[s] = g.edgeSamples[s][e];
            edge.onSide[s] = (g.edgeSides[e] >> s) & 1;
        }
        edge.residual = g.edgeResidual[e];
        edge.inlined = !g.edgeCalled[e];
        w.out[edge.from].push_back(uint32_t(w.edges.size()));
        w.in[edge.to].push_back(uint32_t(w.edges.size()));
        w.edges.push_back(edge);
        w.alive.push_back(1);
    }
    return w;
}

// pprof's edgeEntropyScore: how much a node's edges (and its own flat, for the edges out) tell apart.
double edgeEntropy(const WorkGraph &w, const std::vector<uint32_t> &edges, int64_t self)
{
    double score = 0;
    int64_t total = self;
    for (uint32_t e : edges)
        if (w.alive[e] && w.edges[e].value() > 0)
            total += abs64(w.edges[e].value());
    if (total == 0)
        return 0;
    for (uint32_t e : edges) {
        if (!w.alive[e])
            continue;
        const double frac = double(abs64(w.edges[e].value())) / double(total);
        score += -frac * std::log2(frac);
    }
    if (self > 0) {
        const double frac = double(abs64(self)) / double(total);
        score += -frac * std::log2(frac);
    }
    return score;
}

size_t aliveCount(const WorkGraph &w, const std::vector<uint32_t> &edges)
{
    return size_t(std::count_if(edges.begin(), edges.end(), [&](uint32_t e) { return w.alive[e]; }));
}

// pprof's EntropyOrder: favours entry and leaf nodes and nodes whose edges split the flow, over nodes that merely
// pass it through; then by name.
void sortByEntropy(WorkGraph &w, const FrameTable &frames)
{
    std::vector<int64_t> score(w.nodes.size());
    for (size_t i = 0; i < w.nodes.size(); ++i) {
        const GraphNode &n = w.nodes[i];
        double s = 0;
        s += aliveCount(w, w.in[i]) == 0 ? 1 : edgeEntropy(w, w.in[i], 0);
        s += aliveCount(w, w.out[i]) == 0 ? 1 : edgeEntropy(w, w.out[i], n.flatValue());
        score[i] = goInt64(s * double(n.cumValue())) + n.flatValue();
    }
    std::vector<uint32_t> order(w.nodes.size());
    for (uint32_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        const int64_t sa = abs64(score[a]), sb = abs64(score[b]);
        if (sa != sb)
            return sa > sb;
        const std::string &na = frames.label(w.nodes[a].frame), &nb = frames.label(w.nodes[b].frame);
        if (na != nb)
            return na < nb;
        const int64_t fa = abs64(w.nodes[a].flatValue()), fb = abs64(w.nodes[b].flatValue());
        if (fa != fb)
            return fa > fb;
        return w.nodes[a].frame < w.nodes[b].frame;
    });
    std::vector<uint32_t> newIndex(order.size());
    for (uint32_t i = 0; i < order.size(); ++i)
        newIndex[order[i]] = i;
    WorkGraph sorted;
    sorted.kept = std::move(w.kept);
    sorted.edges = std::move(w.edges);
    sorted.alive = std::move(w.alive);
    sorted.in.resize(order.size());
    sorted.out.resize(order.size());
    for (uint32_t i = 0; i < order.size(); ++i) {
        sorted.nodes.push_back(w.nodes[order[i]]);
        sorted.in[i] = std::move(w.in[order[i]]);
        sorted.out[i] = std::move(w.out[order[i]]);
    }
    for (GraphEdge &e : sorted.edges) {
        e.from = newIndex[e.from];
        e.to = newIndex[e.to];
    }
    w = std::move(sorted);
}

// Edges by |weight| descending, then caller and callee name (pprof's edgeList order).
void sortEdges(std::vector<uint32_t> &edges, const WorkGraph &w, const FrameTable &frames)
{
    std::sort(edges.begin(), edges.end(), [&](uint32_t a, uint32_t b) {
        const GraphEdge &x = w.edges[a], &y = w.edges[b];
        if (x.value() != y.value())
            return abs64(x.value()) > abs64(y.value());
        const std::string &fx = frames.label(w.nodes[x.from].frame), &fy = frames.label(w.nodes[y.from].frame);
        if (fx != fy)
            return fx < fy;
        return frames.label(w.nodes[x.to].frame) < frames.label(w.nodes[y.to].frame);
    });
}

size_t trimEdges(WorkGraph &w, int64_t cutoff)
{
    size_t dropped = 0;
    for (size_t e = 0; e < w.edges.size(); ++e)
        if (w.alive[e] && abs64(w.edges[e].value()) < cutoff) {
            w.alive[e] = 0;
            ++dropped;
        }
    return dropped;
}

// Whether the callee of `edge` is reached from its caller without it (pprof's isRedundantEdge).
bool isRedundant(const WorkGraph &w, uint32_t edge)
{
    const uint32_t src = w.edges[edge].from;
    std::vector<uint8_t> seen(w.nodes.size(), 0);
    seen[w.edges[edge].to] = 1;
    std::deque<uint32_t> queue{w.edges[edge].to};
    while (!queue.empty()) {
        const uint32_t n = queue.front();
        queue.pop_front();
        for (uint32_t e : w.in[n]) {
            if (!w.alive[e] || e == edge || seen[w.edges[e].from])
                continue;
            if (w.edges[e].from == src)
                return true;
            seen[w.edges[e].from] = 1;
            queue.push_back(w.edges[e].from);
        }
    }
    return false;
}

// pprof's RemoveRedundantEdges: residual edges, lightest first, that another path makes unnecessary.
void removeRedundantEdges(WorkGraph &w, const FrameTable &frames)
{
    for (size_t i = w.nodes.size(); i-- > 0;) {
        std::vector<uint32_t> in;
        for (uint32_t e : w.in[i])
            if (w.alive[e])
                in.push_back(e);
        sortEdges(in, w, frames);
        for (size_t j = in.size(); j-- > 0;) {
            if (!w.edges[in[j]].residual)
                break;   // never remove an edge heavier than a real call
            if (isRedundant(w, in[j]))
                w.alive[in[j]] = 0;
        }
    }
}

}   // namespace

class GraphPruning {
public:
    // pprof's report.newTrimmedGraph for -dot (visual mode).
    static std::shared_ptr<const CallGraph> run(detail::GraphWalk &walk, const GraphOptions &options,
                                                const BuildOptions &build, bool isDiff, const DiffOptions &diff)
    {
        const double noiseK = diff.noiseK;
        auto frames = walk.frames();
        WorkGraph g = makeGraph(walk.run(nullptr), {});
        int64_t flatSum = 0;
        for (const GraphNode &n : g.nodes)
            flatSum += n.flatValue();
        const int64_t nodeCutoff = abs64(goInt64(double(flatSum) * options.nodeFraction));
        const int64_t edgeCutoff = abs64(goInt64(double(flatSum) * options.edgeFraction));
        size_t droppedNodes = 0;
        if (nodeCutoff > 0) {
            std::vector<uint8_t> kept(frames->size(), 0);
            size_t keptCount = 0;
            for (const GraphNode &n : g.nodes)
                if (abs64(n.cumValue()) >= nodeCutoff) {
                    kept[n.frame] = 1;
                    ++keptCount;
                }
            if (keptCount != g.nodes.size()) {
                droppedNodes = g.nodes.size() - keptCount;
                g = makeGraph(walk.run(&kept), kept);
            }
        }
        const size_t origCount = g.nodes.size();
        sortByEntropy(g, *frames);
        if (options.nodeCount > 0) {
            trimEdges(g, edgeCutoff);
            const size_t candidates = std::min<size_t>(size_t(options.nodeCount), g.nodes.size());
            std::vector<FrameId> candidateFrames;
            for (size_t i = 0; i < candidates; ++i)
                candidateFrames.push_back(g.nodes[i].frame);
            const std::vector<size_t> tags =
                walk.tagCounts(g.kept.empty() ? nullptr : &g.kept, candidateFrames, nodeCutoff, options.outputUnit);
            size_t maxNodes = size_t(options.nodeCount), count = 0;
            for (size_t i = 0; i < candidates; ++i) {
                count += std::min<size_t>(tags[i], 4) + 1;   // pprof's maxNodelets
                if (count >= size_t(options.nodeCount)) {
                    maxNodes = i + 1;
                    break;
                }
            }
            maxNodes = std::min(maxNodes, g.nodes.size());
            if (maxNodes != g.nodes.size()) {
                std::vector<uint8_t> kept(frames->size(), 0);
                for (size_t i = 0; i < maxNodes; ++i)
                    kept[g.nodes[i].frame] = 1;
                g = makeGraph(walk.run(&kept), kept);
                sortByEntropy(g, *frames);
            }
        }
        const size_t droppedEdges = trimEdges(g, edgeCutoff);
        removeRedundantEdges(g, *frames);

        auto graph = std::shared_ptr<CallGraph>(new CallGraph);
        graph->m_nodes = g.nodes;
        std::vector<uint32_t> edges;
        for (uint32_t e = 0; e < g.edges.size(); ++e)
            if (g.alive[e])
                edges.push_back(e);
        sortEdges(edges, g, *frames);
        for (uint32_t e : edges)
            graph->m_edges.push_back(g.edges[e]);
        graph->m_frames = frames;
        graph->m_sampleType = walk.sampleType();
        graph->m_granularity = build.granularity;
        graph->m_options = options;
        graph->m_isDiff = isDiff;
        graph->m_countsKnown = walk.countsKnown();
        graph->m_noiseK = noiseK;
        graph->m_diffOptions = diff;
        if (isDiff) {   // the diff tree's arithmetic, on the same durations and totals
            const std::string names[2] = {walk.sideName(0), walk.sideName(1)};
            graph->m_scales = normalizationScales(diff, walk.durationNanos(), walk.sideTotals(), names);
        }
        graph->m_total = walk.pprofTotal();
        graph->m_nodeCutoff = nodeCutoff;
        graph->m_edgeCutoff = edgeCutoff;
        graph->m_origCount = origCount;
        graph->m_droppedNodes = droppedNodes;
        graph->m_droppedEdges = droppedEdges;
        return graph;
    }
};

std::shared_ptr<const CallGraph> CallGraph::build(const std::vector<std::shared_ptr<const Profile>> &profiles,
                                                  size_t typeIndex, const BuildOptions &build,
                                                  const GraphOptions &options)
{
    detail::GraphWalk walk({}, profiles, typeIndex, build);
    DiffOptions none;
    none.noiseK = 0;
    return GraphPruning::run(walk, options, build, false, none);
}

std::shared_ptr<const CallGraph> CallGraph::buildDiff(const std::vector<std::shared_ptr<const Profile>> &before,
                                                      const std::vector<std::shared_ptr<const Profile>> &after,
                                                      size_t typeIndex, const BuildOptions &build,
                                                      const GraphOptions &options, double noiseK)
{
    DiffOptions diff;
    diff.noiseK = noiseK;
    return buildDiff(before, after, typeIndex, build, options, diff);
}

std::shared_ptr<const CallGraph> CallGraph::buildDiff(const std::vector<std::shared_ptr<const Profile>> &before,
                                                      const std::vector<std::shared_ptr<const Profile>> &after,
                                                      size_t typeIndex, const BuildOptions &build,
                                                      const GraphOptions &options, const DiffOptions &diff)
{
    if (before.empty())
        throw ProfileError("no baseline profile to compare");
    if (!std::isfinite(diff.noiseK) || diff.noiseK < 0)
        throw ProfileError("the noise threshold must be a number of standard errors >= 0 (0 turns it off)");
    detail::GraphWalk walk(before, after, typeIndex, build);
    return GraphPruning::run(walk, options, build, true, diff);
}

std::vector<NamedEdgeWeight> CallGraph::edgeWeights(const std::vector<std::shared_ptr<const Profile>> &profiles,
                                                    size_t typeIndex, const BuildOptions &build)
{
    detail::GraphWalk walk({}, profiles, typeIndex, build);
    const detail::GraphSums sums = walk.run(nullptr);
    const FrameTable &frames = *walk.frames();
    std::vector<NamedEdgeWeight> out;
    for (size_t e = 0; e < sums.edgeKey.size(); ++e)
        if (sums.weight[1][e] != 0)
            out.push_back({frames.label(FrameId(sums.edgeKey[e] >> 32)), frames.label(FrameId(uint32_t(sums.edgeKey[e]))),
                           sums.weight[1][e]});
    std::sort(out.begin(), out.end(), [](const NamedEdgeWeight &a, const NamedEdgeWeight &b) {
        return a.caller != b.caller ? a.caller < b.caller : a.callee < b.callee;
    });
    return out;
}

int CallGraph::nodeOf(FrameId frame) const
{
    for (size_t i = 0; i < m_nodes.size(); ++i)
        if (m_nodes[i].frame == frame)
            return int(i);
    return -1;
}

int64_t CallGraph::shownFlat() const
{
    int64_t sum = 0;
    for (const GraphNode &n : m_nodes)
        sum += n.flatValue();
    return sum;
}

double CallGraph::shownDelta() const
{
    double sum = 0;
    for (const GraphNode &n : m_nodes)
        sum += flatDelta(n);
    return sum;
}

std::string CallGraph::normalizationText() const
{
    return normalizationSentence(m_diffOptions, m_scales, m_sampleType.unit);
}

DiffClass CallGraph::classOf(const GraphNode &n) const
{
    const std::less<const GraphNode *> before;   // n may be a copy: only the graph's own nodes have an index
    const bool own = !m_nodes.empty() && !before(&n, m_nodes.data()) && before(&n, m_nodes.data() + m_nodes.size());
    const size_t index = own ? size_t(&n - m_nodes.data()) : m_measuredError.size();
    if (index < m_measuredError.size() && m_measuredError[index] > 0) {   // the rounds' spread, in their unit
        const double delta = double(n.cum[1]) * m_measuredScale[1] - double(n.cum[0]) * m_measuredScale[0];
        return classifyDelta(n.onSide[0], n.onSide[1], delta, m_measuredError[index], m_noiseK);
    }
    // Poisson's in the shown unit, as the diff table's (each side's value scaled, its samples not).
    const double se = m_countsKnown ? deltaStandardError(double(n.cum[0]) * scale(0), n.cumSamples[0],
                                                         double(n.cum[1]) * scale(1), n.cumSamples[1])
                                    : 0;
    return classifyDelta(n.onSide[0], n.onSide[1], cumDelta(n), se, m_noiseK);
}

DiffClass CallGraph::classOf(const GraphEdge &e) const
{
    const std::less<const GraphEdge *> before;   // as for nodes: only the graph's own edges have an index
    const bool own = !m_edges.empty() && !before(&e, m_edges.data()) && before(&e, m_edges.data() + m_edges.size());
    const size_t index = own ? size_t(&e - m_edges.data()) : m_measuredEdgeError.size();
    if (index < m_measuredEdgeError.size() && m_measuredEdgeError[index] > 0) {   // the rounds' per-file spread
        const double delta =
            double(e.weight[1]) * m_measuredScale[1] - double(e.weight[0]) * m_measuredScale[0];
        return classifyDelta(e.onSide[0], e.onSide[1], delta, m_measuredEdgeError[index], m_noiseK);
    }
    const double se = m_countsKnown ? deltaStandardError(double(e.weight[0]) * scale(0), e.samples[0],
                                                         double(e.weight[1]) * scale(1), e.samples[1])
                                    : 0;
    return classifyDelta(e.onSide[0], e.onSide[1], edgeDelta(e), se, m_noiseK);
}

}   // namespace qflame
