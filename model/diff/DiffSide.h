// One side of a comparison: the call tree of the compared sample type, and how many samples stand behind its
// values (the basis of the noise estimate).
#pragma once

#include "pprof/Profile.h"
#include "tree/CallTree.h"
#include "tree/CallTreeBuilder.h"

#include <memory>
#include <string>
#include <vector>

namespace qflame {

struct DiffSide {
    std::shared_ptr<const CallTree> tree;

    // Sample counts per node, when known. Either countTree, the tree of the profile's samples/count type built
    // from the same samples as `tree` (the samples whose compared value is non-zero), or else a fixed value per
    // sample (the period, when the period type is the sample type), so that a node holds value/valuePerSample
    // samples. Neither: counts unknown, and no node of the diff can be called noise.
    std::shared_ptr<const CallTree> countTree;
    double valuePerSample = 0;
    std::string countSource;   // how the counts are known, for people; "" when unknown

    std::string name;          // the file name(s), for messages

    bool hasSampleCounts() const { return countTree || valuePerSample > 0; }

    // The side for sample type `typeIndex` of `profiles` (merged, as CallTreeBuilder merges them), with its
    // sample counts found as described above. Throws ProfileError.
    static DiffSide fromProfiles(const std::vector<std::shared_ptr<const Profile>> &profiles, size_t typeIndex,
                                 const BuildOptions &options = {});
    // The same for the sample type with this name and unit: how the comparison is matched to the baseline.
    // ProfileError, naming the types the profile has, when it has no such type.
    static DiffSide fromProfiles(const std::vector<std::shared_ptr<const Profile>> &profiles,
                                 const SampleTypeInfo &type, const BuildOptions &options = {});
};

}   // namespace qflame
