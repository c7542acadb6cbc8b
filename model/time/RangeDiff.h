// Two time ranges of one profile compared: each range's profile (time/TimeRange.h) as a side of the usual diff
// (diff/DiffTree.h), with its noise rule.
#pragma once

#include "diff/DiffTree.h"
#include "time/TimeRange.h"
#include "tree/CallTreeBuilder.h"

#include <memory>

namespace qflame {

std::shared_ptr<const DiffTree> diffTimeRanges(const std::shared_ptr<const Profile> &profile, const TimeRange &before,
                                               const TimeRange &after, size_t type, const BuildOptions &build = {},
                                               const DiffOptions &options = {}, const std::string &threadRegex = {});
// The same for two unions of ranges (heatmap cells picked one by one).
std::shared_ptr<const DiffTree> diffTimeRanges(const std::shared_ptr<const Profile> &profile, const TimeRanges &before,
                                               const TimeRanges &after, size_t type, const BuildOptions &build = {},
                                               const DiffOptions &options = {}, const std::string &threadRegex = {});

}   // namespace qflame
