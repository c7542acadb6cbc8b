// gzip and zstd inflation with a hard cap on the output, so a decompression bomb is an error, not an OOM kill.
#include "io/Inflater.h"

#include "io/InputArrival.h"

#include <zlib.h>
#define ZSTD_STATIC_LINKING_ONLY   // ZSTD_decompressBound: stable since zstd 1.4.0, still filed as experimental
#include <zstd.h>
#if QFLAME_WITH_ISAL
#include <isa-l/igzip_lib.h>
#endif

#include <algorithm>
#include <cstring>
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

}   // namespace

struct Inflater::Impl {
    std::string_view input;
    const InputArrival *arrival = nullptr;   // none: all of `input` is there
    Compression compression;
    uint64_t cap;
    uint64_t produced = 0;
    bool ended = false;

    z_stream zs{};
    bool zlibReady = false;
#if QFLAME_WITH_ISAL
    std::unique_ptr<inflate_state> isal;   // 40 KB of tables and window: on the heap
    bool isalMemberStart = true;          // the next isal_inflate begins a member: its header is checked first
#endif
    ZSTD_DCtx *zstd = nullptr;
    ZSTD_inBuffer zin{nullptr, 0, 0};
    size_t zstdPending = 0;   // ZSTD_decompressStream's last answer: 0 when the last frame is complete

    // Here rather than in ~Inflater: the constructor throws after creating the context when the frame
    // announces more than the cap, and then only the members' destructors run (fuzz_pprof found the leak).
    ~Impl()
    {
        if (zlibReady)
            inflateEnd(&zs);
        ZSTD_freeDCtx(zstd);
    }

    const char *name() const { return compressionName(compression); }

    // The bytes of the input past `consumed` that have arrived, waiting for some while none have and more are
    // to come: 0 only where the input ends.
    size_t more(size_t consumed) const
    {
        if (!arrival)
            return input.size() - consumed;
        InputArrival::State s = arrival->now();
        if (s.arrived <= consumed && !s.complete)
            s = arrival->moreThan(consumed);
        return s.arrived - consumed;
    }
    // Every byte past `consumed`, once all have arrived: what follows a gzip member or the last zstd frame is
    // judged on all of it.
    size_t rest(size_t consumed) const { return (arrival ? arrival->all() : input.size()) - consumed; }
    // Whether the input ends at `consumed`.
    bool endsAt(size_t consumed) const
    {
        if (!arrival)
            return consumed >= input.size();
        const InputArrival::State s = arrival->now();
        return s.complete && s.arrived <= consumed;
    }
    // The input's size as far as it has arrived (for messages, once it has ended).
    size_t arrivedSize() const { return arrival ? arrival->now().arrived : input.size(); }
    // The input as far as it is known to be complete: all of it, or nothing while bytes are still to come.
    std::string_view whole() const
    {
        if (!arrival)
            return input;
        const InputArrival::State s = arrival->now();
        return s.complete ? input.substr(0, s.arrived) : std::string_view();
    }

    void count(size_t n)
    {
        produced += n;
        if (produced > cap)
            capExceeded(name(), cap);
    }

    size_t readNone(char *out, size_t size)
    {
        const size_t total = arrival ? arrival->all() : input.size();
        const size_t n = std::min(size, total - size_t(produced));
        count(n);
        std::memcpy(out, input.data() + (produced - n), n);
        ended = produced == total;
        return n;
    }

