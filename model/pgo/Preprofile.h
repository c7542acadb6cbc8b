// `go tool preprofile`'s output, which go build -pgo accepts in place of a pprof from Go 1.23 on and reads
// without parsing a protobuf in every package's compile:
//
//     GO PREPROFILE V1
//     CALLER
//     CALLEE
//     OFFSET WEIGHT
//     ...            (three lines per edge, in PgoEdges order)
#pragma once

#include "pgo/PgoEdges.h"

#include <string>

namespace qflame {

// The preprofile text of every edge (the compiler applies its own hot threshold). Throws ProfileError when the
// profile has no Function.start_line (go tool preprofile refuses it as go build -pgo does, and offsets that are
// absolute lines would mislead the compiler) or a name holds a newline (the format has no escape for it).
std::string preprofileText(const PgoEdges &edges);

}   // namespace qflame
