// Whether a profile will serve `go build -pgo` well: one line per check, each in the fixed form
//
//     LEVEL: CHECK: MESSAGE
//
// LEVEL is `ok`, `warning` (the build works but PGO gains less or less reliably) or `error` (the build fails),
// CHECK one of the names below, always in this order, and MESSAGE one line of text.
//
//   sample-type     the sample type used (a profile without samples/count or cpu/nanoseconds never gets here:
//                   computePgoEdges throws, and the build would fail the same way)
//   start-lines     error when no node that carries weight has a Function.start_line (a Go runtime before 1.20,
//                   or a re-symbolised profile): the compiler refuses the profile; offsets are then absolute lines.
//                   A profile without any sample is ok: the compiler accepts it as empty before it looks
//   inline-frames   warning when no location has more than one line: without inline frames the edges of
//                   functions the last build inlined vanish, and PGO's choices drift from one round to the next
//   function-names  warning when some edges have a caller or callee without a name (address-only frames): the
//                   compiler can match them to no call
//   sample-density  warning when the samples are fewer than 1 per 100 periods of the window (duration_nanos /
//                   period): the program used under 1% of one CPU on average, which at Go's default 100 Hz is fewer
//                   than 1 sample per second, so the edges are mostly noise; a warning too when the profile gives
//                   no period or duration to judge by
//   cpu-profile     warning when neither the period type nor a sample type is cpu/nanoseconds: PGO is built for
//                   CPU profiles, and a count of something else weights the edges by it
//   size            warning when the input files take more than 10 MiB: every package's compile parses the whole
//                   profile, so the build slows with its size (a preprofile skips that parse)
#pragma once

#include "pgo/PgoEdges.h"
#include "pprof/Profile.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace qflame {

enum class PgoLevel { Ok, Warning, Error };

struct PgoReadinessLine {
    PgoLevel level = PgoLevel::Ok;
    std::string check;     // "start-lines"
    std::string message;
    friend bool operator==(const PgoReadinessLine &, const PgoReadinessLine &) = default;
};

inline constexpr uint64_t kPgoLargeInputBytes = uint64_t(10) << 20;

// The checks for `profiles` (merged) and their edges. `inputBytes` is the files' size on disk; 0 when unknown
// (standard input), which the size line says.
std::vector<PgoReadinessLine> pgoReadiness(const std::vector<std::shared_ptr<const Profile>> &profiles,
                                           const PgoEdges &edges, uint64_t inputBytes);

// "warning: inline-frames: ..."
std::string formatReadinessLine(const PgoReadinessLine &line);

}   // namespace qflame
