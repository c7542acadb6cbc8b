// pprof's "(inline)" marker, over the nodes of a tree: a function is marked when every call edge into it is
// inlined, and an edge (caller frame -> frame) is inlined only if all its occurrences are. Recursion's self-edges
// are not edges in pprof's graph. Only frames reached inlined somewhere can be marked, so the edges into other
// frames are not looked at. One rule for FlatTable (a CallTree) and DiffTable (the union of two trees, whose call
// kinds are those of both sides: pprof -diff_base builds one graph from both profiles).
#pragma once

#include "tree/CallTree.h"
#include "tree/FlatHashMap.h"

#include <cstdint>
#include <vector>

namespace qflame {

struct InlineEdges {
    std::vector<uint8_t> inlineIn;   // per frame: some edge into it is inlined at every occurrence
    std::vector<uint8_t> calledIn;   // per frame: some edge into it is a real call somewhere
};

// Tree: size(), parent(n), frame(n), callKinds(n) (CallTree::kInlined, kCalled) and kRoot, as CallTree and
// DiffTree have them.
template <class Tree>
InlineEdges inlineEdgesOf(const Tree &tree, size_t frameCount)
{
    std::vector<uint8_t> everInlined(frameCount, 0);
    size_t candidates = 0;
    for (NodeId n = 1; n < tree.size(); ++n)
        if (tree.callKinds(n) & CallTree::kInlined) {
            everInlined[tree.frame(n)] = 1;
            ++candidates;
        }
    InlineEdges result{std::vector<uint8_t>(frameCount, 0), std::vector<uint8_t>(frameCount, 0)};
    if (candidates == 0)
        return result;
    FlatHashMap edges(64);   // grows by doubling: a small profile should not clear a large table per tree
    std::vector<uint8_t> edgeCalled;   // per edge: some occurrence was a real call
    std::vector<FrameId> edgeTarget;
    for (NodeId n = 1; n < tree.size(); ++n) {
        const NodeId p = tree.parent(n);
        if (!everInlined[tree.frame(n)] || p == Tree::kRoot || tree.frame(p) == tree.frame(n))
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
    for (size_t e = 0; e < edgeCalled.size(); ++e)
        (edgeCalled[e] ? result.calledIn : result.inlineIn)[edgeTarget[e]] = 1;
    return result;
}

// The same rule over a list of edges (CallTree::callEdges of a bottom-up tree, or both sides' of a bottom-up
// comparison): an edge listed more than once is a call when any of its entries is.
inline InlineEdges inlineEdgesOf(const std::vector<CallTree::CallEdge> &list, size_t frameCount)
{
    InlineEdges result{std::vector<uint8_t>(frameCount, 0), std::vector<uint8_t>(frameCount, 0)};
    FlatHashMap edges(64);
    std::vector<uint8_t> edgeCalled;
    std::vector<FrameId> edgeTarget;
    for (const CallTree::CallEdge &e : list) {
        if (e.caller == e.callee || e.caller == FrameTable::kRoot)
            continue;
        bool inserted = false;
        const uint32_t id = edges.findOrInsert((uint64_t(e.caller) << 32) | e.callee, uint32_t(edgeCalled.size()),
                                               &inserted);
        if (inserted) {
            edgeCalled.push_back(0);
            edgeTarget.push_back(e.callee);
        }
        edgeCalled[id] |= uint8_t(e.called);
    }
    for (size_t e = 0; e < edgeCalled.size(); ++e)
        (edgeCalled[e] ? result.calledIn : result.inlineIn)[edgeTarget[e]] = 1;
    return result;
}

}   // namespace qflame
