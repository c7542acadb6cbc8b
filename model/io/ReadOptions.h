// What every reader shares: the limits and progress callback it is given, and the two ways it can fail.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>

namespace qflame {

// Every way reading can fail ends in one of these: one line that says what is wrong and where.
class ProfileError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Thrown when a progress callback asked to stop.
class Cancelled : public std::runtime_error {
public:
    Cancelled() : std::runtime_error("cancelled") {}
};

// Called now and then with a fraction in [0, 1]; return false to cancel.
using ProgressFn = std::function<bool(double)>;

struct ReadOptions {
    // Decompressed (or raw) size above which the input is refused: guards against decompression bombs. The
    // largest real profile we know is ~43 MB; 1 GiB leaves ample room. pprof input is never read past 2 GiB,
    // where protobuf's streams stop counting.
    uint64_t maxDecompressedBytes = uint64_t(1) << 30;
    ProgressFn progress;
};

}   // namespace qflame
