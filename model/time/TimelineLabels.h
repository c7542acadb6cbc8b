// The timeline of a pprof profile whose samples carry their time in a numeric label (issue #35).
//
// profile.proto has no field for a sample's time (google/pprof#457: "we could add a numeric label"), so the
// producers that keep one write a label, under these keys:
// - "end_timestamp_ns": Datadog's profilers (libdatadog for .NET, Ruby, PHP, Python and Rust; dd-trace-js,
//   dd-sdk-ios): nanoseconds since the Unix epoch when the sample was taken (the end of the time its value
//   covers), without a num_unit (dd-sdk-ios writes "nanoseconds").
// - "timestamp_ns": google/perf_data_converter (perf_to_profile's kTimestampNsLabel), nanoseconds since boot;
//   Datadog's .NET profiler wrote it before libdatadog, since the epoch.
// - "timestamp": only with a time num_unit, which profile.proto tells consumers to read as one.
// A num_unit of nanoseconds, microseconds, milliseconds or seconds gives the unit; without one the "_ns" keys are
// nanoseconds and a bare "timestamp" is not taken (its unit would be a guess).
//
// Times past kEpochFloorNanos count from the epoch and are wall-clock times (--from/--to then take RFC 3339);
// times since boot are not, and time_nanos does not place them: nothing says how long after the boot the
// profile started.
//
// Every stored sample needs a time (a perf script record without one means no timeline too); a sample with
// several time labels is one event per label, each an equal share of its values (time/Timeline.h). Its thread,
// where labels name one: a string "thread name" (Datadog), "thread_comm" (perf_data_converter), "thread" or
// "goroutine", then a numeric "thread id" (Datadog), "tid" or "thread_id", after "pid" and '/' as perf script
// prints "comm pid/tid".
#pragma once

#include "pprof/Profile.h"

#include <memory>

namespace qflame {

// Null when the profile has no time labels, a stored sample has none, or one is negative or past 2^62 ns.
std::shared_ptr<const Timeline> timelineFromLabels(const Profile &profile);

}   // namespace qflame
