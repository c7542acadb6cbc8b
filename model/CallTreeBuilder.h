// Builds a CallTree for one sample type from one or several profiles (merging sums them).
#pragma once

#include "CallTree.h"
#include "Profile.h"
#include "ProfileReader.h"

#include <functional>
#include <memory>
#include <vector>

namespace qflame {

struct BuildOptions {
    Granularity granularity = Granularity::Functions;
    // Optional: keep only the samples for which this returns true (label filters, later focus filters).
    std::function<bool(const Profile &, size_t sample)> sampleFilter;
    ProgressFn progress;
};

class CallTreeBuilder {
public:
    // Builds the tree of sample type `typeIndex` of the first profile; every further profile must have a
    // sample type with the same name and unit, or ProfileError is thrown. drop_frames/keep_frames are applied
    // as pprof applies them.
    static std::shared_ptr<const CallTree> build(const std::vector<std::shared_ptr<const Profile>> &profiles,
                                                 size_t typeIndex, const BuildOptions &options = {});
};

}   // namespace qflame
