// The `list` verb and `diff --list`: the cost of every source line of the functions a regex picks, as
// go tool pprof -list shows it (model/source).
#pragma once

#include "pprof/Profile.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace qflame {

// `qflame list REGEX FILE...` is runList (CliVerbs.h).

struct ListPaths {
    std::optional<std::string> sourcePath, trimPath;
};

// `qflame diff BASE NEW --list REGEX [--tsv]`: per line before, after and delta.
// `noiseK`: a line's cum delta under K Poisson standard errors (from the samples/count type, when both sides have
// it) is noise.
int printDiffListing(const std::shared_ptr<const Profile> &base, const std::shared_ptr<const Profile> &next,
                     size_t sampleType, const std::string &regex, const ListPaths &paths, bool tsv, double noiseK,
                     bool json = false);

}   // namespace qflame
