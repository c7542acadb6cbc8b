// DiffTree::build: one merged breadth-first walk of the two trees (and of their sample-count trees).
//
// Both trees number their nodes breadth-first with children sorted by label, so the union is built the way a
// merge sort merges: for each union node, the children of its baseline node and of its comparison node are
// merged in label order; equal frames become one union node. Frames are compared by their rank in one shared
// frame table, so the per-node work is integer comparisons: no strings, no hash lookups, no recursion.
#include "diff/DiffTree.h"

#include "io/Prefault.h"

#include <algorithm>
#include <numeric>

namespace qflame {

namespace {

constexpr NodeId kAbsent = DiffTree::kAbsent;

// Interns every frame of `from` into `into`, translating string ids; returns the union id of each frame.
std::vector<FrameId> internFrames(const FrameTable &from, FrameTable &into)
{
    constexpr StrId kUnset = UINT32_MAX;
    std::vector<StrId> strMap(from.strings().size(), kUnset);
    strMap[0] = 0;
    auto s = [&](StrId id) {
        if (strMap[id] == kUnset)
            strMap[id] = into.strings().intern(from.strings().str(id));
        return strMap[id];
    };
    std::vector<FrameId> map(from.size(), FrameTable::kRoot);
    for (FrameId f = 1; f < from.size(); ++f) {   // frame 0, the root, is the root of every table
        Frame x = from.frame(f);
        x.key.name = s(x.key.name);
        x.key.file = s(x.key.file);
        x.key.objfile = s(x.key.objfile);
        x.sourceFile = s(x.sourceFile);
        x.mappingFile = s(x.mappingFile);
        x.buildId = s(x.buildId);
        x.systemName = s(x.systemName);
        map[f] = into.intern(x.key, x);
    }
    return map;
}

struct Source {
    const CallTree *tree = nullptr;
    std::vector<uint32_t> rank;   // per frame of `tree`: the rank of its union frame
    uint32_t rankOf(NodeId n) const { return rank[tree->frame(n)]; }
};

// The children of one node in rank order. That is the tree's own order, except where two sibling frames have
// equal labels (nameless frames of different start lines can): then the tie is put in rank order here.
class Children {
public:
    void load(const Source &s, NodeId n)
    {
        m_first = s.tree->firstChild(n);
        m_count = s.tree->childCount(n);
        m_sorted = true;
        for (uint32_t i = 1; i < m_count && m_sorted; ++i)
            m_sorted = s.rankOf(m_first + i - 1) < s.rankOf(m_first + i);
        if (!m_sorted) {
            m_perm.resize(m_count);
            std::iota(m_perm.begin(), m_perm.end(), m_first);
            std::sort(m_perm.begin(), m_perm.end(), [&](NodeId a, NodeId b) { return s.rankOf(a) < s.rankOf(b); });
        }
    }
    void clear() { m_count = 0; }
    uint32_t size() const { return m_count; }
    NodeId at(uint32_t i) const { return m_sorted ? m_first + i : m_perm[i]; }

private:
    NodeId m_first = 0;
    uint32_t m_count = 0;
    bool m_sorted = true;
    std::vector<NodeId> m_perm;
};

}   // namespace

class DiffTreeBuilder {
public:
    static void merge(DiffTree::Data &o);
};

void DiffTreeBuilder::merge(DiffTree::Data &o)
{
    // One frame table for every tree; sources 0/1 are the value trees, 2/3 their count trees.
    auto frames = std::make_shared<FrameTable>();
    const CallTree *trees[4] = {o.sides[0].tree.get(), o.sides[1].tree.get(), o.sides[0].countTree.get(),
                                o.sides[1].countTree.get()};
    std::vector<FrameId> unionOf[4];
    for (int i = 0; i < 4; ++i)
        if (trees[i])
            unionOf[i] = internFrames(trees[i]->frames(), *frames);
    const std::vector<uint32_t> rankOfFrame = frames->labelRanks();   // label order, ties by id
    std::vector<FrameId> byRank(frames->size());
    for (FrameId f = 0; f < byRank.size(); ++f)
        byRank[rankOfFrame[f]] = f;
    Source src[4];
    for (int i = 0; i < 4; ++i) {
        if (!trees[i])
            continue;
        src[i].tree = trees[i];
        src[i].rank.resize(unionOf[i].size());
        for (size_t f = 0; f < unionOf[i].size(); ++f)
            src[i].rank[f] = rankOfFrame[unionOf[i][f]];
    }

    const CallTree &tb = *trees[0], &ta = *trees[1];
    const size_t capacity = tb.size() + ta.size() - 1;
    o.parent.reserve(capacity);
    o.firstChild.reserve(capacity);
    o.childCount.reserve(capacity);
    o.depth.reserve(capacity);
    o.frame.reserve(capacity);
    o.callKinds.reserve(capacity);
    for (int s = 0; s < 2; ++s) {
        o.sideNode[s].reserve(capacity);
        o.self[s].reserve(capacity);
        o.total[s].reserve(capacity);
        if (trees[2 + s]) {
            o.countSelf[s].reserve(capacity);
            o.countTotal[s].reserve(capacity);
        }
    }
    // The arrays take up to 150 MB for two trees of a million nodes: their pages are faulted in by the other
    // core while this one merges (Prefault.h).
    std::vector<Prefaulter::Range> ranges = {
        Prefaulter::unwritten(o.parent), Prefaulter::unwritten(o.firstChild), Prefaulter::unwritten(o.childCount),
        Prefaulter::unwritten(o.depth), Prefaulter::unwritten(o.frame), Prefaulter::unwritten(o.callKinds)};
    for (int s = 0; s < 2; ++s)
        for (const auto *v : {&o.self[s], &o.total[s]})
            ranges.push_back(Prefaulter::unwritten(*v));
    std::vector<NodeId> countNode[2];   // per union node: the node of the count tree, or kAbsent
    for (int s = 0; s < 2; ++s) {
        ranges.push_back(Prefaulter::unwritten(o.sideNode[s]));
        if (trees[2 + s]) {
            countNode[s].reserve(capacity);
            for (const auto *v : {&o.countSelf[s], &o.countTotal[s]})
                ranges.push_back(Prefaulter::unwritten(*v));
            ranges.push_back(Prefaulter::unwritten(countNode[s]));
        }
    }
    Prefaulter prefaulter;
    prefaulter.start(std::move(ranges));
    auto push = [&](NodeId parent, uint32_t depth, FrameId frame, NodeId nb, NodeId na) {
        o.parent.push_back(parent);
        o.firstChild.push_back(0);
        o.childCount.push_back(0);
        o.depth.push_back(depth);
        o.frame.push_back(frame);
        o.callKinds.push_back(uint8_t((nb != kAbsent ? tb.callKinds(nb) : 0) | (na != kAbsent ? ta.callKinds(na) : 0)));
        o.sideNode[0].push_back(nb);
        o.sideNode[1].push_back(na);
        o.self[0].push_back(nb != kAbsent ? tb.self(nb) : 0);
        o.total[0].push_back(nb != kAbsent ? tb.total(nb) : 0);
        o.self[1].push_back(na != kAbsent ? ta.self(na) : 0);
        o.total[1].push_back(na != kAbsent ? ta.total(na) : 0);
        for (int s = 0; s < 2; ++s)
            if (trees[2 + s]) {
                countNode[s].push_back(kAbsent);
                o.countSelf[s].push_back(0);
                o.countTotal[s].push_back(0);
            }
        o.maxDepth = std::max(o.maxDepth, depth);
    };
    push(DiffTree::kRoot, 0, FrameTable::kRoot, CallTree::kRoot, CallTree::kRoot);
    for (int s = 0; s < 2; ++s)
        if (const CallTree *ct = trees[2 + s]) {
            countNode[s][0] = CallTree::kRoot;
            o.countSelf[s][0] = double(ct->self(CallTree::kRoot));
            o.countTotal[s][0] = double(ct->total(CallTree::kRoot));
        }

    Children cb, ca, cc;
    for (NodeId n = 0; n < o.parent.size(); ++n) {
        const NodeId nb = o.sideNode[0][n], na = o.sideNode[1][n];
        nb != kAbsent ? cb.load(src[0], nb) : cb.clear();
        na != kAbsent ? ca.load(src[1], na) : ca.clear();
        const NodeId first = NodeId(o.parent.size());
        const uint32_t depth = o.depth[n] + 1;
        uint32_t ib = 0, ia = 0;
        while (ib < cb.size() || ia < ca.size()) {
            const uint32_t rb = ib < cb.size() ? src[0].rankOf(cb.at(ib)) : UINT32_MAX;
            const uint32_t ra = ia < ca.size() ? src[1].rankOf(ca.at(ia)) : UINT32_MAX;
            const uint32_t r = std::min(rb, ra);
            const NodeId childB = rb == r ? cb.at(ib++) : kAbsent;
            const NodeId childA = ra == r ? ca.at(ia++) : kAbsent;
            push(n, depth, byRank[r], childB, childA);
        }
        o.firstChild[n] = first;
        o.childCount[n] = uint32_t(o.parent.size() - first);

        // Sample counts: the count tree's children matched to the union children just made, by rank.
        for (int s = 0; s < 2; ++s) {
            const CallTree *ct = trees[2 + s];
            if (!ct || countNode[s][n] == kAbsent)
                continue;
            cc.load(src[2 + s], countNode[s][n]);
            uint32_t j = 0;
            for (NodeId c = first; c < first + o.childCount[n] && j < cc.size(); ++c) {
                const uint32_t rc = rankOfFrame[o.frame[c]];
                while (j < cc.size() && src[2 + s].rankOf(cc.at(j)) < rc)
                    ++j;
                if (j < cc.size() && src[2 + s].rankOf(cc.at(j)) == rc) {
                    const NodeId m = cc.at(j++);
                    countNode[s][c] = m;
                    o.countSelf[s][c] = double(ct->self(m));
                    o.countTotal[s][c] = double(ct->total(m));
                }
            }
        }
    }
    prefaulter.stop();
    for (int i = 0; i < 2; ++i)   // pprof builds one graph from both profiles: one list of edges
        for (const CallTree::CallEdge &e : trees[i]->callEdges())
            o.callEdges.push_back({unionOf[i][e.caller], unionOf[i][e.callee], e.called});
    o.frames = std::move(frames);
}

std::shared_ptr<const DiffTree> DiffTree::build(const DiffSide &before, const DiffSide &after,
                                                const DiffOptions &options)
{
    if (!before.tree || !after.tree)
        throw ProfileError("nothing to compare: a side has no call tree");
    const SampleTypeInfo &tb = before.tree->sampleType(), &ta = after.tree->sampleType();
    if (tb.type != ta.type || tb.unit != ta.unit)
        throw ProfileError("cannot compare " + tb.type + "/" + tb.unit + " (" + before.name + ") with " + ta.type +
                           "/" + ta.unit + " (" + after.name + "): the sample types differ");
    if (before.tree->granularity() != after.tree->granularity())
        throw ProfileError(std::string("cannot compare a call tree of ") + granularityName(before.tree->granularity()) +
                           " with one of " + granularityName(after.tree->granularity()));
    for (const DiffSide *side : {&before, &after})
        if (side->countTree && side->countTree->granularity() != side->tree->granularity())
            throw ProfileError("the sample counts of " + side->name + " are at another granularity");

    auto data = std::make_shared<Data>();
    data->sides[0] = before;
    data->sides[1] = after;
    data->countsKnown = before.hasSampleCounts() && after.hasSampleCounts();
    std::shared_ptr<DiffTree> tree(new DiffTree);
    tree->d = data;
    tree->applyOptions(options);   // refuses before the walk, not after
    DiffTreeBuilder::merge(*data);
    return tree;
}

}   // namespace qflame
