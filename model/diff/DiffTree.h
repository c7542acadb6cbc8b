// The union of a baseline and a comparison call tree, matched by frame path, with what changed and how sure
// that is.
//
// Same shape as CallTree: immutable structure of arrays indexed by NodeId, node 0 the root, numbered
// breadth-first with each node's children contiguous and sorted by frame label. A node exists when its path
// (the sequence of frames from the root, at the trees' granularity) exists on either side.
//
// Values come twice: raw, the integers the profiles hold, and normalised, doubles after the normalisation in
// force (never rounded). Deltas are after - before, so a positive delta is more cost in the comparison.
#pragma once

#include "diff/DiffSide.h"
#include "io/ReadOptions.h"
#include "tree/CallTree.h"
#include "tree/FrameTable.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace qflame {

enum class DiffClass : uint8_t {
    Unchanged,     // delta exactly 0
    WithinNoise,   // |delta| below the noise threshold
    Slower,        // more cost in the comparison
    Faster,        // less cost in the comparison
    New,           // on the comparison side only
    Removed,       // on the baseline side only
};
// "unchanged", "noise", "slower", "faster", "new", "removed": one word, for tables and TSV.
const char *diffClassName(DiffClass c);

enum class Normalization : uint8_t {
    None,        // absolute values in the sample unit
    PerSecond,   // each side divided by its own duration
    Total,       // the comparison scaled to the baseline total: the share view, for reference
    Factor,      // the comparison multiplied by DiffOptions::factor
};

struct DiffOptions {
    Normalization normalization = Normalization::None;
    double factor = 1.0;   // Factor only; finite and > 0
    double noiseK = 2.0;   // a |delta| below noiseK standard errors is within noise; 0 turns the test off
};

// Parses "none", "per-second", "total" or a positive number (a custom factor) into options.
bool parseNormalization(std::string_view text, DiffOptions *options);
const char *normalizationName(Normalization n);   // "none", "per-second", "total", "factor"

// The classification rule, shared by nodes and functions: one side only wins, then an exact 0, then noise
// (only when standardError > 0 and k > 0), then the sign.
DiffClass classifyDelta(bool inBefore, bool inAfter, double delta, double standardError, double k);

// The Poisson standard error of (after - before), in the normalised unit: each side contributes
// value^2 / samples (= samples * valuePerSample^2), which is valuePerSample * sqrt(n_before + n_after) when both
// sides carry the same value per sample. A side with no samples contributes nothing.
double deltaStandardError(double before, double beforeSamples, double after, double afterSamples);

// The diff's normalisation as numbers: side s's raw value times num[s] / den[s]. From each side's duration
// (nanoseconds, summed over merged profiles) and root total; `names` name the sides in the errors. The one place
// its arithmetic is: the diff tree and the comparison's call graph (graph/CallGraph.h) both use it. Throws
// ProfileError when a side lacks what the normalisation needs.
struct NormalizationScales {
    double num[2] = {1, 1}, den[2] = {1, 1};
    double scale(int side) const { return num[side] / den[side]; }
};
NormalizationScales normalizationScales(const DiffOptions &options, const int64_t durationNanos[2],
                                        const int64_t totals[2], const std::string names[2]);
// The sentence that states it ("total: the share view, not cost (the comparison scaled by 0.5 ...)").
std::string normalizationSentence(const DiffOptions &options, const NormalizationScales &scales,
                                  const std::string &unit);

// A value normalised by `n` for people, as the diff shows it: "1.23 s", "45.6 MiB", per second "1.5 cores" for
// time and "2 MiB/s" else; with `sign`, positive values get a '+'.
std::string formatNormalizedValue(double value, const std::string &unit, Normalization n, bool sign = false);

// The shortest decimal that reads back as the same double ("0.1", "2.4", "1e+21"): exact and still short.
std::string formatExact(double value);

class DiffTree {
public:
    static constexpr NodeId kRoot = 0;
    static constexpr NodeId kAbsent = UINT32_MAX;

    // The union of before and after. Throws ProfileError when the sample types (type and unit) or the
    // granularities differ, or when the normalisation cannot be applied (per-second without a duration, total
    // with a zero total, a factor that is not a positive number).
    static std::shared_ptr<const DiffTree> build(const DiffSide &before, const DiffSide &after,
                                                 const DiffOptions &options = {});
    // The same union under other options: shares the structure, costs no walk. Throws like build().
    std::shared_ptr<const DiffTree> withOptions(const DiffOptions &options) const;

    // Structure, as in CallTree. Frames are in one table for both sides.
    size_t size() const { return d->parent.size(); }
    NodeId parent(NodeId n) const { return d->parent[n]; }
    NodeId firstChild(NodeId n) const { return d->firstChild[n]; }
    uint32_t childCount(NodeId n) const { return d->childCount[n]; }
    uint32_t depth(NodeId n) const { return d->depth[n]; }
    uint32_t maxDepth() const { return d->maxDepth; }
    FrameId frame(NodeId n) const { return d->frame[n]; }
    const FrameTable &frames() const { return *d->frames; }
    const std::string &label(NodeId n) const { return d->frames->label(d->frame[n]); }
    uint8_t callKinds(NodeId n) const { return d->callKinds[n]; }   // CallTree::kInlined | kCalled, either side
    // A bottom-up comparison's call edges, both sides' in the union's frames (CallTree::callEdges); empty top-down.
    const std::vector<CallTree::CallEdge> &callEdges() const { return d->callEdges; }
    std::vector<NodeId> pathTo(NodeId n) const;                     // from the root's child down to n

