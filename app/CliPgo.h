// The `pgo` verb: the call edges go build -pgo builds from CPU profiles, the profile's readiness for it,
// devirtualisation candidates, and go tool preprofile's text.
#pragma once

#include "pprof/Profile.h"

#include <memory>
#include <string>
#include <vector>

namespace qflame {

// Runs `qflame pgo FILE... [--threshold P] [--tsv | --preprofile OUT]` and returns the exit status. Throws
// CliExit{1} after a usage message and ProfileError for bad input, as the other verbs do.

// `qflame diff BASE NEW --inlining [--tsv]`: the calls that became or stopped being inlined, and the PGO hot edges
// that appeared or vanished (model/pgo/InliningChanges). `sampleIndex` -1: the compiler's sample type, else the
// default. Returns the exit status.
int printInliningChanges(const std::shared_ptr<const Profile> &base, const std::shared_ptr<const Profile> &next,
                         int sampleIndex, bool tsv, bool json = false);

}   // namespace qflame
