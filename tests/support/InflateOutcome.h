// What an Inflater makes of a stream, read to its end or its error: the tests of the gzip libraries and of input
// that arrives in pieces compare such outcomes.
#pragma once

#include "io/Inflater.h"

#include <QString>

#include <string>
#include <string_view>

namespace qflame::test {

struct InflateOutcome {
    std::string bytes;   // what came out before the end or the error
    std::string error;   // empty when the stream was accepted
    // "ok", or the error up to its parenthesis (the byte positions after it depend on how far a library read).
    QString kind() const;
};

// All of `in` through an Inflater, in reads of `readSize`, under `cap`; `arrival` as the inflater is given it.
InflateOutcome inflateAll(std::string_view in, Compression c, GzipLibrary library, size_t readSize,
                          uint64_t cap = 1u << 30, const InputArrival *arrival = nullptr);

}   // namespace qflame::test