    size_t readGzip(char *out, size_t size)
    {
        size_t written = 0;
        while (written < size && !ended) {
            zs.avail_in = uInt(more(consumedBy(zs.next_in)));
            zs.next_out = reinterpret_cast<Bytef *>(out + written);
            zs.avail_out = uInt(std::min<size_t>(size - written, 1u << 30));
            const uInt before = zs.avail_out;
            const int rc = inflate(&zs, Z_NO_FLUSH);
            const size_t got = before - zs.avail_out;
            written += got;
            count(got);
            if (rc == Z_STREAM_END) {
                zs.avail_in = uInt(rest(consumedBy(zs.next_in)));
                // pprof writers sometimes concatenate gzip members; read them all, as gzip(1) and Go do.
                if (zs.avail_in >= 2 && zs.next_in[0] == 0x1f && zs.next_in[1] == 0x8b) {
                    inflateReset(&zs);
                    continue;
                }
                // Trailing zero padding is harmless; anything else means a damaged file.
                if (std::any_of(zs.next_in, zs.next_in + zs.avail_in, [](Bytef b) { return b != 0; }))
                    throw ProfileError("gzip: unexpected data after the end of the compressed stream");
                ended = true;
                break;
            }
            if (rc == Z_BUF_ERROR && zs.avail_in == 0)
                throw ProfileError("gzip: truncated data (the stream ends after " + std::to_string(arrivedSize()) +
                                   " bytes without its end marker)");
            if (rc != Z_OK && rc != Z_BUF_ERROR)
                throw ProfileError(std::string("gzip: corrupt data (") + (zs.msg ? zs.msg : "inflate failed") +
                                   ") at compressed byte " + std::to_string(consumedBy(zs.next_in)));
        }
        return written;
    }

#if QFLAME_WITH_ISAL
    // The same contract as readGzip: every member, zero padding after the last, and the same three errors.
    size_t readGzipIsal(char *out, size_t size)
    {
        inflate_state &st = *isal;
        size_t written = 0;
        while (written < size && !ended) {
            st.avail_in = uint32_t(more(consumedBy(st.next_in)));
            if (isalMemberStart) {
                isalMemberStart = false;
                // zlib refuses a member header with a reserved flag bit set; ISA-L reads on and fails later with
                // another error. The same input is the same error whichever library reads it (fuzz_pprof).
                if (st.avail_in >= 4 && (st.next_in[3] & 0xe0) != 0)
                    throw ProfileError("gzip: corrupt data (unknown header flags set) at compressed byte " +
                                       std::to_string(consumedBy(st.next_in) + 3));
            }
            st.next_out = reinterpret_cast<uint8_t *>(out + written);
            st.avail_out = uint32_t(std::min<size_t>(size - written, 1u << 30));
            const uint32_t before = st.avail_out;
            const int rc = isal_inflate(&st);
            const size_t got = before - st.avail_out;
            written += got;
            count(got);
            if (rc < 0)
                throw ProfileError(std::string("gzip: corrupt data (") + isalError(rc) + ") at compressed byte " +
                                   std::to_string(consumedBy(st.next_in)));
            if (st.block_state == ISAL_BLOCK_FINISH) {
                st.avail_in = uint32_t(rest(consumedBy(st.next_in)));
                if (st.avail_in >= 2 && st.next_in[0] == 0x1f && st.next_in[1] == 0x8b) {
                    uint8_t *next = st.next_in;
                    const uint32_t left = st.avail_in;
                    isal_inflate_reset(&st);
                    st.crc_flag = ISAL_GZIP;
                    st.next_in = next;
                    st.avail_in = left;
                    isalMemberStart = true;
                    continue;
                }
                if (std::any_of(st.next_in, st.next_in + st.avail_in, [](uint8_t b) { return b != 0; }))
                    throw ProfileError("gzip: unexpected data after the end of the compressed stream");
                ended = true;
                break;
            }
            if (got == 0 && st.avail_in == 0 && endsAt(consumedBy(st.next_in)))
                throw ProfileError("gzip: truncated data (the stream ends after " + std::to_string(arrivedSize()) +
                                   " bytes without its end marker)");
        }
        return written;
    }

    static const char *isalError(int rc)
    {
        switch (rc) {
        case ISAL_INVALID_BLOCK: return "invalid block";
        case ISAL_INVALID_SYMBOL: return "invalid symbol";
        case ISAL_INVALID_LOOKBACK: return "invalid distance";
        case ISAL_INVALID_WRAPPER: return "invalid header";
        case ISAL_UNSUPPORTED_METHOD: return "unknown compression method";
        case ISAL_INCORRECT_CHECKSUM: return "incorrect check";
        default: return "inflate failed";
        }
    }
#endif

    size_t consumedBy(const void *next) const { return size_t(static_cast<const char *>(next) - input.data()); }

    size_t readZstd(char *out, size_t size)
    {
        size_t written = 0;
        while (written < size && !ended) {
            zin.size = zin.pos + more(zin.pos);
            if (zin.pos == zin.size && zstdPending == 0) {
                ended = true;   // every frame complete and flushed
                break;
            }
            ZSTD_outBuffer output{out + written, size - written, 0};
            const size_t inBefore = zin.pos;
            zstdPending = ZSTD_decompressStream(zstd, &output, &zin);
            // No position: zstd decodes a frame that fits the output in one go and reports no progress on error.
            if (ZSTD_isError(zstdPending))
                throw ProfileError(std::string("zstd: corrupt data (") + ZSTD_getErrorName(zstdPending) + ")");
            written += output.pos;
            count(output.pos);
            if (output.pos == 0 && zin.pos == inBefore && zin.pos == zin.size)
                throw ProfileError("zstd: truncated data (the last frame is incomplete after " +
                                   std::to_string(arrivedSize()) + " bytes)");
        }
        return written;
    }
};

bool gzipLibraryAvailable(GzipLibrary library)
{
    return library == GzipLibrary::Zlib || QFLAME_WITH_ISAL;
}

GzipLibrary defaultGzipLibrary()
{
    return QFLAME_WITH_ISAL ? GzipLibrary::Isal : GzipLibrary::Zlib;
}

