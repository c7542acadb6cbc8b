// The call graph of a profile, as go tool pprof builds it for its default view (-dot, -http's Graph): one node per
// frame at the chosen granularity with its flat and cum, one edge per caller -> callee pair with the value that
// flows through it, then pprof's pruning (nodecount, nodefraction, edgefraction) with residual edges where a path
// ran through dropped nodes. A comparison's graph is the same over both sides, the baseline's values negated as
// `-diff_base` does, each node and edge carrying both sides' values and the diff's noise class.
//
// The rules are pprof 1.19's (internal/graph and report.newTrimmedGraph in visual mode), learnt from its source:
// - cum and edge weights count a sample once however often the frame or the pair occurs on its stack;
// - an edge is inline when every sample that counted it entered the callee as an inlined frame;
// - nodes under nodefraction * (sum of flat) of cum are dropped first and the graph rebuilt from the samples;
// - the rest is ordered by pprof's entropy score and the first nodecount kept (labels' nodelets count as
//   nodes, as in pprof), the graph rebuilt again;
// - edges under edgefraction * (sum of flat) are dropped, and residual edges whose target is reached otherwise.
#pragma once

#include "diff/DiffTree.h"
#include "tree/CallTree.h"
#include "tree/CallTreeBuilder.h"
#include "tree/FrameTable.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace qflame {

struct InliningChanges;
struct MeasuredNoise;
class CallGraph;
std::shared_ptr<const CallGraph> withInliningChanges(std::shared_ptr<const CallGraph>, const InliningChanges &);
std::shared_ptr<const CallGraph> withMeasuredNoise(std::shared_ptr<const CallGraph>, const MeasuredNoise &, double,
                                                   double);

struct GraphOptions {
    int64_t nodeCount = 80;        // at most this many nodes; 0 = no limit
    double nodeFraction = 0.005;   // drop nodes whose |cum| is under this share of the sum of flat
    double edgeFraction = 0.001;   // drop edges whose |weight| is under this share
    // pprof's -unit as far as the graph depends on it: labels' "bytes" values are named in this unit, and values
    // that print alike are one nodelet ("minimum": pprof's default, a readable unit per value).
    std::string outputUnit = "minimum";

    // Nothing pruned (pprof's -nodecount=0 -nodefraction=0 -edgefraction=0): every node and edge.
    static GraphOptions unpruned()
    {
        GraphOptions o;
        o.nodeCount = 0;
        o.nodeFraction = 0;
        o.edgeFraction = 0;
        return o;
    }
};

// One side's values, or for a comparison both: index 0 the baseline, 1 the comparison. A profile's graph holds
// its values in side 1 (side 0 all zero), so value() is the same expression for both kinds.
struct GraphNode {
    FrameId frame = 0;
    int64_t flat[2] = {0, 0}, cum[2] = {0, 0};
    double cumSamples[2] = {0, 0};   // the samples behind cum (the noise estimate), when known
    bool onSide[2] = {false, false};
    int64_t flatValue() const { return flat[1] - flat[0]; }   // pprof's value: the delta in a comparison
    int64_t cumValue() const { return cum[1] - cum[0]; }
};

struct GraphEdge {
    uint32_t from = 0, to = 0;       // indexes into CallGraph::nodes()
    int64_t weight[2] = {0, 0};
    double samples[2] = {0, 0};
    bool onSide[2] = {false, false};
    bool residual = false;           // the path went through nodes that were dropped
    bool inlined = false;            // the callee was inlined into the caller in every sample counted
    int64_t value() const { return weight[1] - weight[0]; }
    const char *kind() const { return residual ? "residual" : inlined ? "inline" : "call"; }
};

// A call edge by its frames' labels (as CallGraph::name names nodes) with its weight: side 1 of an unpruned
// walk, counted once per sample as the graph counts it.
struct NamedEdgeWeight {
    std::string caller, callee;
    int64_t weight = 0;
};

class CallGraph {
public:
    // Every edge of the graph of `profiles` before any pruning, with a non-zero weight, sorted by caller and
    // callee: what rounds keep per file for the measured noise of edges (rounds/Rounds.h), without a graph.
    static std::vector<NamedEdgeWeight> edgeWeights(const std::vector<std::shared_ptr<const Profile>> &profiles,
                                                    size_t typeIndex, const BuildOptions &build = {});

    // The graph of sample type `typeIndex` of `profiles` (merged), after `build`'s filters and granularity.
    // Throws ProfileError / FilterError as CallTreeBuilder::build does.
    static std::shared_ptr<const CallGraph> build(const std::vector<std::shared_ptr<const Profile>> &profiles,
                                                  size_t typeIndex, const BuildOptions &build = {},
                                                  const GraphOptions &options = {});
    // The comparison's graph: `after` minus `before` as pprof -diff_base=BEFORE AFTER, the sample type matched by
    // name and unit; noiseK standard errors (Poisson from samples/count, as DiffSide finds them) separate changes
    // from noise.
    static std::shared_ptr<const CallGraph> buildDiff(const std::vector<std::shared_ptr<const Profile>> &before,
                                                      const std::vector<std::shared_ptr<const Profile>> &after,
                                                      size_t typeIndex, const BuildOptions &build = {},
                                                      const GraphOptions &options = {}, double noiseK = 2.0);
    // The same under the diff's normalisation and noise setting (DiffOptions): the values shown, classed and
    // painted are each side's raw values times its scale (diff/DiffTree.h's normalizationScales, from the sides'
    // durations and totals, as the diff tree finds them). The nodes and edges kept are pprof's for the raw
    // values (-diff_base without -normalize). Throws ProfileError as the diff does for what a side lacks.
    static std::shared_ptr<const CallGraph> buildDiff(const std::vector<std::shared_ptr<const Profile>> &before,
                                                      const std::vector<std::shared_ptr<const Profile>> &after,
                                                      size_t typeIndex, const BuildOptions &build,
                                                      const GraphOptions &options, const DiffOptions &diff);