    // The node with the same path in before().tree / after().tree, or kAbsent.
    NodeId beforeNode(NodeId n) const { return d->sideNode[0][n]; }
    NodeId afterNode(NodeId n) const { return d->sideNode[1][n]; }
    bool inBefore(NodeId n) const { return d->sideNode[0][n] != kAbsent; }
    bool inAfter(NodeId n) const { return d->sideNode[1][n] != kAbsent; }

    // Raw values: the profiles' integers in the sample unit, 0 on a side without the node.
    int64_t beforeSelfRaw(NodeId n) const { return d->self[0][n]; }
    int64_t afterSelfRaw(NodeId n) const { return d->self[1][n]; }
    int64_t beforeTotalRaw(NodeId n) const { return d->total[0][n]; }
    int64_t afterTotalRaw(NodeId n) const { return d->total[1][n]; }

    // Normalised values and deltas.
    double beforeSelf(NodeId n) const { return scaleBefore(d->self[0][n]); }
    double afterSelf(NodeId n) const { return scaleAfter(d->self[1][n]); }
    double beforeTotal(NodeId n) const { return scaleBefore(d->total[0][n]); }
    double afterTotal(NodeId n) const { return scaleAfter(d->total[1][n]); }
    double deltaSelf(NodeId n) const { return afterSelf(n) - beforeSelf(n); }
    double deltaTotal(NodeId n) const { return afterTotal(n) - beforeTotal(n); }
    // Raw value -> normalised value of each side: raw * numerator / denominator, one rounding.
    double scaleBefore(double raw) const { return raw * m_num[0] / m_den[0]; }
    double scaleAfter(double raw) const { return raw * m_num[1] / m_den[1]; }
    double beforeScale() const { return m_num[0] / m_den[0]; }
    double afterScale() const { return m_num[1] / m_den[1]; }

    // Noise. Sample counts are known when both sides know them (DiffSide::hasSampleCounts).
    bool hasSampleCounts() const { return d->countsKnown; }
    double beforeSamples(NodeId n) const { return samples(0, n, true); }       // behind beforeTotalRaw
    double afterSamples(NodeId n) const { return samples(1, n, true); }
    double beforeSelfSamples(NodeId n) const { return samples(0, n, false); }  // behind beforeSelfRaw
    double afterSelfSamples(NodeId n) const { return samples(1, n, false); }
    double standardError(NodeId n) const;       // of deltaTotal; 0 when counts are unknown
    double standardErrorSelf(NodeId n) const;   // of deltaSelf
    DiffClass classOf(NodeId n) const;          // by deltaTotal
    DiffClass selfClassOf(NodeId n) const;      // by deltaSelf

    // The comparison as a whole.
    const DiffOptions &options() const { return m_options; }
    const DiffSide &before() const { return d->sides[0]; }
    const DiffSide &after() const { return d->sides[1]; }
    const SampleTypeInfo &sampleType() const { return d->sides[0].tree->sampleType(); }
    Granularity granularity() const { return d->sides[0].tree->granularity(); }
    bool isInverted() const { return d->sides[0].tree->isInverted(); }   // both sides' trees are bottom-up
    int64_t beforeDurationNanos() const { return d->sides[0].tree->durationNanos(); }
    int64_t afterDurationNanos() const { return d->sides[1].tree->durationNanos(); }
    // Both durations known and differing by more than 5% of the baseline's: absolute deltas then mix the
    // change with the length of the recording, and per-second normalisation is worth offering.
    bool durationsDiffer() const;
    double durationRatio() const;   // after / before, 0 when either is unknown

    // Sentences for people, stating what is in force.
    std::string normalizationDescription() const;
    std::string durationDescription() const;
    std::string noiseDescription() const;
    // The unit of normalised numbers: the sample unit, "/s" appended under per-second normalisation.
    std::string valueUnit() const;
    // A normalised value for people: "1.23 s", "45.6 MiB", per second "1.5 cores" for time and "2 MiB/s" else;
    // with `sign`, positive values get a '+'.
    std::string formatValue(double value, bool sign = false) const;

private:
    struct Data {
        std::vector<NodeId> parent, firstChild;
        std::vector<uint32_t> childCount, depth;
        std::vector<FrameId> frame;
        std::vector<uint8_t> callKinds;
        std::vector<NodeId> sideNode[2];
        std::vector<int64_t> self[2], total[2];
        std::vector<double> countSelf[2], countTotal[2];   // only for a side with a count tree
        uint32_t maxDepth = 0;
        bool countsKnown = false;
        std::shared_ptr<const FrameTable> frames;
        DiffSide sides[2];
        std::vector<CallTree::CallEdge> callEdges;   // bottom-up: both sides' (CallTree::callEdges), union frames
    };
    friend class DiffTreeBuilder;

    DiffTree() = default;
    double samples(int side, NodeId n, bool total) const;
    void applyOptions(const DiffOptions &options);   // validates and sets the scales

    std::shared_ptr<const Data> d;
    DiffOptions m_options;
    double m_num[2] = {1, 1}, m_den[2] = {1, 1};
};

}   // namespace qflame
