// The `convert` verb: any input format to pprof (gzip) or folded stacks, or trimmed for go build -pgo.
#pragma once

#include "pgo/PgoTrim.h"

#include <cstdint>
#include <string>
#include <vector>

namespace qflame {

// Runs `qflame convert FILE... --to pprof|folded [options]` and returns the exit status. Throws CliExit{1} after a
// usage message and ProfileError for bad input, as the other verbs do (runCli turns them into exit statuses).
// runConvert is in CliVerbs.h.

// "trimmed for go build -pgo: N bytes from M (Rx smaller), the same E edges" (without "from" when the input's size
// is unknown, 0), for convert and merge --for pgo.
std::string trimmedForPgoReport(uint64_t inputBytes, const PgoTrimmedFile &trimmed);

// Writes a verb's output to `path` ("-": standard output), replacing a file only once all of it is written.
// Throws ProfileError when it cannot.
void writeOutput(const std::string &path, const std::string &bytes);

}   // namespace qflame
