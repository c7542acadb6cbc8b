// gzip and zstd, told apart by their magic bytes, and inflated whole under a cap (Inflater.h and
// InflatingStream.h inflate piece by piece).
#pragma once

#include "io/ReadOptions.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace qflame {

enum class Compression { None, Gzip, Zstd };
Compression sniffCompression(std::string_view bytes);
const char *compressionName(Compression c);

// Inflates gzip (all members) or zstd (all frames) into a string, refusing more than `cap` bytes.
std::string decompress(std::string_view bytes, Compression c, uint64_t cap, const ProgressFn &progress = {});

}   // namespace qflame
