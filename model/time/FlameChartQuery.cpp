// The flame chart's queries (time/FlameChart.h): a level read with a binary search per row, or, finer than
// level 1, the narrow boxes made from the samples in view and the wide ones read from level 1.
#include "time/FlameChart.h"

#include "time/FlameChartLane.h"

#include <algorithm>
#include <optional>

namespace qflame {

namespace {

bool byDepthThenStart(const FlameBox &a, const FlameBox &b)
{
    return a.depth != b.depth ? a.depth < b.depth : a.start < b.start;
}

// The items of one row that overlap [from, to): they are disjoint and in time order, so their ends are too.
template <class Fn>
void overlapping(const FlameChart::LaneData::Level &level, uint32_t row, int64_t from, int64_t to, Fn &&fn)
{
    const auto begin = level.items.begin() + level.rowBegin[row], end = level.items.begin() + level.rowBegin[row + 1];
    auto it = std::partition_point(begin, end, [&](const FlameChart::LaneData::Item &i) { return i.end <= from; });
    for (; it != end && it->start < to; ++it)
        fn(*it);
}

}   // namespace

size_t FlameChart::levelFor(double nanosPerPixel) const
{
    size_t level = 0;
    while (level < m_widths.size() && double(m_widths[level]) <= nanosPerPixel)
        ++level;
    return level;
}

void FlameChart::query(size_t lane, int64_t from, int64_t to, double nanosPerPixel, std::vector<FlameBox> &out) const
{
    const LaneData &d = *m_data[lane];
    const uint32_t rows = m_lanes[lane].depth;
    if (d.size() == 0 || from >= to)
        return;
    const size_t level = levelFor(nanosPerPixel);
    if (level > 0) {
        const LaneData::Level &l = d.levels[level - 1];
        for (uint32_t r = 0; r < rows; ++r)
            overlapping(l, r, from, to, [&](const LaneData::Item &i) { out.push_back({i.start, i.end, r, i.node}); });
        return;
    }
    // Finer than level 1. A box narrower than level 1's width that overlaps [from, to) has all its samples in
    // (from - w, to + w); the wider boxes are level 1's own. The runs through the samples just outside that
    // window may be cut short by it: they are dropped (whatever of them is in view is a wide box).
    const int64_t w = m_widths[0];
    const size_t a = d.lowerBound(from - w + 1), b = d.lowerBound(to + w);
    const size_t begin = a > 0 ? a - 1 : 0, last = std::min(b, d.size() - 1);
    const size_t cutLeft = a > 0 ? a - 1 : SIZE_MAX;
    std::vector<std::vector<FlameBox>> narrow(rows);   // by row, in time order as they close
    BoxRuns runs(m_parent, m_depth, m_interval, m_gap);
    const auto emit = [&](const FlameBox &box, size_t firstSample) {
        if (firstSample != cutLeft && box.end - box.start < w && box.end > from && box.start < to)
            narrow[box.depth].push_back(box);
    };
    for (size_t i = begin; i <= last; ++i)
        runs.add(i, d.time(i), d.node[i], emit);
    if (b >= d.size())
        runs.finish(emit);   // the lane's last samples: nothing cut on the right
    // Per row, the narrow and the wide boxes in time order, those under a pixel merged as a level merges them.
    const int64_t pixel = int64_t(nanosPerPixel);
    for (uint32_t r = 0; r < rows; ++r) {
        std::optional<FlameBox> merged;
        const auto add = [&](const FlameBox &box) {
            if (box.end - box.start >= pixel) {
                if (merged)
                    out.push_back(*merged), merged.reset();
                out.push_back(box);
            } else if (merged && box.start - merged->end < pixel) {
                merged->end = std::max(merged->end, box.end);
            } else {
                if (merged)
                    out.push_back(*merged);
                merged = FlameBox{box.start, box.end, r, kMerged};
            }
        };
        auto n = narrow[r].begin();
        overlapping(d.levels[0], r, from, to, [&](const LaneData::Item &i) {
            if (i.node == kMerged)
                return;
            for (; n != narrow[r].end() && n->start < i.start; ++n)
                add(*n);
            add({i.start, i.end, r, i.node});
        });
        for (; n != narrow[r].end(); ++n)
            add(*n);
        if (merged)
            out.push_back(*merged);
    }
}

std::vector<FlameBox> FlameChart::allBoxes(size_t lane) const
{
    const LaneData &d = *m_data[lane];
    std::vector<FlameBox> out;
    BoxRuns runs(m_parent, m_depth, m_interval, m_gap);
    const auto emit = [&](const FlameBox &box, size_t) { out.push_back(box); };
    for (size_t i = 0; i < d.size(); ++i)
        runs.add(i, d.time(i), d.node[i], emit);
    runs.finish(emit);
    std::sort(out.begin(), out.end(), byDepthThenStart);
    return out;
}

int64_t FlameChart::sampleAt(size_t lane, int64_t nanos) const
{
    const LaneData &d = *m_data[lane];
    const size_t after = d.lowerBound(nanos + 1);
    return after == 0 ? -1 : int64_t(after - 1);
}

uint32_t FlameChart::sampleNode(size_t lane, size_t sample) const
{
    return m_data[lane]->node[sample];
}

int64_t FlameChart::sampleTime(size_t lane, size_t sample) const
{
    return m_data[lane]->time(sample);
}

}   // namespace qflame
