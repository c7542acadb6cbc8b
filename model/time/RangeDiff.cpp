#include "time/RangeDiff.h"

namespace qflame {

std::shared_ptr<const DiffTree> diffTimeRanges(const std::shared_ptr<const Profile> &profile, const TimeRange &before,
                                               const TimeRange &after, size_t type, const BuildOptions &build,
                                               const DiffOptions &options, const std::string &threadRegex)
{
    const DiffSide a = DiffSide::fromProfiles({profileInRange(profile, before, threadRegex)}, type, build);
    const DiffSide b = DiffSide::fromProfiles({profileInRange(profile, after, threadRegex)}, type, build);
    return DiffTree::build(a, b, options);
}

}   // namespace qflame
