// The locations of a profile's samples, one entry per frame of every stack: by far its largest array (r64's
// 743,343 samples name 20,984,097 locations). Profiles have few locations (r64 2,337, pprof__large.cpu 23,038), so
// each entry takes 2 bytes while every one fits, and 4 from the first that does not. At 4 bytes each, r64's took
// 84 MB: memory that costs more to get from the kernel than the decoding that fills it (issue #31).
#pragma once

#include "pprof/NarrowOrWide.h"

namespace qflame {

using LocationIndexes = NarrowOrWide<uint16_t, uint32_t>;

}   // namespace qflame
