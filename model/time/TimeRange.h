// A time range of a profile with a timeline (time/Timeline.h), and the profile of just its samples: what
// `--from T --to T` gives `top`, `diff`, `convert`, `graph` and `heatmap`, and the Time tab its selection.
#pragma once

#include "pprof/Profile.h"

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace qflame {

struct Timeline;

// Nanoseconds as seconds for the Time tab's labels: "12.5" (6 significant digits, as %g) or with `decimals` fixed
// decimals ("12.500000"); no unit.
std::string secondsText(double nanos, int decimals = -1);
// The decimals that tell apart ticks `stepNanos` apart on a seconds axis (0 to 9).
int secondsDecimals(double stepNanos);

// [fromNanos, toNanos), in nanoseconds from the timeline's first event.
struct TimeRange {
    int64_t fromNanos = std::numeric_limits<int64_t>::min();
    int64_t toNanos = std::numeric_limits<int64_t>::max();
    bool contains(int64_t nanos) const { return nanos >= fromNanos && nanos < toNanos; }
    bool operator==(const TimeRange &) const = default;
};

// A union of time ranges (heatmap cells picked one by one, several dragged ranges): sorted, disjoint and none
// empty, as timeRangeUnion makes it.
using TimeRanges = std::vector<TimeRange>;

// The time a union covers: the sum of its ranges' lengths.
int64_t rangesLength(const TimeRanges &ranges);
// The ranges sorted, the empty ones dropped and those that overlap or touch merged into one.
TimeRanges timeRangeUnion(TimeRanges ranges);
// A union without the time of `cut` (a heatmap cell Ctrl+clicked again).
TimeRanges timeRangeMinus(const TimeRanges &ranges, const TimeRange &cut);

// The profile's timeline, or ProfileError "<source>: the profile has no sample times (...)" naming the formats
// that have them; `what` says who asked ("--from/--to").
const Timeline &requireTimeline(const Profile &profile, const std::string &what);

// "12.5" (seconds from the first sample) or an RFC 3339 time ("2026-12-04T11:24:26.5Z", files whose times are
// wall-clock times): nanoseconds from the first sample. ProfileError when it is neither, or when it is a clock
// time and the file's times are not.
int64_t parseTimePoint(const Timeline &timeline, const std::string &text, const std::string &sourceName);
// --from and --to (either may be left out: from the first or to past the last sample); from must be before to.
TimeRange parseTimeRange(const Timeline &timeline, const std::optional<std::string> &from,
                         const std::optional<std::string> &to, const std::string &sourceName);

// The profile of the samples in `range` (of the threads whose name `threadRegex` matches, all when empty):
// each sample's values are the sum of its events' values in the range, samples without one are left out; its
// timeline is theirs, its duration the range's part of the recording. ProfileError without a timeline.
std::shared_ptr<const Profile> profileInRange(const std::shared_ptr<const Profile> &profile, const TimeRange &range,
                                              const std::string &threadRegex = {});
// The same for the samples in any of `ranges` (a union, as timeRangeUnion makes it: overlapping ranges would
// count nothing twice anyway, since each event is tested once): the duration is the sum of the ranges' parts of
// the recording, the profile's time the first range's start.
std::shared_ptr<const Profile> profileInRanges(const std::shared_ptr<const Profile> &profile, const TimeRanges &ranges,
                                               const std::string &threadRegex = {});

// The front door's cut for ReadOptions::timeFrom/timeTo ("" for either: open); the profile as is when both are
// empty. Several comma-separated times in each (the CLI's --from/--to repeated) pair up into a union of ranges;
// ProfileError when their counts differ.
std::shared_ptr<const Profile> cutToTimeOptions(std::shared_ptr<const Profile> profile, const std::string &from,
                                                const std::string &to);

}   // namespace qflame