Inflater::Inflater(std::string_view input, Compression c, uint64_t cap, GzipLibrary gzip, const InputArrival *arrival)
    : d(std::make_unique<Impl>())
{
    d->input = input;
    d->arrival = arrival;
    d->compression = c;
    d->cap = cap;
    switch (c) {
    case Compression::Gzip:
#if QFLAME_WITH_ISAL
        if (gzip == GzipLibrary::Isal) {
            d->isal = std::make_unique<inflate_state>();
            isal_inflate_init(d->isal.get());
            d->isal->crc_flag = ISAL_GZIP;   // parses the header, checks the trailer's CRC and length
            d->isal->next_in = reinterpret_cast<uint8_t *>(const_cast<char *>(input.data()));
            d->isal->avail_in = 0;   // what has arrived, before each step
            break;
        }
#endif
        (void)gzip;
        if (inflateInit2(&d->zs, 15 + 16) != Z_OK)
            throw ProfileError("gzip: cannot initialise zlib");
        d->zlibReady = true;
        d->zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(input.data()));
        d->zs.avail_in = 0;   // what has arrived, before each step; callers keep inputs below 4 GiB (the read cap)
        break;
    case Compression::Zstd: {
        d->zstd = ZSTD_createDCtx();
        if (!d->zstd)
            throw ProfileError("zstd: cannot create a decompression context");
        d->zin = ZSTD_inBuffer{input.data(), 0, 0};   // what has arrived, before each step
        const uint64_t declared = announcedSize();
        if (declared > cap)
            capExceeded("zstd", cap);
        break;
    }
    case Compression::None:
        break;
    }
}

Inflater::~Inflater() = default;

size_t Inflater::read(char *out, size_t size)
{
    if (d->ended || size == 0)
        return 0;
    switch (d->compression) {
    case Compression::Gzip:
#if QFLAME_WITH_ISAL
        if (d->isal)
            return d->readGzipIsal(out, size);
#endif
        return d->readGzip(out, size);
    case Compression::Zstd: return d->readZstd(out, size);
    case Compression::None: break;
    }
    return d->readNone(out, size);
}

double Inflater::consumedFraction() const
{
    const size_t total = d->input.size();
    if (total == 0)
        return 1.0;
    switch (d->compression) {
    case Compression::Gzip:
#if QFLAME_WITH_ISAL
        if (d->isal)
            return double(d->consumedBy(d->isal->next_in)) / double(total);
#endif
        return double(d->consumedBy(d->zs.next_in)) / double(total);
    case Compression::Zstd: return double(d->zin.pos) / double(total);
    case Compression::None: break;
    }
    return double(d->produced) / double(total);
}

uint64_t Inflater::sizeHint() const
{
    return std::min<uint64_t>(announcedSize(), uint64_t(d->input.size()) * 64);
}

uint64_t Inflater::sizeBound() const
{
    if (d->compression != Compression::Zstd)
        return 0;
    const std::string_view in = d->whole();
    if (in.empty())
        return 0;
    const unsigned long long bound = ZSTD_decompressBound(in.data(), in.size());
    return bound == ZSTD_CONTENTSIZE_ERROR ? 0 : std::min<uint64_t>(bound, uint64_t(in.size()) * 64);
}

uint64_t Inflater::announcedSize() const
{
    // A gzip trailer is at the end, so only an input that has all arrived announces a size; a zstd frame header
    // is at the start.
    const std::string_view in = d->compression == Compression::Gzip ? d->whole()
                                : d->arrival ? d->input.substr(0, d->arrival->now().arrived)
                                             : d->input;
    switch (d->compression) {
    case Compression::Gzip: {
        if (in.size() < 18)
            return 0;
        const auto *t = reinterpret_cast<const uint8_t *>(in.data() + in.size() - 4);
        return uint64_t(t[0]) | uint64_t(t[1]) << 8 | uint64_t(t[2]) << 16 | uint64_t(t[3]) << 24;
    }
    case Compression::Zstd: {
        const unsigned long long declared = ZSTD_getFrameContentSize(in.data(), in.size());
        return declared == ZSTD_CONTENTSIZE_UNKNOWN || declared == ZSTD_CONTENTSIZE_ERROR ? 0 : declared;
    }
    case Compression::None: break;
    }
    return in.size();
}

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
    return "raw";
}

std::string decompress(std::string_view bytes, Compression c, uint64_t cap, const ProgressFn &progress)
{
    Inflater inflater(bytes, c, cap);
    // Start from the announced size (one byte more, so that the end is seen without growing), but never
    // trust it beyond the cap; grow geometrically, never past cap + 1, when it is wrong.
    uint64_t hint = inflater.sizeHint();
    std::string out;
    out.resize(std::min<uint64_t>(std::max<uint64_t>(hint ? hint + 1 : bytes.size() * 4, 64 * 1024), cap + 1));
    size_t produced = 0;
    for (;;) {
        if (produced == out.size())
            out.resize(std::min<uint64_t>(out.size() * 2, cap + 1));
        const size_t got = inflater.read(out.data() + produced, std::min<size_t>(out.size() - produced, 4 << 20));
        if (got == 0)
            break;
        produced += got;
        if (progress && !progress(inflater.consumedFraction()))
            throw Cancelled();
    }
    out.resize(produced);
    return out;
}

}   // namespace qflame
