// An immutable call tree for one sample type: structure of arrays indexed by NodeId.
//
// Node 0 is the root. Nodes are numbered breadth-first, so the children of a node are the contiguous ids
// [firstChild, firstChild + childCount), sorted by frame label; a parent's id is always below its children's.
#pragma once

#include "pprof/Profile.h"
#include "tree/FrameTable.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace qflame {

using NodeId = uint32_t;

namespace detail {
class LevelBuild;
}

struct SampleTypeInfo {
    std::string type;   // "cpu"
    std::string unit;   // "nanoseconds"
};

class CallTree {
public:
    static constexpr NodeId kRoot = 0;

    size_t size() const { return m_parent.size(); }
    NodeId parent(NodeId n) const { return m_parent[n]; }
    FrameId frame(NodeId n) const { return m_frame[n]; }
    NodeId firstChild(NodeId n) const { return m_firstChild[n]; }
    uint32_t childCount(NodeId n) const { return m_childCount[n]; }
    int64_t self(NodeId n) const { return m_self[n]; }
    int64_t total(NodeId n) const { return m_total[n]; }
    uint32_t depth(NodeId n) const { return m_depth[n]; }
    // How many samples (with a non-zero value) pass through n, and how many end in n: pprof's "samples" of a
    // frame, the evidence behind its total.
    uint64_t samples(NodeId n) const { return m_samples[n]; }
    uint64_t selfSamples(NodeId n) const
    {
        uint64_t below = m_hiddenSamples.empty() ? 0 : m_hiddenSamples[n];
        for (NodeId c = m_firstChild[n]; c < m_firstChild[n] + m_childCount[n]; ++c)
            below += m_samples[c];
        return m_samples[n] - below;
    }
    uint32_t maxDepth() const { return m_maxDepth; }
    // Whether the frame of n was reached as an inlined call (bit kInlined) and/or as a real call (kCalled).
    enum : uint8_t { kInlined = 1, kCalled = 2 };
    uint8_t callKinds(NodeId n) const { return m_callKinds[n]; }
    bool isInlined(NodeId n) const { return m_callKinds[n] == kInlined; }

    // A first look at a large tree (StagedTreeBuild, tree/StagedTree.h): nodes too narrow to be a pixel wide are
    // left without their descendants. Every node present has the self, total, samples and self samples of the
    // same node in the whole tree; a node that lost its descendants keeps their height (the rows they take,
    // which the layout's merged columns show), and maxDepth() is the whole tree's.
    bool isComplete() const { return m_hiddenHeight.empty(); }
    uint32_t hiddenHeight(NodeId n) const { return m_hiddenHeight.empty() ? 0 : m_hiddenHeight[n]; }
    bool hidesDescendants(NodeId n) const { return !m_hiddenHeight.empty() && m_hiddenHeight[n] != 0; }

    const FrameTable &frames() const { return *m_frames; }
    const std::string &label(NodeId n) const { return m_frames->label(m_frame[n]); }

    const SampleTypeInfo &sampleType() const { return m_sampleType; }
    Granularity granularity() const { return m_granularity; }
    int64_t durationNanos() const { return m_durationNanos; }   // summed over merged profiles
    size_t profileCount() const { return m_profileCount; }
    size_t sampleCount() const { return m_sampleCount; }        // samples with a non-zero value
    // Bottom-up (SampleFilters::inverted): a node's children are its callers, the root's children the functions
    // samples end in, and a node's total the value of the stacks that end with its path (leaf first).
    bool isInverted() const { return m_inverted; }
    // A bottom-up tree's call edges (caller frame -> frame) into the frames reached inlined somewhere, each with
    // whether some occurrence was a real call: pprof's inline markers need them, and a bottom-up node's call kinds
    // mix the edges from all its callers. Empty for a top-down tree, whose nodes are its edges.
    struct CallEdge {
        FrameId caller, callee;
        bool called;
    };
    const std::vector<CallEdge> &callEdges() const { return m_callEdges; }

    // The path from the root's child down to n, as frame labels.
    std::vector<NodeId> pathTo(NodeId n) const;

private:
    friend class CallTreeBuilder;
    friend class detail::LevelBuild;
    std::vector<NodeId> m_parent, m_firstChild;
    std::vector<uint32_t> m_childCount, m_depth;
    std::vector<FrameId> m_frame;
    std::vector<int64_t> m_self, m_total;
    std::vector<uint64_t> m_samples;
    std::vector<uint8_t> m_callKinds;
    std::vector<uint32_t> m_hiddenHeight, m_hiddenSamples;   // a first look's (empty when complete)
    uint32_t m_maxDepth = 0;
    std::shared_ptr<const FrameTable> m_frames;
    SampleTypeInfo m_sampleType;
    Granularity m_granularity = Granularity::Functions;
    int64_t m_durationNanos = 0;
    size_t m_profileCount = 0;
    size_t m_sampleCount = 0;
    bool m_inverted = false;
    std::vector<CallEdge> m_callEdges;   // bottom-up only
};

}   // namespace qflame
