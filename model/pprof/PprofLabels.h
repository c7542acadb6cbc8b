// Values and percentages printed exactly as go tool pprof prints them in its text reports (`-list`, `-top`
// headers), so that qflame's text can be compared with pprof's line by line.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace qflame {

// pprof's measurement.ScaledLabel with the default -unit=minimum, for one value: time units scale to the largest
// of ns, us, ms, s, hrs that keeps the value >= 1 ("740ms", "1.03s"), bytes likewise in 1024s (B, kB, MB, GB, TB,
// PB), anything else (counts) stays as it is; two decimals with a trailing ".00" cut; 0 is "0".
std::string pprofScaledLabel(int64_t value, std::string_view unit);

// pprof's measurement.Percentage: "  100%" within 0.05 of 100, "%5.2f%%" from 1 on, "%5.2g%%" below.
std::string pprofPercentage(int64_t value, int64_t total);

}   // namespace qflame
