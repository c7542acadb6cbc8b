// The source listing of one function of a tab, for the window's source pane: the same LineCosts and
// SourceListing as `qflame list` (the function matched exactly by name), run off the GUI thread.
#pragma once

#include "io/Regex.h"
#include "pprof/Profile.h"
#include "source/SourceFinder.h"
#include "source/SourceListing.h"

#include <QString>

#include <memory>
#include <string>
#include <vector>

namespace qflame {

struct FunctionSource {
    std::shared_ptr<const SourceListing> listing;   // the function's files (one ListedFile each)
    QString error;                                  // a profile that cannot be listed
};

// The regex that matches `function` and nothing else (the source pane lists one function by its exact name).
Regex exactFunction(const std::string &function);
// A finder for `paths` that knows the GOROOT the profiles were built with.
SourceFinder sourceFinderFor(const SourcePaths &paths, const std::vector<std::shared_ptr<const Profile>> &profiles);

// computeLineCosts with the finder's display paths (pprof's trimming).
LineCosts lineCostsFor(const std::vector<std::shared_ptr<const Profile>> &profiles, size_t type,
                       const Regex &functions, const SourceFinder &finder);

// The listing of `function` (exact name) in the merged `profiles` at sample type `type` (an index of the first).
FunctionSource listFunction(const std::vector<std::shared_ptr<const Profile>> &profiles, size_t type,
                            const std::string &function, const SourcePaths &paths);

// Before and after of the functions `functions` matches, at sample type `type` (an index of before's first profile;
// after's is the type of the same name and unit), with the noise test of `diff --list`: Poisson from samples/count
// where both sides have it, K = `noiseK`. Throws ProfileError when after lacks the type. `qflame diff --list` and
// the window's source pane both list through it.
SourceListing diffListing(const std::vector<std::shared_ptr<const Profile>> &before,
                          const std::vector<std::shared_ptr<const Profile>> &after, size_t type,
                          const Regex &functions, SourceFinder &finder, double noiseK);

// diffListing of one function (exact name), its error caught: before and after, with the noise test of diff --list (samples/count where both sides have it, K = `noiseK`).
FunctionSource listFunctionDiff(const std::vector<std::shared_ptr<const Profile>> &before,
                                const std::vector<std::shared_ptr<const Profile>> &after, size_t type,
                                const std::string &function, const SourcePaths &paths, double noiseK);

}   // namespace qflame
