// Pull-style gzip/zstd inflation with a hard cap on the output, so a decompression bomb is an error, not an OOM
// kill. decompress() (io/Compression.h) inflates into one string with it; the streaming pprof reader inflates
// block by block on a background thread while the caller parses what already came out.
#pragma once

#include "io/Compression.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

namespace qflame {

class InputArrival;

// Which library inflates gzip. ISA-L (Intel's storage library, libisal) inflates about three times as fast as
// zlib on x86-64 (issue #31: 890 against 330 MB/s on the largest corpus profile), and streams as zlib does; zlib
// stays for builds without it (QFLAME_WITH_ISAL=OFF, or architectures Debian builds no libisal for). Both
// accept and refuse the same streams (tst_inflaters runs every input through both).
enum class GzipLibrary { Zlib, Isal };
bool gzipLibraryAvailable(GzipLibrary library);
GzipLibrary defaultGzipLibrary();   // ISA-L where built with it

class Inflater {
public:
    // `input` must outlive the inflater. Compression::None passes the bytes through (the cap still applies).
    // `gzip` picks the library for gzip input; one not built in falls back to zlib. With `arrival`, the bytes of
    // `input` come in while it inflates (io/InputArrival.h; not for Compression::None): it inflates what has
    // arrived and waits for more, and `input` may end short of its size (arrival's end says where).
    Inflater(std::string_view input, Compression c, uint64_t cap, GzipLibrary gzip = defaultGzipLibrary(),
             const InputArrival *arrival = nullptr);
    ~Inflater();
    Inflater(const Inflater &) = delete;
    Inflater &operator=(const Inflater &) = delete;

    // Fills out[0, size) unless the data ends first; returns the number of bytes written, 0 once at the end.
    // Throws ProfileError for damaged data, trailing garbage or output over the cap.
    size_t read(char *out, size_t size);

    // How much of the input has been consumed, in [0, 1].
    double consumedFraction() const;

    // The inflated size the input announces (gzip's trailer, zstd's frame header), 0 when unknown, at most 64
    // times the input: only a hint for sizing buffers. A gzip trailer holds the size modulo 4 GiB of the last
    // member only, and any header can lie; real profiles inflate 3-10 times.
    uint64_t sizeHint() const;

    // Where no size is announced, the most the input can inflate to as its compressed format tells without
    // inflating (zstd: each block of a frame holds at most 128 KiB; ZSTD_decompressBound), at most 64 times the
    // input; 0 when the format tells nothing (gzip) or the frames do not parse. For zstd written by a stream
    // (a pipe: no content size) it is within a block of the real size: 0.24 % above on r64.pb.zst.
    uint64_t sizeBound() const;

private:
    uint64_t announcedSize() const;

    struct Impl;
    std::unique_ptr<Impl> d;
};

}   // namespace qflame
