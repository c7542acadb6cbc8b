// The values of a profile's samples, one per sample type of every sample: its second largest array (r64's 743,343
// samples have four each, 23.8 MB at 8 bytes). Nearly every value fits 4 bytes (counts, bytes and nanoseconds of
// one sample), so each takes 4 while every one fits, and 8 from the first that does not.
#pragma once

#include "pprof/NarrowOrWide.h"

namespace qflame {

using SampleValues = NarrowOrWide<int32_t, int64_t>;

}   // namespace qflame
