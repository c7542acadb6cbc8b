// The streaming pprof decoder (model/pprof/PprofDecoder.h) against libprotobuf's parse of the whole message: both must
// accept the same bytes and, where the profile is valid, read the same strings, locations and samples. Used by
// fuzz_pprof on every input and by tst_pprofdecoder on mutated profiles.
#pragma once

#include <string>
#include <string_view>

namespace qflame::fuzz {

// "" when they agree, else what differs.
std::string crossCheckPprof(std::string_view raw);

}   // namespace qflame::fuzz
