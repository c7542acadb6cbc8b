#include "time/RangeDiff.h"

namespace qflame {

std::shared_ptr<const DiffTree> diffTimeRanges(const std::shared_ptr<const Profile> &profile, const TimeRange &before,
                                               const TimeRange &after, size_t type, const BuildOptions &build,
                                               const DiffOptions &options, const std::string &threadRegex)
{
    return diffTimeRanges(profile, TimeRanges{before}, TimeRanges{after}, type, build, options, threadRegex);
}

std::shared_ptr<const DiffTree> diffTimeRanges(const std::shared_ptr<const Profile> &profile, const TimeRanges &before,
                                               const TimeRanges &after, size_t type, const BuildOptions &build,
                                               const DiffOptions &options, const std::string &threadRegex)
{
    const DiffSide a = DiffSide::fromProfiles({profileInRanges(profile, before, threadRegex)}, type, build);
    const DiffSide b = DiffSide::fromProfiles({profileInRanges(profile, after, threadRegex)}, type, build);
    return DiffTree::build(a, b, options);
}

}   // namespace qflame
