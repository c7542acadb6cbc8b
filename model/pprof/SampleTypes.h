// Looking a profile's sample types up, and the one wording of the errors about them, for every verb and model
// unit that picks a type (top, diff, convert, list, rounds, PGO edges, diffs of files and of server windows).
#pragma once

#include "pprof/Profile.h"

#include <string>
#include <string_view>

namespace qflame {

// The sample type of exactly this name and unit; -1 when there is none.
int findExactSampleType(const Profile &p, std::string_view type, std::string_view unit);

// The sample types as "type/unit, type/unit" ("none" for a profile without any).
std::string sampleTypeList(const Profile &p);

// "no sample type 'SPEC' in FILE (it has: ...)".
std::string noSuchSampleType(const Profile &p, std::string_view spec);

}   // namespace qflame
