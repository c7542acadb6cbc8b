// The `pgo` verb: the call edges go build -pgo builds from CPU profiles, the profile's readiness for it,
// devirtualisation candidates, and go tool preprofile's text.
#pragma once

#include <string>
#include <vector>

namespace qflame {

// Runs `qflame pgo FILE... [--threshold P] [--tsv | --preprofile OUT]` and returns the exit status. Throws
// CliExit{1} after a usage message and ProfileError for bad input, as the other verbs do.
int runPgo(const std::vector<std::string> &args);

}   // namespace qflame