    // Nodes in pprof's order (its entropy score, then name); edges by |weight| descending, then caller, callee.
    const std::vector<GraphNode> &nodes() const { return m_nodes; }
    const std::vector<GraphEdge> &edges() const { return m_edges; }
    const FrameTable &frames() const { return *m_frames; }
    std::shared_ptr<const FrameTable> framesPtr() const { return m_frames; }
    const std::string &name(uint32_t node) const { return m_frames->label(m_nodes[node].frame); }
    // The node of a frame, or -1 when the graph has none.
    int nodeOf(FrameId frame) const;

    bool isDiff() const { return m_isDiff; }
    const SampleTypeInfo &sampleType() const { return m_sampleType; }
    Granularity granularity() const { return m_granularity; }
    const GraphOptions &options() const { return m_options; }
    // pprof's total for percentages: the sum of |value| of the samples (of the baseline in a comparison).
    int64_t total() const { return m_total; }
    // The sum of the nodes' flat values: what the graph shows ("Showing nodes accounting for ...").
    int64_t shownFlat() const;
    size_t nodesBeforeLimit() const { return m_origCount; }   // after nodefraction, before nodecount
    size_t droppedNodes() const { return m_droppedNodes; }    // by nodefraction
    size_t droppedEdges() const { return m_droppedEdges; }    // by edgefraction
    int64_t nodeCutoff() const { return m_nodeCutoff; }
    int64_t edgeCutoff() const { return m_edgeCutoff; }

    // The diff's normalisation: side s's raw values times scale(s) are what a comparison shows (1 and 1 for a
    // profile's graph and for Normalization::None). The deltas below are in that unit.
    const DiffOptions &diffOptions() const { return m_diffOptions; }
    bool isNormalized() const { return m_diffOptions.normalization != Normalization::None; }
    double scale(int side) const { return m_scales.scale(side); }
    double flatDelta(const GraphNode &n) const { return double(n.flat[1]) * scale(1) - double(n.flat[0]) * scale(0); }
    double cumDelta(const GraphNode &n) const { return double(n.cum[1]) * scale(1) - double(n.cum[0]) * scale(0); }
    double edgeDelta(const GraphEdge &e) const
    {
        return double(e.weight[1]) * scale(1) - double(e.weight[0]) * scale(0);
    }
    double scaledTotal() const { return double(m_total) * scale(0); }   // total() in the shown unit
    double shownDelta() const;                                           // shownFlat() in the shown unit
    // The diff's sentence for it ("total: the share view, not cost (the comparison scaled by 0.5 to ...)").
    std::string normalizationText() const;

    // Comparisons: whether sample counts are known, and a node's or edge's class by its cum or weight delta.
    bool hasSampleCounts() const { return m_countsKnown; }
    double noiseK() const { return m_noiseK; }
    DiffClass classOf(const GraphNode &n) const;
    DiffClass classOf(const GraphEdge &e) const;

    // What a comparison's graph learns from elsewhere (graph/GraphMarks.h). An edge's inlining change from the
    // PGO panel's model: int(InliningChange::Kind), or -1 for none.
    int inliningChangeOf(uint32_t edge) const { return edge < m_edgeInlining.size() ? m_edgeInlining[edge] : -1; }
    bool hasInliningChanges() const { return !m_edgeInlining.empty(); }
    // A node's (an edge's) standard error measured by rounds (in the scaled unit of measuredScale), 0 for
    // Poisson's.
    double measuredError(uint32_t node) const { return node < m_measuredError.size() ? m_measuredError[node] : 0; }
    double measuredEdgeError(uint32_t edge) const
    {
        return edge < m_measuredEdgeError.size() ? m_measuredEdgeError[edge] : 0;
    }
    bool hasMeasuredNoise() const { return !m_measuredError.empty(); }
    const std::string &measuredSource() const { return m_measuredSource; }

private:
    friend class GraphPruning;
    friend std::shared_ptr<const CallGraph> withInliningChanges(std::shared_ptr<const CallGraph>,
                                                                const InliningChanges &);
    friend std::shared_ptr<const CallGraph> withMeasuredNoise(std::shared_ptr<const CallGraph>, const MeasuredNoise &,
                                                              double, double);
    std::vector<int8_t> m_edgeInlining;
    std::vector<double> m_measuredError, m_measuredEdgeError;
    DiffOptions m_diffOptions;
    NormalizationScales m_scales;
    double m_measuredScale[2] = {1, 1};
    std::string m_measuredSource;
    std::vector<GraphNode> m_nodes;
    std::vector<GraphEdge> m_edges;
    std::shared_ptr<const FrameTable> m_frames;
    SampleTypeInfo m_sampleType;
    Granularity m_granularity = Granularity::Functions;
    GraphOptions m_options;
    bool m_isDiff = false, m_countsKnown = false;
    double m_noiseK = 2.0;
    int64_t m_total = 0, m_nodeCutoff = 0, m_edgeCutoff = 0;
    size_t m_origCount = 0, m_droppedNodes = 0, m_droppedEdges = 0;
};

}   // namespace qflame
