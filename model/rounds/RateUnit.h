// What a sample type's numbers mean per unit of time, and how people read them: CPU nanoseconds per second as
// cores, bytes per second, objects per second, and for the types whose profiles are snapshots (Go's inuse_* and
// goroutine) the value itself: bytes, objects, goroutines. The explorer's timeline (axis, hover, range averages)
// and its summary line speak this way; the rounds' own tables keep formatRate (RoundStats.h), which this reuses.
#pragma once

#include "rounds/RoundStats.h"

#include <string>

namespace qflame {

enum class ValueKind {
    Rate,    // profiles of what happened during their window (CPU, allocations, contentions): summed per second
    Gauge,   // profiles of a state at one instant (inuse_space, inuse_objects, goroutine): averaged, not summed
};

struct RateUnit {
    ValueKind kind = ValueKind::Rate;
    std::string unit = "count";   // the sample type's unit as pprof names it: "nanoseconds", "bytes", "count"
    std::string counted;          // what a count counts, for people: "objects", "goroutines", "samples"
};

// From a pprof sample type and unit ("cpu"/"nanoseconds", "inuse_space"/"bytes", "goroutine"/"count").
RateUnit rateUnit(const std::string &sampleType, const std::string &unit);

// A value as an axis shows it: value / divisor, followed by `text`. Rates: "cores" (nanoseconds per second / 1e9),
// "B/s", "KiB/s", "MiB/s", "GiB/s", "objects/s", "k objects/s", "M objects/s"; gauges the same without "/s"
// ("MiB", "goroutines"). The scale is the largest whose divisor does not exceed `magnitude` (for an axis: its
// largest value), the smallest for 0. Values are per second in the sample unit for rates, the unit for gauges.
struct DisplayScale {
    double divisor = 1;
    std::string text;
};
DisplayScale displayScale(const RateUnit &unit, double magnitude);

// One value for people: "4.94 cores", "1.50 MiB/s" (formatRate's wording for rates of time and bytes),
// "12.5 objects/s", "1234 goroutines", "?" when not finite.
std::string formatUnitValue(double value, const RateUnit &unit);

// A value and its standard error in one scale, the value to the error's precision (two significant digits of the
// error): "4.938 ± 0.031 cores", "1.50 ± 0.02 MiB/s". Without a known error: formatUnitValue's text and "± ?".
std::string formatWithError(double value, double standardError, const RateUnit &unit);

// A change between two rates with its noise and the rounds' verdict against k standard errors:
// "-5.70% (-0.282 ± 0.050 cores), faster: beyond 2 SE", "+0.40% (+0.020 ± 0.050 cores), noise: within 2 SE".
std::string formatRateChange(const RateChange &change, const RateUnit &unit, double k);

}   // namespace qflame
