// The `diff` verb: what changed between a baseline and a comparison profile, per function.
#pragma once

#include <string>
#include <vector>

namespace qflame {

// Runs `qflame diff BASE NEW [options]` and returns the exit status. Throws CliExit{1} after a usage message
// and ProfileError for bad input, as the other verbs do (runCli turns them into exit statuses).
int runDiff(const std::vector<std::string> &args);

}   // namespace qflame
