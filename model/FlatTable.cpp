#include "FlatTable.h"

#include "BesideThread.h"
#include "CallTreeBuilder.h"
#include "FlatHashMap.h"

#include <algorithm>

namespace qflame {

std::shared_ptr<const FlatTable> FlatTable::compute(std::shared_ptr<const CallTree> treePtr)
{
    const CallTree &tree = *treePtr;
    const size_t nFrames = tree.frames().size();
    std::vector<int64_t> flat(nFrames, 0), cum(nFrames, 0);
    std::vector<uint32_t> onPath(nFrames, 0);

    // cum: a sample is a root-to-leaf path, so counting each function once per sample is counting the total of
    // every node that has no ancestor of the same frame. Iterative DFS: stacks reach thousands of frames.
    struct Item { NodeId node; uint32_t next; };
    std::vector<Item> stack;
    stack.push_back({CallTree::kRoot, 0});
    while (!stack.empty()) {
        Item &top = stack.back();
        if (top.next < tree.childCount(top.node)) {
            const NodeId child = tree.firstChild(top.node) + top.next++;
            const FrameId f = tree.frame(child);
            if (onPath[f]++ == 0)
                cum[f] = wrappingAdd(cum[f], tree.total(child));
            flat[f] = wrappingAdd(flat[f], tree.self(child));
            stack.push_back({child, 0});
        } else {
            if (top.node != CallTree::kRoot)
                --onPath[tree.frame(top.node)];
            stack.pop_back();
        }
    }

    // pprof marks a node "(inline)" when every call edge into it is inlined; an edge (caller frame -> frame) is
    // inlined only if all its occurrences are. Self-edges of recursion are not edges in pprof's graph.
    // Only frames reached inlined somewhere can be marked: the edges into other frames are not looked at.
    std::vector<uint8_t> everInlined(nFrames, 0);
    for (NodeId n = 1; n < tree.size(); ++n)
        if (tree.callKinds(n) & CallTree::kInlined)
            everInlined[tree.frame(n)] = 1;
    FlatHashMap edges(64);   // grows by doubling: a small profile should not clear a 128 KB table per tree
    std::vector<uint8_t> edgeCalled;   // per edge: some occurrence was a real call
    std::vector<FrameId> edgeTarget;
    for (NodeId n = 1; n < tree.size(); ++n) {
        const NodeId p = tree.parent(n);
        if (!everInlined[tree.frame(n)] || p == CallTree::kRoot || tree.frame(p) == tree.frame(n))
            continue;
        bool inserted = false;
        const uint32_t e = edges.findOrInsert((uint64_t(tree.frame(p)) << 32) | tree.frame(n),
                                              uint32_t(edgeCalled.size()), &inserted);
        if (inserted) {
            edgeCalled.push_back(0);
            edgeTarget.push_back(tree.frame(n));
        }
        if (tree.callKinds(n) & CallTree::kCalled)
            edgeCalled[e] = 1;
    }
    std::vector<uint8_t> inlineIn(nFrames, 0), calledIn(nFrames, 0);
    for (size_t e = 0; e < edgeCalled.size(); ++e)
        (edgeCalled[e] ? calledIn : inlineIn)[edgeTarget[e]] = 1;
    return finish(std::move(treePtr), flat, cum, inlineIn, calledIn);
}

std::shared_ptr<const FlatTable> FlatTable::compute(const std::vector<std::shared_ptr<const Profile>> &profiles,
                                                    size_t typeIndex, const BuildOptions &options)
{
    CallTreeBuilder::FlatSums sums = CallTreeBuilder::flatSums(profiles, typeIndex, options);
    return finish(std::move(sums.rootOnly), sums.flat, sums.cum, sums.inlineIn, sums.calledIn);
}

namespace {

// Sorts the two halves at once, then merges them: sorting was a quarter of `qflame top` on a profile of 23,000
// functions whose flat and cum tie almost everywhere, so that labels decide (5.0 -> 3.1 ms). Below a few
// thousand rows a thread costs more than it saves.
template <typename T, typename Less>
void sortInTwo(std::vector<T> &v, Less less)
{
    constexpr size_t kThreadWorthIt = 4096;
    if (v.size() < kThreadWorthIt) {
        std::sort(v.begin(), v.end(), less);
        return;
    }
    const auto mid = v.begin() + std::ptrdiff_t(v.size() / 2);
    runBeside([&] { std::sort(v.begin(), mid, less); }, [&] { std::sort(mid, v.end(), less); });
    std::inplace_merge(v.begin(), mid, v.end(), less);
}

}   // namespace

std::shared_ptr<const FlatTable> FlatTable::finish(std::shared_ptr<const CallTree> treePtr,
                                                   const std::vector<int64_t> &flat, const std::vector<int64_t> &cum,
                                                   const std::vector<uint8_t> &inlineIn,
                                                   const std::vector<uint8_t> &calledIn)
{
    const CallTree &tree = *treePtr;
    const size_t nFrames = tree.frames().size();
    // Sorted on keys held in place, labels last and through 8 of their bytes where those differ: comparing
    // labels through the frame table chases three pointers, which dominated this function on profiles with
    // a million distinct functions (where flat and cum tie for almost every row). Where the 8 bytes tie too,
    // the key's own view of the label is compared.
    struct SortKey {
        int64_t flat, cum;
        uint64_t prefix;   // sortPrefix of the label from its tie group's common beginning on
        std::string_view label;
        FrameId frame;
    };
    const FrameTable &frames = tree.frames();
    std::vector<SortKey> keys;
    keys.reserve(nFrames);
    for (FrameId f = 1; f < nFrames; ++f) {
        if (flat[f] == 0 && cum[f] == 0)
            continue;
        keys.push_back({flat[f], cum[f], 0, frames.label(f), f});
    }
    // Labels are compared only between rows of equal flat and cum, and those often share a long beginning
    // (23,000 of pprof__large.cpu's rows are "main.setFunctions.funcN" with flat 0 and a few cums): the 8
    // bytes are taken after what all labels of such a group have in common, so they decide. Groups are hashed
    // into buckets; a bucket's common beginning is one of each of its groups', which keeps the order exact.
    constexpr size_t kBuckets = 4096;
    std::vector<uint32_t> bucketFirst(kBuckets, UINT32_MAX), bucketCommon(kBuckets, 0);
    auto bucket = [](const SortKey &k) {
        return size_t((uint64_t(k.flat) * 0x9e3779b97f4a7c15ull ^ uint64_t(k.cum)) * 0xbf58476d1ce4e5b9ull >> 52);
    };
    for (uint32_t i = 0; i < keys.size(); ++i) {
        const size_t b = bucket(keys[i]);
        if (bucketFirst[b] == UINT32_MAX) {
            bucketFirst[b] = i;
            bucketCommon[b] = uint32_t(std::min<size_t>(keys[i].label.size(), UINT32_MAX));
            continue;
        }
        const std::string_view a = keys[bucketFirst[b]].label, l = keys[i].label;
        uint32_t c = 0;
        while (c < bucketCommon[b] && c < l.size() && a[c] == l[c])
            ++c;
        bucketCommon[b] = c;
    }
    for (SortKey &k : keys)
        k.prefix = sortPrefix(k.label.substr(bucketCommon[bucket(k)]));
    auto less = [](const SortKey &a, const SortKey &b) {
        if (a.flat != b.flat)
            return a.flat > b.flat;
        if (a.cum != b.cum)
            return a.cum > b.cum;
        if (a.prefix != b.prefix)
            return a.prefix < b.prefix;
        const int c = a.label.compare(b.label);
        return c != 0 ? c < 0 : a.frame < b.frame;   // a total order: the same rows whichever way they are sorted
    };
    sortInTwo(keys, less);
    auto table = std::make_shared<FlatTable>();
    table->m_rows.reserve(keys.size());
    table->m_labels.reserve(keys.size());
    for (const SortKey &k : keys) {
        table->m_labels.push_back(k.label);
        FlatRow row;
        row.frame = k.frame;
        row.flat = k.flat;
        row.cum = k.cum;
        if (inlineIn[k.frame])
            row.inlined = calledIn[k.frame] ? FlatRow::Inline::Partly : FlatRow::Inline::Always;
        table->m_rows.push_back(row);
    }
    table->m_rowOfFrame.assign(nFrames, -1);
    for (size_t i = 0; i < table->m_rows.size(); ++i)
        table->m_rowOfFrame[table->m_rows[i].frame] = int(i);
    table->m_tree = std::move(treePtr);
    return table;
}

std::string FlatTable::displayName(const FlatRow &row) const
{
    return m_tree->frames().label(row.frame) + inlineSuffix(row.inlined);
}

const char *FlatTable::inlineSuffix(FlatRow::Inline inlined)
{
    switch (inlined) {
    case FlatRow::Inline::Always: return " (inline)";
    case FlatRow::Inline::Partly: return " (partial-inline)";
    case FlatRow::Inline::No: break;
    }
    return "";
}

int FlatTable::rowOf(FrameId frame) const
{
    return frame < m_rowOfFrame.size() ? m_rowOfFrame[frame] : -1;
}

}   // namespace qflame
