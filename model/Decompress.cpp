// gzip and zstd inflation with a hard cap on the output, so a decompression bomb is an error, not an OOM kill.
#include "ProfileReader.h"

#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <memory>

namespace qflame {

namespace {

std::string mib(uint64_t bytes)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.1f MiB", double(bytes) / (1024.0 * 1024.0));
    return buf;
}

[[noreturn]] void capExceeded(const char *format, uint64_t cap)
{
    throw ProfileError(std::string(format) + " data inflates to more than the size limit of " + mib(cap) +
                       " (a decompression bomb, or raise the limit)");
}

// Grows `out` geometrically but never past cap + 1, so that crossing the cap is detected without allocating
// far beyond it.
void grow(std::string &out, uint64_t cap, const char *format)
{
    if (out.size() > cap)
        capExceeded(format, cap);
    const uint64_t next = std::min<uint64_t>(std::max<uint64_t>(out.size() * 2, 64 * 1024), cap + 1);
    out.resize(next);
}

bool reportProgress(const ProgressFn &progress, size_t consumed, size_t total)
{
    return !progress || progress(total ? double(consumed) / double(total) : 1.0);
}

std::string gunzip(std::string_view in, uint64_t cap, const ProgressFn &progress)
{
    z_stream zs{};
    if (inflateInit2(&zs, 15 + 16) != Z_OK)
        throw ProfileError("gzip: cannot initialise zlib");
    std::unique_ptr<z_stream, int (*)(z_stream *)> guard(&zs, inflateEnd);

    std::string out;
    out.resize(std::min<uint64_t>(std::max<uint64_t>(in.size() * 4, 64 * 1024), cap + 1));
    size_t produced = 0;
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(in.data()));
    zs.avail_in = uInt(in.size());   // callers keep inputs below 4 GiB (the read cap)
    int members = 0;
    for (;;) {
        if (produced == out.size())
            grow(out, cap, "gzip");
        zs.next_out = reinterpret_cast<Bytef *>(out.data() + produced);
        zs.avail_out = uInt(std::min<size_t>(out.size() - produced, 1u << 30));
        const uInt before = zs.avail_out;
        const int rc = inflate(&zs, Z_NO_FLUSH);
        produced += before - zs.avail_out;
        if (produced > cap)
            capExceeded("gzip", cap);
        if (rc == Z_STREAM_END) {
            ++members;
            // pprof writers sometimes concatenate gzip members; read them all, as gzip(1) and Go do.
            if (zs.avail_in >= 2 && zs.next_in[0] == 0x1f && zs.next_in[1] == 0x8b) {
                inflateReset(&zs);
                continue;
            }
            // Trailing zero padding is harmless; anything else means a damaged file.
            if (std::any_of(zs.next_in, zs.next_in + zs.avail_in, [](Bytef b) { return b != 0; }))
                throw ProfileError("gzip: unexpected data after the end of the compressed stream");
            break;
        }
        if (rc == Z_BUF_ERROR && zs.avail_in == 0)
            throw ProfileError("gzip: truncated data (the stream ends after " + std::to_string(in.size()) +
                               " bytes without its end marker)");
        if (rc != Z_OK && rc != Z_BUF_ERROR)
            throw ProfileError(std::string("gzip: corrupt data (") + (zs.msg ? zs.msg : "inflate failed") +
                               ") at compressed byte " + std::to_string(in.size() - zs.avail_in));
        if (!reportProgress(progress, in.size() - zs.avail_in, in.size()))
            throw Cancelled();
    }
    (void)members;
    out.resize(produced);
    return out;
}

std::string unzstd(std::string_view in, uint64_t cap, const ProgressFn &progress)
{
    std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx *)> ctx(ZSTD_createDCtx(), ZSTD_freeDCtx);
    if (!ctx)
        throw ProfileError("zstd: cannot create a decompression context");
    std::string out;
    const unsigned long long declared = ZSTD_getFrameContentSize(in.data(), in.size());
    if (declared != ZSTD_CONTENTSIZE_UNKNOWN && declared != ZSTD_CONTENTSIZE_ERROR && declared > cap)
        capExceeded("zstd", cap);
    uint64_t initial = (declared != ZSTD_CONTENTSIZE_UNKNOWN && declared != ZSTD_CONTENTSIZE_ERROR)
        ? declared + 1 : in.size() * 4;
    out.resize(std::min<uint64_t>(std::max<uint64_t>(initial, 64 * 1024), cap + 1));
    size_t produced = 0;
    ZSTD_inBuffer input{in.data(), in.size(), 0};
    size_t lastRc = 0;
    while (input.pos < input.size) {
        if (produced == out.size())
            grow(out, cap, "zstd");
        ZSTD_outBuffer output{out.data() + produced, out.size() - produced, 0};
        lastRc = ZSTD_decompressStream(ctx.get(), &output, &input);
        produced += output.pos;
        if (ZSTD_isError(lastRc))
            throw ProfileError(std::string("zstd: corrupt data (") + ZSTD_getErrorName(lastRc) +
                               ") at compressed byte " + std::to_string(input.pos));
        if (produced > cap)
            capExceeded("zstd", cap);
        if (!reportProgress(progress, input.pos, input.size))
            throw Cancelled();
    }
    // Flush what the decoder still holds, then check that the last frame was complete.
    while (lastRc != 0) {
        if (produced == out.size())
            grow(out, cap, "zstd");
        ZSTD_outBuffer output{out.data() + produced, out.size() - produced, 0};
        const size_t before = produced;
        lastRc = ZSTD_decompressStream(ctx.get(), &output, &input);
        produced += output.pos;
        if (ZSTD_isError(lastRc))
            throw ProfileError(std::string("zstd: corrupt data (") + ZSTD_getErrorName(lastRc) + ")");
        if (produced > cap)
            capExceeded("zstd", cap);
        if (produced == before && lastRc != 0)
            throw ProfileError("zstd: truncated data (the last frame is incomplete after " +
                               std::to_string(in.size()) + " bytes)");
    }
    out.resize(produced);
    return out;
}

}   // namespace

Compression sniffCompression(std::string_view b)
{
    if (b.size() >= 2 && uint8_t(b[0]) == 0x1f && uint8_t(b[1]) == 0x8b)
        return Compression::Gzip;
    if (b.size() >= 4 && uint8_t(b[0]) == 0x28 && uint8_t(b[1]) == 0xb5 && uint8_t(b[2]) == 0x2f &&
        uint8_t(b[3]) == 0xfd)
        return Compression::Zstd;
    return Compression::None;
}

const char *compressionName(Compression c)
{
    switch (c) {
    case Compression::Gzip: return "gzip";
    case Compression::Zstd: return "zstd";
    case Compression::None: break;
    }
    return "none";
}

std::string decompress(std::string_view bytes, Compression c, uint64_t cap, const ProgressFn &progress)
{
    switch (c) {
    case Compression::Gzip: return gunzip(bytes, cap, progress);
    case Compression::Zstd: return unzstd(bytes, cap, progress);
    case Compression::None: break;
    }
    if (bytes.size() > cap)
        capExceeded("raw", cap);
    return std::string(bytes);
}

}   // namespace qflame
