// The streaming pprof decoder (model/pprof/PprofDecoder.h) against libprotobuf's parse of the whole message: both must
// accept the same bytes and, where the profile is valid, read the same strings, functions, locations and samples. Used by
// fuzz_pprof on every input and by tst_pprofdecoder on mutated profiles.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace qflame::fuzz {

// "" when they agree, else what differs.
std::string crossCheckPprof(std::string_view raw);

// The hand-written Sample decoder (pprof/SampleWire.h) on `bytes` taken as one Sample message, against
// libprotobuf's parse of it: whatever the hand-written one takes, libprotobuf must take and read alike.
std::string crossCheckSampleWire(std::string_view bytes);
// Whether the hand-written Sample decoder takes `bytes` (false: it leaves them to libprotobuf).
bool sampleWireTakes(std::string_view bytes);

// The same for the hand-written Function and Location decoders (pprof/MetadataWire.h), `bytes` taken as one
// message of each.
std::string crossCheckMetadataWire(std::string_view bytes);

// gzip input inflated by zlib and by ISA-L (io/Inflater.h): the same bytes, or both refused with the same kind
// of error. "" where ISA-L is not built in.
std::string crossCheckGzip(std::string_view bytes, uint64_t cap);

}   // namespace qflame::fuzz
