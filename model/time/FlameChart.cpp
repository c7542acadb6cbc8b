#include "time/FlameChart.h"

#include "io/ReadOptions.h"
#include "io/Regex.h"
#include "time/FlameChartLane.h"
#include "time/TimeRange.h"
#include "time/Timeline.h"
#include "tree/PprofRegex.h"
#include "tree/ProfileFrames.h"

#include <algorithm>

namespace qflame {

void FlameChart::LaneData::push(int64_t t, uint32_t n)
{
    const size_t i = node.size();
    node.push_back(n);
    if (i % kBlock == 0) {
        blockBase.push_back(t);
        blockFar.push_back(kNear);
        offset.push_back(0);
        return;
    }
    const size_t b = i / kBlock;
    if (blockFar[b] == kNear && t - blockBase[b] >= int64_t(UINT32_MAX)) {
        // Too far from the block's first: the block keeps its times whole from now on.
        blockFar[b] = uint32_t(farTimes.size() / kBlock);
        farTimes.resize(farTimes.size() + kBlock, 0);
        for (size_t k = b * kBlock; k < i; ++k)
            farTimes[size_t(blockFar[b]) * kBlock + k % kBlock] = blockBase[b] + offset[k];
    }
    if (blockFar[b] == kNear) {
        offset.push_back(uint32_t(t - blockBase[b]));
    } else {
        offset.push_back(0);
        farTimes[size_t(blockFar[b]) * kBlock + i % kBlock] = t;
    }
}

size_t FlameChart::LaneData::lowerBound(int64_t t) const
{
    size_t lo = 0, hi = size();
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (time(mid) < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

uint64_t FlameChart::LaneData::bytes() const
{
    uint64_t b = 4 * (offset.capacity() + node.capacity() + blockFar.capacity()) +
                 8 * (blockBase.capacity() + farTimes.capacity());
    for (const Level &l : levels)
        b += sizeof(Item) * l.items.capacity() + 4 * l.rowBegin.capacity();
    return b;
}

FlameChart::FlameChart() = default;
FlameChart::~FlameChart() = default;

// Level k + 1 from level k: what stays wide stays; the rest, with level k's merged boxes, merges again at the
// wider level's distance. The same as merging the narrower boxes themselves: their distances inside a merged
// box of level k are below width(k) already.
class LevelMerger {
public:
    explicit LevelMerger(int64_t width) : m_width(width) {}
    void add(const FlameChart::LaneData::Item &item)
    {
        if (item.node != FlameChart::kMerged && item.end - item.start >= m_width) {
            flush();
            out.push_back(item);
            return;
        }
        if (m_has && item.start - m_merged.end < m_width) {
            m_merged.end = std::max(m_merged.end, item.end);
            return;
        }
        flush();
        m_merged = {item.start, item.end, FlameChart::kMerged};
        m_has = true;
    }
    void flush()
    {
        if (m_has)
            out.push_back(m_merged);
        m_has = false;
    }
    std::vector<FlameChart::LaneData::Item> out;

private:
    int64_t m_width;
    FlameChart::LaneData::Item m_merged{};
    bool m_has = false;
};

class FlameChartBuild {
public:
    static std::shared_ptr<const FlameChart> run(const std::shared_ptr<const Profile> &profile,
                                                 const FlameChartOptions &options, const ProgressFn &progress)
    {
        const Profile &p = *profile;
        const Timeline &t = requireTimeline(p, "a flame chart");
        std::shared_ptr<FlameChart> chart(new FlameChart);
        FlameChart &c = *chart;
        const std::vector<uint32_t> sampleNode = pathNodes(p, options, c);

        // The lanes: the threads kept that have samples.
        std::vector<uint8_t> keep(t.threadNames.size(), 1);
        if (!options.threadRegex.empty()) {
            const Regex re(options.threadRegex);
            if (!re.isValid())
                throw FilterError("the thread regex '" + options.threadRegex + "' is not valid: " + re.errorString());
            for (size_t i = 0; i < keep.size(); ++i)
                keep[i] = re.matches(t.threadNames[i]);
        }
        std::vector<size_t> count(t.threadNames.size(), 0);
        for (uint32_t s : t.sample)
            ++count[t.threadOf(s)];
        // The busiest threads first: a recording's idle main thread or helper threads would push them out of view.
        std::vector<uint32_t> order(count.size());
        for (uint32_t th = 0; th < order.size(); ++th)
            order[th] = th;
        std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return count[a] > count[b]; });
        std::vector<uint32_t> laneOf(t.threadNames.size(), UINT32_MAX);
        for (uint32_t th : order)
            if (keep[th] && count[th]) {
                laneOf[th] = uint32_t(c.m_lanes.size());
                c.m_lanes.push_back({uint32_t(th), t.threadNames[th], 0, count[th], 0, 0});
                c.m_data.push_back(std::make_unique<FlameChart::LaneData>());
                FlameChart::LaneData &d = *c.m_data.back();
                d.node.reserve(count[th]);
                d.offset.reserve(count[th]);
            }

        // The samples into their lanes; every thousandth step between a lane's samples for the interval.
        std::vector<int64_t> steps;
        const size_t stride = std::max<size_t>(1, t.size() / 200000);
        std::vector<int64_t> lastOf(c.m_lanes.size(), INT64_MIN);
        size_t done = 0;
        t.forEach([&](size_t event, int64_t nanos, uint32_t s, int64_t) {
            if (progress && (++done & 0xfffff) == 0 && !progress(0.5 * double(done) / double(t.size())))
                throw Cancelled();
            const uint32_t lane = laneOf[t.threadOf(s)];
            if (lane == UINT32_MAX)
                return;
            if (event % stride == 0 && lastOf[lane] != INT64_MIN)
                steps.push_back(nanos - lastOf[lane]);
            lastOf[lane] = nanos;
            c.m_data[lane]->push(nanos, sampleNode[s]);
        });
        c.m_interval = options.intervalNanos;
        if (c.m_interval <= 0 && !steps.empty()) {
            std::nth_element(steps.begin(), steps.begin() + int64_t(steps.size() / 2), steps.end());
            c.m_interval = steps[steps.size() / 2];
        }
        if (c.m_interval <= 0)   // one sample per thread: pprof's period when it is a time, else a millisecond
            c.m_interval = p.period > 0 && p.str(p.periodType.unit) == "nanoseconds" ? p.period : 1000000;
        // Ten intervals: a thread preempted for a few milliseconds on a busy machine is still at work in the same
        // calls (perf's cpu-clock samples only a running thread); a longer pause is a sleep, a lock, I/O.
        c.m_gap = options.gapNanos > 0 ? options.gapNanos : 10 * c.m_interval;
        c.m_interval = std::min(c.m_interval, c.m_gap);

        // The levels' widths: 8 intervals, then 4 times wider until one level holds the whole recording.
        const int64_t end = t.spanNanos + c.m_interval;
        for (int64_t w = 8 * c.m_interval; c.m_widths.empty() || c.m_widths.back() < end; w *= 4)
            c.m_widths.push_back(w);

        for (size_t lane = 0; lane < c.m_lanes.size(); ++lane) {
            if (progress && !progress(0.5 + 0.5 * double(lane) / double(c.m_lanes.size())))
                throw Cancelled();
            buildLevels(c, lane);
        }
        for (const FlameChart::Lane &l : c.m_lanes)
            c.m_end = std::max(c.m_end, l.end);
        return chart;
    }

private:
    // Every sample's call path as a node (as a call tree's, without sums), through the tree build's own frames
    // and filters (tree/ProfileFrames.h), so that a frame here is the flamegraph's.
    static std::vector<uint32_t> pathNodes(const Profile &p, const FlameChartOptions &options, FlameChart &c)
    {
        const std::vector<std::shared_ptr<const Profile>> none;
        SampleFilters spec = options.build.filters;
        spec.inverted = false;
        spec.tagRoot.clear(), spec.tagLeaf.clear();
        BuildOptions build = options.build;
        build.filters = spec;
        const CompiledFilters compiled(spec, {std::shared_ptr<const Profile>(std::shared_ptr<const Profile>(), &p)});
        c.m_frames = std::make_shared<FrameTable>();
        detail::ProfileFrames pf(p, compiled, build, *c.m_frames);
        CallTreeAccumulator nodes(1024);
        c.m_parent = {FlameChart::kRootNode};
        c.m_depth = {0};
        c.m_frame = {FrameTable::kRoot};
        std::vector<uint32_t> sampleNode(p.sampleCount(), FlameChart::kRootNode);
        for (size_t s = 0; s < p.sampleCount(); ++s) {
            size_t begin, end;
            if ((options.build.sampleFilter && !options.build.sampleFilter(p, s)) || !pf.sampleRange(s, begin, end))
                continue;
            uint32_t n = FlameChart::kRootNode;
            FrameId previous = FrameTable::kRoot;
            for (size_t k = end; k-- > begin;) {
                const uint32_t loc = p.sampleLocations[k];
                for (uint32_t i = pf.locBegin[loc]; i < pf.locBegin[loc + 1]; ++i) {
                    const FrameId f = pf.locFrames[i];
                    if (spec.collapseRecursion && f == previous)
                        continue;
                    previous = f;
                    const size_t before = nodes.size();
                    const uint32_t child = nodes.child(n, f, CallTree::kCalled);
                    if (nodes.size() != before) {
                        c.m_parent.push_back(n);
                        c.m_depth.push_back(c.m_depth[n] + 1);
                        c.m_frame.push_back(f);
                    }
                    n = child;
                }
            }
            sampleNode[s] = n;
        }
        return sampleNode;
    }

    static void buildLevels(FlameChart &c, size_t lane)
    {
        FlameChart::LaneData &d = *c.m_data[lane];
        FlameChart::Lane &info = c.m_lanes[lane];
        uint32_t rows = 0;
        for (uint32_t n : d.node)
            rows = std::max(rows, c.m_depth[n]);
        info.depth = rows;
        info.start = d.size() ? d.time(0) : 0;
        // Level 1 from the boxes as they close, row by row in time order.
        std::vector<LevelMerger> merge(rows, LevelMerger(c.m_widths[0]));
        BoxRuns runs(c.m_parent, c.m_depth, c.m_interval, c.m_gap);
        const auto emit = [&](const FlameBox &b, size_t) {
            merge[b.depth].add({b.start, b.end, b.node});
            info.end = std::max(info.end, b.end);
        };
        for (size_t i = 0; i < d.size(); ++i)
            runs.add(i, d.time(i), d.node[i], emit);
        runs.finish(emit);
        d.levels.resize(c.m_widths.size());
        for (size_t k = 0; k < c.m_widths.size(); ++k) {
            FlameChart::LaneData::Level &level = d.levels[k];
            if (k > 0) {
                const FlameChart::LaneData::Level &finer = d.levels[k - 1];
                merge.assign(rows, LevelMerger(c.m_widths[k]));
                for (uint32_t r = 0; r < rows; ++r)
                    for (uint32_t i = finer.rowBegin[r]; i < finer.rowBegin[r + 1]; ++i)
                        merge[r].add(finer.items[i]);
            }
            size_t total = 0;
            for (LevelMerger &m : merge)
                m.flush(), total += m.out.size();
            level.items.reserve(total);
            level.rowBegin.assign(size_t(rows) + 1, 0);
            for (uint32_t r = 0; r < rows; ++r) {
                level.rowBegin[r] = uint32_t(level.items.size());
                level.items.insert(level.items.end(), merge[r].out.begin(), merge[r].out.end());
                std::vector<FlameChart::LaneData::Item>().swap(merge[r].out);
            }
            level.rowBegin[rows] = uint32_t(level.items.size());
        }
    }
};

std::shared_ptr<const FlameChart> FlameChart::build(const std::shared_ptr<const Profile> &profile,
                                                    const FlameChartOptions &options, const ProgressFn &progress)
{
    return FlameChartBuild::run(profile, options, progress);
}

uint64_t FlameChart::bytes() const
{
    uint64_t b = 4 * (m_parent.capacity() + m_depth.capacity() + m_frame.capacity());
    for (const auto &d : m_data)
        b += d->bytes();
    return b;
}

}   // namespace qflame
