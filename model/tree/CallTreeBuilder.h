// Builds a CallTree for one sample type from one or several profiles (merging sums them).
#pragma once

#include "io/ReadOptions.h"
#include "pprof/Profile.h"
#include "tree/CallTree.h"
#include "tree/FlatHashMap.h"
#include "tree/SampleFilter.h"

#include <functional>
#include <memory>
#include <vector>

namespace qflame {

struct BuildOptions {
    Granularity granularity = Granularity::Functions;
    // pprof's focus / ignore / hide / show / tagfocus / tagignore, and collapse recursion (SampleFilter.h).
    SampleFilters filters;
    // Optional: keep only the samples for which this returns true, on top of `filters`.
    std::function<bool(const Profile &, size_t sample)> sampleFilter;
    ProgressFn progress;
};

// The nodes of a call tree gathered in any order, node 0 being the root, before CallTreeBuilder freezes them
// into an immutable CallTree (renumbered breadth-first, children sorted by label, totals summed).
class CallTreeAccumulator {
public:
    // Small by default: a tree of a few frames (a folded snippet, a sandwich of a rare function) should not pay for
    // a 96 KB table; big trees grow it by doubling.
    explicit CallTreeAccumulator(size_t expectedNodes = 64) : m_children(expectedNodes)
    {
        m_parent.push_back(CallTree::kRoot);
        m_frame.push_back(FrameTable::kRoot);
        m_self.push_back(0);
        m_kinds.push_back(0);
        m_samples.push_back(0);
        m_hash.push_back(kRootHash);
    }

    // A node's hash is a function of the frames on its path (its parent's hash and its frame), so a caller
    // that knows a stack can compute the hashes of all its nodes before looking any of them up.
    static constexpr uint32_t kRootHash = 0x9747b28cu;
    static uint32_t pathHash(uint32_t parentHash, FrameId frame)
    {
        return uint32_t(FlatHashMap::mix((uint64_t(parentHash) << 32) | frame));
    }
    uint32_t hash(NodeId n) const { return m_hash[n]; }
    void prefetch(uint32_t hash) const { m_children.prefetch(hash); }

    // The child of `parent` for `frame`, created on first use; `callKinds` (CallTree::kInlined / kCalled) is
    // added to how that child was reached. `hash` must be pathHash(hash(parent), frame).
    // Forced inline: it runs once per frame of every sample (tens of millions of times on large profiles),
    // and GCC does not inline it into the build loop by itself.
    [[gnu::always_inline]] inline NodeId child(NodeId parent, FrameId frame, uint8_t callKinds, uint32_t hash)
    {
        bool inserted = false;
        const NodeId id = m_children.findOrInsertHashed((uint64_t(parent) << 32) | frame, hash,
                                                        NodeId(m_parent.size()), &inserted);
        if (inserted) {
            m_parent.push_back(parent);
            m_frame.push_back(frame);
            m_self.push_back(0);
            m_kinds.push_back(0);
            m_samples.push_back(0);
            m_hash.push_back(hash);
        }
        m_kinds[id] |= callKinds;
        return id;
    }
    NodeId child(NodeId parent, FrameId frame, uint8_t callKinds)
    {
        return child(parent, frame, callKinds, pathHash(m_hash[parent], frame));
    }
    // Adds `value` to the self value of n and `samples` to the number of samples that end in n.
    void addSelf(NodeId n, int64_t value, uint64_t samples)
    {
        m_self[n] = wrappingAdd(m_self[n], value);
        m_samples[n] += samples;
    }
    FrameId frame(NodeId n) const { return m_frame[n]; }
    size_t size() const { return m_parent.size(); }

private:
    friend class CallTreeBuilder;
    std::vector<NodeId> m_parent;
    std::vector<FrameId> m_frame;
    std::vector<int64_t> m_self;
    std::vector<uint8_t> m_kinds;
    std::vector<uint64_t> m_samples;
    std::vector<uint32_t> m_hash;
    FlatHashMap m_children;
};

class CallTreeBuilder {
public:
    // Builds the tree of sample type `typeIndex` of the first profile; every further profile must have a
    // sample type with the same name and unit, or ProfileError is thrown. drop_frames/keep_frames are applied
    // as pprof applies them, then options.filters; an option that does not compile throws FilterError.
    static std::shared_ptr<const CallTree> build(const std::vector<std::shared_ptr<const Profile>> &profiles,
                                                 size_t typeIndex, const BuildOptions &options = {});

    // What FlatTable needs without building the tree (pprof -top's numbers for `qflame top`): per frame,
    // flat and cum, whether some call edge into it is inlined / a real call, and a tree of the root only
    // (totals, frames, sample type). The same samples, filters and frames as build().
    struct FlatSums {
        std::shared_ptr<const CallTree> rootOnly;
        std::vector<int64_t> flat, cum;
        std::vector<uint8_t> inlineIn, calledIn;
    };
    static FlatSums flatSums(const std::vector<std::shared_ptr<const Profile>> &profiles, size_t typeIndex,
                             const BuildOptions &options = {});

    // Freezes nodes derived from `like` (a sandwich view of it, say) into a CallTree that shares its frame
    // table and carries its sample type, granularity, duration, profile count and sample count.
    static std::shared_ptr<const CallTree> derive(CallTreeAccumulator &&nodes, const CallTree &like);

private:
    // A tree with no nodes yet that names the sample type, granularity and profile count of a build.
    static std::shared_ptr<CallTree> emptyTree(const std::vector<std::shared_ptr<const Profile>> &profiles,
                                               size_t typeIndex, const BuildOptions &options);
    static void freeze(CallTreeAccumulator &nodes, const FrameTable &frames, CallTree &tree,
                       const ProgressFn &progress);
};

}   // namespace qflame
