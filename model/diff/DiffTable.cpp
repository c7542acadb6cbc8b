#include "diff/DiffTable.h"

#include "tree/InlineEdges.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace qflame {

namespace {

struct Sums {
    int64_t flat[2] = {0, 0}, cum[2] = {0, 0};
    double flatSamples[2] = {0, 0}, cumSamples[2] = {0, 0};
    bool present[2] = {false, false};
};

// pprof's inline marker, computed as FlatTable does but over the union, whose call kinds are those of both
// sides: pprof -diff_base builds one graph from both profiles, so an edge is inlined only if it is on both.
std::vector<FlatRow::Inline> inlineMarkers(const DiffTree &tree)
{
    const size_t nFrames = tree.frames().size();
    std::vector<FlatRow::Inline> marker(nFrames, FlatRow::Inline::No);
    // A bottom-up node's kinds are of its own frame's entry mixed over all its callers: its edges are listed.
    const InlineEdges marks = tree.isInverted() ? inlineEdgesOf(tree.callEdges(), nFrames) : inlineEdgesOf(tree, nFrames);
    for (size_t f = 0; f < nFrames; ++f)
        if (marks.inlineIn[f])
            marker[f] = marks.calledIn[f] ? FlatRow::Inline::Partly : FlatRow::Inline::Always;
    return marker;
}

}   // namespace

std::shared_ptr<const DiffTable> DiffTable::compute(std::shared_ptr<const DiffTree> treePtr,
                                                    std::shared_ptr<const MeasuredNoise> measured)
{
    const DiffTree &tree = *treePtr;
    const size_t nFrames = tree.frames().size();
    std::vector<Sums> sums(nFrames);
    std::vector<uint32_t> onPath(nFrames, 0);
    const bool inverted = tree.isInverted();

    // cum counts a function once per sample: the totals of its nodes that have no ancestor of the same frame.
    // Every sample of either side is one root-to-node path of the union. Iterative DFS: stacks are deep.
    struct Item { NodeId node; uint32_t next; };
    std::vector<Item> stack;
    stack.push_back({DiffTree::kRoot, 0});
    while (!stack.empty()) {
        Item &top = stack.back();
        if (top.next < tree.childCount(top.node)) {
            const NodeId c = tree.firstChild(top.node) + top.next++;
            Sums &s = sums[tree.frame(c)];
            if (onPath[tree.frame(c)]++ == 0) {
                s.cum[0] += tree.beforeTotalRaw(c);
                s.cum[1] += tree.afterTotalRaw(c);
                s.cumSamples[0] += tree.beforeSamples(c);
                s.cumSamples[1] += tree.afterSamples(c);
            }
            if (!inverted) {
                s.flat[0] += tree.beforeSelfRaw(c);
                s.flat[1] += tree.afterSelfRaw(c);
                s.flatSamples[0] += tree.beforeSelfSamples(c);
                s.flatSamples[1] += tree.afterSelfSamples(c);
            } else if (top.node == DiffTree::kRoot) {   // bottom-up: the stacks that end in a function are its root
                s.flat[0] += tree.beforeTotalRaw(c);
                s.flat[1] += tree.afterTotalRaw(c);
                s.flatSamples[0] += tree.beforeSamples(c);
                s.flatSamples[1] += tree.afterSamples(c);
            }
            s.present[0] = s.present[0] || tree.inBefore(c);
            s.present[1] = s.present[1] || tree.inAfter(c);
            stack.push_back({c, 0});
        } else {
            if (top.node != DiffTree::kRoot)
                --onPath[tree.frame(top.node)];
            stack.pop_back();
        }
    }

    const std::vector<FlatRow::Inline> markers = inlineMarkers(tree);
    const double k = tree.options().noiseK;
    const bool counts = tree.hasSampleCounts();
    auto table = std::make_shared<DiffTable>();
    table->m_tree = std::move(treePtr);
    std::vector<DiffRow> rows;
    for (FrameId f = 1; f < nFrames; ++f) {
        const Sums &s = sums[f];
        if (!s.present[0] && !s.present[1])
            continue;
        DiffRow r;
        r.frame = f;
        r.beforeFlatRaw = s.flat[0];
        r.beforeCumRaw = s.cum[0];
        r.afterFlatRaw = s.flat[1];
        r.afterCumRaw = s.cum[1];
        r.beforeFlat = tree.scaleBefore(double(s.flat[0]));
        r.beforeCum = tree.scaleBefore(double(s.cum[0]));
        r.afterFlat = tree.scaleAfter(double(s.flat[1]));
        r.afterCum = tree.scaleAfter(double(s.cum[1]));
        r.deltaFlat = r.afterFlat - r.beforeFlat;
        r.deltaCum = r.afterCum - r.beforeCum;
        if (counts) {
            r.beforeCumSamples = s.cumSamples[0];
            r.afterCumSamples = s.cumSamples[1];
            r.standardErrorFlat = deltaStandardError(r.beforeFlat, s.flatSamples[0], r.afterFlat, s.flatSamples[1]);
            r.standardErrorCum = deltaStandardError(r.beforeCum, s.cumSamples[0], r.afterCum, s.cumSamples[1]);
        }
        r.inBefore = s.present[0];
        r.inAfter = s.present[1];
        r.diffClass = classifyDelta(r.inBefore, r.inAfter, r.deltaCum, r.standardErrorCum, k);
        r.flatDiffClass = classifyDelta(r.inBefore, r.inAfter, r.deltaFlat, r.standardErrorFlat, k);
        r.inlined = markers[f];
        if (measured && measured->normalization == tree.options().normalization) {
            auto it = measured->cumStandardError.find(table->displayName(r));
            if (it != measured->cumStandardError.end() && std::isfinite(it->second) && it->second > 0) {
                r.standardErrorCum = it->second;
                r.diffClass = classifyDelta(r.inBefore, r.inAfter, r.deltaCum, r.standardErrorCum, k);
                r.measuredNoise = true;
            }
        }
        rows.push_back(r);
    }

    std::vector<std::string> names(rows.size());
    for (size_t i = 0; i < rows.size(); ++i)
        names[i] = table->displayName(rows[i]);
    std::vector<uint32_t> order(rows.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        const double da = std::fabs(rows[a].deltaCum), db = std::fabs(rows[b].deltaCum);
        if (da != db)
            return da > db;
        if (names[a] != names[b])
            return names[a] < names[b];
        return rows[a].frame < rows[b].frame;
    });
    table->m_rows.reserve(rows.size());
    table->m_rowOfFrame.assign(nFrames, -1);
    for (uint32_t i : order) {
        table->m_rowOfFrame[rows[i].frame] = int(table->m_rows.size());
        table->m_rows.push_back(rows[i]);
    }
    return table;
}

std::string DiffTable::displayName(const DiffRow &row) const
{
    const std::string &name = label(row);
    switch (row.inlined) {
    case FlatRow::Inline::Always: return name + " (inline)";
    case FlatRow::Inline::Partly: return name + " (partial-inline)";
    case FlatRow::Inline::No: break;
    }
    return name;
}

int DiffTable::rowOf(FrameId frame) const
{
    return frame < m_rowOfFrame.size() ? m_rowOfFrame[frame] : -1;
}

}   // namespace qflame
