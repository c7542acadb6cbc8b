// The flame chart of a profile with a timeline (time/Timeline.h, issue #35): for each thread (a lane), its
// stacks in time order, and at each depth the consecutive samples under the same call path merged into one box.
//
// A sample's stack is a path node (a call path from the outermost frame, as a call tree's node: the same frame
// under another caller is another node), so a box at depth d is a run of samples whose paths share their first
// d + 1 frames; a frame that changes only deeper leaves the shallower boxes whole. A sample lasts until the next
// sample of its thread, unless that is more than the gap away: then it lasts one sampling interval and every box
// ends there. Times are nanoseconds from the timeline's origin (the first sample), as TimeRange's.
//
// An hour at 1 kHz on 8 threads is 29 M samples and hundreds of millions of boxes, too many to keep or to visit
// per frame. The chart keeps each lane's samples (8 bytes each) and levels of detail: level k (k >= 1) holds the
// boxes of at least width(k) (8 sampling intervals at level 1, 4 times more at each next level) and, at each
// depth, the narrower boxes merged into kMerged spans (see query). A query at a resolution finer than level 1
// makes the narrow boxes from the samples in view and takes the wide ones from level 1; a coarser one reads one
// level with a binary search per depth. Built once off the GUI thread, immutable, shared as shared_ptr<const>.
#pragma once

#include "pprof/Profile.h"
#include "tree/CallTreeBuilder.h"
#include "tree/FrameTable.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace qflame {

struct FlameChartOptions {
    BuildOptions build;          // granularity and filters, as the flamegraph's (no label frames, not inverted)
    int64_t intervalNanos = 0;   // how long a sample before a gap lasts; 0: the median time between a thread's samples
    int64_t gapNanos = 0;        // longer than this without a sample breaks every box; 0: ten intervals
    std::string threadRegex;     // the threads whose name matches (unanchored); empty: all
};

struct FlameBox {
    int64_t start = 0, end = 0;   // [start, end) in nanoseconds from the origin
    uint32_t depth = 0;           // 0: the outermost frame
    uint32_t node = 0;            // its path node, or FlameChart::kMerged
    friend bool operator==(const FlameBox &, const FlameBox &) = default;
};

class FlameChart {
public:
    static constexpr uint32_t kMerged = UINT32_MAX;   // boxes narrower than the level, merged
    static constexpr uint32_t kRootNode = 0;          // the empty path (a sample the filters left out)

    struct Lane {
        uint32_t thread = 0;      // in the timeline's threadNames
        std::string name;
        uint32_t depth = 0;       // rows: the deepest stack's frames
        size_t samples = 0;
        int64_t start = 0, end = 0;   // of its boxes
    };

    // ProfileError without a timeline, FilterError for a filter or thread regex that does not compile; Cancelled
    // when `progress` (0..1) returns false.
    static std::shared_ptr<const FlameChart> build(const std::shared_ptr<const Profile> &profile,
                                                   const FlameChartOptions &options = {}, const ProgressFn &progress = {});
    ~FlameChart();

    // The threads with samples (of those the regex keeps), the busiest first (ties in the timeline's order).
    const std::vector<Lane> &lanes() const { return m_lanes; }
    int64_t intervalNanos() const { return m_interval; }
    int64_t gapNanos() const { return m_gap; }
    int64_t endNanos() const { return m_end; }   // the last box's end

    // Path nodes: the frame (in frames()), the caller's node, the depth (1 for an outermost frame).
    FrameId frame(uint32_t node) const { return m_frame[node]; }
    uint32_t parent(uint32_t node) const { return m_parent[node]; }
    uint32_t nodeDepth(uint32_t node) const { return m_depth[node]; }
    size_t nodeCount() const { return m_frame.size(); }
    const FrameTable &frames() const { return *m_frames; }
    const std::string &label(uint32_t node) const { return m_frames->label(m_frame[node]); }

    // The levels of detail: 1..levels(); width(k) the narrowest box level k keeps apart.
    size_t levels() const { return m_widths.size(); }
    int64_t width(size_t level) const { return m_widths[level - 1]; }
    // The level a query at this resolution reads: the coarsest whose width is at most nanosPerPixel, 0 (exact)
    // when even level 1's is wider.
    size_t levelFor(double nanosPerPixel) const;

    // Appends to `out` the boxes of `lane` that overlap [from, to), at the resolution `nanosPerPixel`, by depth
    // then time. At level k >= 1: every box of at least width(k), and, at each depth, the narrower ones merged:
    // consecutive narrower boxes (in time, with no wider box between them) that are less than width(k) apart are
    // one kMerged box from the first's start to the last's end. At level 0, the same rule at nanosPerPixel itself
    // over the boxes that overlap [from, to): every box of a pixel or more exactly as it is.
    void query(size_t lane, int64_t from, int64_t to, double nanosPerPixel, std::vector<FlameBox> &out) const;
    // Every box of a lane, from its samples, none merged (for tests).
    std::vector<FlameBox> allBoxes(size_t lane) const;

    // The sample of a lane at a time (the last that starts at or before it), or -1; its path node.
    int64_t sampleAt(size_t lane, int64_t nanos) const;
    uint32_t sampleNode(size_t lane, size_t sample) const;
    int64_t sampleTime(size_t lane, size_t sample) const;

    uint64_t bytes() const;   // held, for the benchmark

    struct LaneData;

private:
    FlameChart();
    std::vector<Lane> m_lanes;
    std::vector<std::unique_ptr<LaneData>> m_data;
    std::vector<uint32_t> m_parent, m_depth;
    std::vector<FrameId> m_frame;
    std::shared_ptr<FrameTable> m_frames;
    std::vector<int64_t> m_widths;
    int64_t m_interval = 0, m_gap = 0, m_end = 0;
    friend class FlameChartBuild;
};

}   // namespace qflame
