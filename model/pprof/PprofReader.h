// The pprof reader of the front door (formats/ProfileInput.h): uncompressed bytes are decoded in place, a
// compressed profile while a second thread inflates it. Callers read through the front door; these two are its
// entries for pprof.
#pragma once

#include "io/ReadOptions.h"
#include "pprof/Profile.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace qflame {

class InflatingStream;

// The most a pprof message may be: CodedInputStream counts in int, and beyond 2 GiB it stops with a log line
// instead of an answer. At most options.maxDecompressedBytes.
uint64_t pprofSizeCap(const ReadOptions &options);

// Decode uncompressed bytes. Errors (ProfileError) begin with `sourceName`; running out of memory is one too.
std::shared_ptr<const Profile> readPprofBytes(std::string_view raw, const std::string &sourceName,
                                              const ReadOptions &options);

// Decode what `in` inflates. A damaged compressed stream is reported as such: when inflating failed, the parse
// merely saw the data end early, and its complaint is not the one to give.
std::shared_ptr<const Profile> readPprofInflating(InflatingStream &in, const std::string &sourceName,
                                                  const ReadOptions &options);

}   // namespace qflame
