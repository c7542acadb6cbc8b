// libFuzzer target: the reader of pprof's legacy formats (text heap, count, contention, thread and Java profiles,
// binary CPU profiles), then a call tree and flat table of each sample type (Exercise.h).
#include "Exercise.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    qflame::fuzz::exerciseProfile({reinterpret_cast<const char *>(data), size}, nullptr,
                                  qflame::fuzz::Reader::LegacyPprof);
    return 0;
}
