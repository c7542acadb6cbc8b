// pprof's -tagroot and -tagleaf: label values as frames. Each sample gets, per key, one location whose function
// is named by the sample's values of that key (string values, then numeric ones formatted as pprof prints them,
// joined by ","; empty when the sample has none, which pprof shows as "<unknown>") and whose file is the key.
// The first root key is the outermost frame, the last leaf key the innermost. Like pprof (driver.addLabelNodes),
// the frames are added to the profile before any filter runs, so focus, hide and the others see them.
#pragma once

#include "pprof/Profile.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace qflame {

struct SampleFilters;

// The keys of a comma-separated list, empty entries dropped (pprof's dropEmptyStrings).
std::vector<std::string> labelKeyList(std::string_view commaSeparated);

// The text of the frame of `key` for sample s: its values as pprof's formatLabelValues gives them, joined by ",".
std::string labelFrameName(const Profile &p, size_t sample, std::string_view key);

// A copy of p with the label frames of rootKeys and leafKeys in every sample.
std::shared_ptr<const Profile> withLabelFrames(const Profile &p, const std::vector<std::string> &rootKeys,
                                               const std::vector<std::string> &leafKeys);

// The profiles with filters.tagRoot / tagLeaf applied to each; the same profiles when neither is set.
std::vector<std::shared_ptr<const Profile>> withLabelFrames(const std::vector<std::shared_ptr<const Profile>> &profiles,
                                                            const SampleFilters &filters);

}   // namespace qflame
