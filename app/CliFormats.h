// The `convert` verb: any input format to pprof (gzip) or folded stacks.
#pragma once

#include <string>
#include <vector>

namespace qflame {

// Runs `qflame convert FILE... --to pprof|folded [options]` and returns the exit status. Throws CliExit{1} after a
// usage message and ProfileError for bad input, as the other verbs do (runCli turns them into exit statuses).
int runConvert(const std::vector<std::string> &args);

}   // namespace qflame
