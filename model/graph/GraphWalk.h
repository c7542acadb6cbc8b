// The walk of the samples behind a call graph (CallGraph.h), internal to the model: pprof's graph.newGraph once
// per rebuild, over the frames the tree builder sees (ProfileFrames: drop_frames, filters, granularity).
#pragma once

#include "tree/CallTreeBuilder.h"
#include "tree/FrameTable.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace qflame {
class CompiledFilters;
}

namespace qflame::detail {

struct ProfileFrames;

// What one walk found: per frame and per edge, each side's sums (side 0 the baseline of a comparison, side 1
// the profile or the comparison).
struct GraphSums {
    std::vector<int64_t> flat[2], cum[2];
    std::vector<double> samples[2];
    std::vector<uint8_t> sides;            // bit s: some sample of side s with a non-zero value has the frame
    std::vector<uint64_t> edgeKey;         // caller << 32 | callee, by edge
    std::vector<int64_t> weight[2];
    std::vector<double> edgeSamples[2];
    std::vector<uint8_t> edgeSides, edgeResidual, edgeCalled;   // edgeCalled: some sample entered it by a call
};

class GraphWalk {
public:
    // `before` is empty for a profile's own graph. Throws ProfileError / FilterError.
    GraphWalk(const std::vector<std::shared_ptr<const Profile>> &before,
              const std::vector<std::shared_ptr<const Profile>> &after, size_t typeIndex, const BuildOptions &build);
    ~GraphWalk();

    // One walk; `kept`, when given, says by FrameId which frames may be nodes (pprof's KeptNodes): the others
    // are skipped, and an edge over them is residual.
    GraphSums run(const std::vector<uint8_t> *kept);

    // pprof's nodelets, which count as nodes when nodecount selects (graph.selectTopNodes in visual mode): for
    // each of `candidates` (frames), how many label tags and "bytes" tags have a non-zero flat value and a flat
    // or cum of at least `cutoff` in absolute value, in the graph walked with `kept`.
    std::vector<size_t> tagCounts(const std::vector<uint8_t> *kept, const std::vector<FrameId> &candidates,
                                  int64_t cutoff, const std::string &outputUnit);
    bool hasTags() const { return m_hasTags; }

    std::shared_ptr<const FrameTable> frames() const { return m_frames; }
    bool countsKnown() const { return m_countsKnown; }
    int64_t pprofTotal() const { return m_total; }   // sum of |value|, of the baseline's samples in a comparison
    SampleTypeInfo sampleType() const { return m_type; }
    // Per side, what the diff's normalisation reads (DiffTree's sides): the durations summed over the side's
    // profiles, the sum of the values of the samples kept, the first profile's name.
    const int64_t *durationNanos() const { return m_duration; }
    const int64_t *sideTotals() const { return m_sideTotal; }
    const std::string &sideName(int side) const { return m_sideName[side]; }

private:
    struct Input;
    template <typename Visit>
    void forEachSample(const Visit &visit);
    std::shared_ptr<FrameTable> m_frames;
    std::vector<std::unique_ptr<Input>> m_inputs;
    std::vector<std::shared_ptr<const Profile>> m_profiles;
    std::unique_ptr<CompiledFilters> m_compiled;   // the inputs' filters refer to it
    BuildOptions m_build;
    SampleTypeInfo m_type;
    bool m_countsKnown = true, m_hasTags = false;
    int64_t m_total = 0, m_duration[2] = {0, 0}, m_sideTotal[2] = {0, 0};
    std::string m_sideName[2];
    std::string m_bytesUnit = "bytes";
};

}   // namespace qflame::detail
