// The `diff` verb: what changed between a baseline and a comparison profile, per function.
#pragma once

#include "pprof/Profile.h"

#include <memory>
#include <string>
#include <vector>

namespace qflame {

// `qflame diff BASE NEW [options]` is runDiff (CliVerbs.h). It throws CliExit{1} after a usage message and
// ProfileError for bad input, as the other verbs do (runCli turns them into exit statuses).

// The same report of two profiles already read (the server's sides of `qflame diff --url`), shown under the names
// `baseName` and `newName`; `options` are diff's own options, without files.
int runDiffOf(std::shared_ptr<const Profile> base, std::shared_ptr<const Profile> comparison,
              const std::string &baseName, const std::string &newName, const std::vector<std::string> &options);

}   // namespace qflame
