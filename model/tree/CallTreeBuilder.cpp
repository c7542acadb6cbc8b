#include "tree/CallTreeBuilder.h"

#include "tree/ProfileFrames.h"

#include <algorithm>
#include <numeric>

namespace qflame {

using namespace detail;

// build() is in TreeByLevels.cpp.

std::shared_ptr<CallTree> CallTreeBuilder::emptyTree(const std::vector<std::shared_ptr<const Profile>> &profiles,
                                                     size_t typeIndex, const BuildOptions &options)
{
    const Profile &first = *profiles.front();
    auto tree = std::make_shared<CallTree>();
    tree->m_sampleType = {first.typeName(typeIndex), first.unitName(typeIndex)};
    tree->m_granularity = options.granularity;
    tree->m_profileCount = profiles.size();
    return tree;
}

std::shared_ptr<const CallTree> CallTreeBuilder::derive(CallTreeAccumulator &&nodes, const CallTree &like)
{
    auto tree = std::make_shared<CallTree>();
    tree->m_sampleType = like.m_sampleType;
    tree->m_granularity = like.m_granularity;
    tree->m_durationNanos = like.m_durationNanos;
    tree->m_profileCount = like.m_profileCount;
    tree->m_sampleCount = like.m_sampleCount;
    freeze(nodes, *like.m_frames, *tree, {});
    tree->m_frames = like.m_frames;
    return tree;
}

// Renumbers breadth-first with each node's children contiguous and sorted by label, and sums totals.
void CallTreeBuilder::freeze(CallTreeAccumulator &b, const FrameTable &frames, CallTree &tree,
                             const ProgressFn &progress)
{
    const size_t n = b.size();
    // The lookup structures are done with: freed before the tree's arrays are allocated, which lowers the peak.
    b.m_children = FlatHashMap(16);
    std::vector<uint32_t>().swap(b.m_hash);
    const std::vector<uint32_t> rank = frames.labelRanks();
    std::vector<uint32_t> childBegin(n + 1, 0);
    for (size_t i = 1; i < n; ++i)
        ++childBegin[b.m_parent[i] + 1];
    std::partial_sum(childBegin.begin(), childBegin.end(), childBegin.begin());
    std::vector<NodeId> childList(n > 0 ? n - 1 : 0);
    {
        std::vector<uint32_t> fill(childBegin.begin(), childBegin.end() - 1);
        for (size_t i = 1; i < n; ++i)
            childList[fill[b.m_parent[i]]++] = NodeId(i);
    }
    if (progress && !progress(0.85))
        throw Cancelled();

    tree.m_parent.resize(n);
    tree.m_frame.resize(n);
    tree.m_firstChild.resize(n);
    tree.m_childCount.resize(n);
    tree.m_depth.resize(n);
    tree.m_self.resize(n);
    tree.m_total.resize(n);
    tree.m_callKinds.resize(n);
    tree.m_samples.resize(n);
    std::vector<NodeId> order;   // order[newId] = oldId
    order.reserve(n);
    order.push_back(CallTree::kRoot);
    tree.m_parent[0] = CallTree::kRoot;
    tree.m_depth[0] = 0;
    for (size_t newId = 0; newId < n; ++newId) {
        const NodeId old = order[newId];
        auto first = childList.begin() + childBegin[old];
        auto last = childList.begin() + childBegin[old + 1];
        std::sort(first, last, [&](NodeId a, NodeId c) { return rank[b.m_frame[a]] < rank[b.m_frame[c]]; });
        tree.m_firstChild[newId] = NodeId(order.size());
        tree.m_childCount[newId] = uint32_t(last - first);
        for (auto it = first; it != last; ++it) {
            tree.m_parent[order.size()] = NodeId(newId);
            tree.m_depth[order.size()] = tree.m_depth[newId] + 1;
            order.push_back(*it);
        }
        tree.m_frame[newId] = b.m_frame[old];
        tree.m_self[newId] = b.m_self[old];
        tree.m_total[newId] = b.m_self[old];
        tree.m_callKinds[newId] = b.m_kinds[old];
        tree.m_samples[newId] = b.m_samples[old];
        tree.m_maxDepth = std::max(tree.m_maxDepth, tree.m_depth[newId]);
    }
    for (size_t i = n; i-- > 1;) {
        tree.m_total[tree.m_parent[i]] = wrappingAdd(tree.m_total[tree.m_parent[i]], tree.m_total[i]);
        tree.m_samples[tree.m_parent[i]] += tree.m_samples[i];
    }
}

std::vector<NodeId> CallTree::pathTo(NodeId n) const
{
    std::vector<NodeId> path;
    for (; n != kRoot; n = m_parent[n])
        path.push_back(n);
    std::reverse(path.begin(), path.end());
    return path;
}

}   // namespace qflame
