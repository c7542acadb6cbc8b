// One profile made ready for walking its samples: the frames of every location, outermost (caller) first, with
// drop_frames and the filters applied. Shared by the tree build (CallTreeBuilder.cpp) and the flat sums
// (FlatSums.cpp), so both see the same stacks; internal to the model library.
#pragma once

#include "tree/CallTreeBuilder.h"

#include <optional>
#include <vector>

namespace qflame::detail {

// pprof's profile.Prune for drop_frames / keep_frames, as per-location and per-sample cuts.
struct Pruning {
    std::vector<uint32_t> skipLines;   // innermost lines removed from each location
    std::vector<uint8_t> prune, pruneBeneath;
    bool active = false;
};

struct ProfileFrames {
    ProfileFrames(const Profile &profile, const CompiledFilters &filters, const BuildOptions &options,
                  FrameTable &frames);
    ProfileFrames(const ProfileFrames &) = delete;   // `filter` refers to `pruning`
    ProfileFrames &operator=(const ProfileFrames &) = delete;

    // The locations of sample s that remain after drop_frames, p.sampleLocations[begin, end) leaf first, or
    // false when the filters leave the sample out.
    bool sampleRange(size_t s, size_t &begin, size_t &end)
    {
        begin = p.sampleLocBegin[s];
        end = p.sampleLocBegin[s + 1];
        if (pruning.active) {
            // From the root towards the leaf; frames before the first kept one are never pruned.
            bool foundUser = false;
            for (size_t k = end; k-- > begin;) {
                const uint32_t loc = p.sampleLocations[k];
                if (!pruning.prune[loc] && !pruning.pruneBeneath[loc]) {
                    foundUser = true;
                    continue;
                }
                if (!foundUser)
                    continue;
                begin = pruning.prune[loc] ? k + 1 : k;
                break;
            }
        }
        return !filter || filter->keepSample(s, begin, end);
    }

    const Profile &p;
    const Pruning pruning;
    std::optional<ProfileFilter> filter;
    std::vector<uint32_t> locBegin;   // frames of location l: locFrames[locBegin[l], locBegin[l + 1])
    std::vector<FrameId> locFrames;
    std::vector<uint8_t> locKinds;    // how each frame is entered: the outermost line is a call, others inlined
};

// The sample type of `first` to read from p: the same name and unit.
int mergedType(const Profile &first, size_t typeIndex, const Profile &p);

// Throws ProfileError unless there is a profile and `first` has the sample type.
void checkInputs(const std::vector<std::shared_ptr<const Profile>> &profiles, size_t typeIndex);

}   // namespace qflame::detail
