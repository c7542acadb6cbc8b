// Decodes a pprof message from a protobuf input stream one top-level field at a time. Samples, strings,
// locations, functions and mappings go straight into our arrays, each through one reused message: no arena
// holds the whole message, so memory stays near the size of the result, and parsing goes on while the rest is
// still being inflated. The few other fields (sample types, header) are collected and parsed as one small
// Profile message at the end. Every byte is decoded by libprotobuf.
#pragma once

#include "io/ReadOptions.h"
#include "pprof/Profile.h"

#include <cstdint>
#include <functional>

namespace google::protobuf::io {
class ZeroCopyInputStream;
}

namespace qflame {

// Reads the stream to its end into `out`. `sizeHint` (the expected size in bytes, 0 when unknown) sizes the
// arrays up front. `keepGoing` is called now and then on this thread; returning false throws Cancelled.
// Throws ProfileError "not a pprof profile: the <what> is not a valid profile.proto message" when the bytes
// are not a Profile message, and the first validation error otherwise (dangling ids, bad string indexes, ...).
// `limits` gives the sample-type, comment, item-size and memory limits (its cap and progress are not used here).
void decodePprof(google::protobuf::io::ZeroCopyInputStream &in, uint64_t sizeHint, const char *what,
                 Profile &out, const std::function<bool()> &keepGoing, const ReadOptions &limits = {});

// The same, with the expected size asked for when the arrays are reserved (after the first few thousand samples),
// for a stream that learns its size as it goes (InflatingStream::sizeEstimate).
void decodePprof(google::protobuf::io::ZeroCopyInputStream &in, const std::function<uint64_t()> &sizeHint,
                 const char *what, Profile &out, const std::function<bool()> &keepGoing,
                 const ReadOptions &limits = {});

}   // namespace qflame
