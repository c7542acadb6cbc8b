// libFuzzer target: the pprof reader, then a call tree and flat table of each sample type (Exercise.h). Two
// differential checks on the same input: the streaming decoder against libprotobuf's whole-message parse of the
// inflated bytes, and compressed input read in tiny blocks (fields straddling them) against the default blocks.
// And three of the parts on their own: the input as one Sample message, and as one Function and one Location,
// through the hand-written decoders against libprotobuf, and gzip input through zlib against ISA-L.
#include "Exercise.h"
#include "formats/ProfileInput.h"
#include "io/InflatingStream.h"
#include "pprof/PprofReader.h"
#include "PprofCrossCheck.h"

#include <cstdio>
#include <cstdlib>

namespace {

[[noreturn]] void disagree(const char *what, const std::string &detail)
{
    std::fprintf(stderr, "qflame fuzz: %s: %s\n", what, detail.c_str());
    std::abort();
}

// The profile, or the error's text. Where zlib noticed damage depends on how much output it was asked for at a
// time, so the position in gzip's messages is left out of the comparison.
template <typename Read>
std::string outcome(Read read, qflame::Profile *profile)
{
    try {
        *profile = *read();
        return {};
    } catch (const qflame::ProfileError &e) {
        std::string text = e.what();
        const std::string at = " at compressed byte ";
        if (const size_t pos = text.find(at); pos != std::string::npos)
            text.resize(pos);
        return text;
    }
}

}   // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace qflame;
    const std::string_view bytes(reinterpret_cast<const char *>(data), size);
    fuzz::exerciseProfile(bytes, nullptr, fuzz::Reader::Pprof);

    const Compression c = sniffCompression(bytes);
    ReadOptions options;
    options.maxDecompressedBytes = fuzz::kMaxDecompressed;
    if (c != Compression::None) {
        Profile usual, tiny;
        const std::string usualError = outcome([&] { return readPprof(bytes, "fuzz", options); }, &usual);
        const std::string tinyError = outcome([&] {
            std::unique_ptr<InflatingStream> in;
            try {
                // A background thread for one input in eight: threads are what makes this check expensive.
                in = std::make_unique<InflatingStream>(bytes, c, options.maxDecompressedBytes, 1 + size % 61,
                                                       size % 8 ? InflatingStream::Threading::Reader
                                                                : InflatingStream::Threading::Background);
            } catch (const ProfileError &e) {   // zstd announcing more than the cap
                throw ProfileError(std::string("fuzz: ") + e.what());
            }
            if (in->peek().empty())   // the front door's own message for an empty archive
                return readPprof(bytes, "fuzz", options);
            return readPprofInflating(*in, "fuzz", options);
        }, &tiny);
        if (usualError != tinyError || !(usual == tiny))
            disagree("tiny blocks read otherwise", usualError + " | " + tinyError);
    }

    if (const std::string gzip = fuzz::crossCheckGzip(bytes, fuzz::kMaxDecompressed); !gzip.empty())
        disagree("zlib and ISA-L disagree", gzip);
    if (const std::string sample = fuzz::crossCheckSampleWire(bytes); !sample.empty())
        disagree("hand-written sample decoder and libprotobuf disagree", sample);
    if (const std::string metadata = fuzz::crossCheckMetadataWire(bytes); !metadata.empty())
        disagree("hand-written function or location decoder and libprotobuf disagree", metadata);

    std::string raw;
    try {
        raw = decompress(bytes, c, fuzz::kMaxDecompressed);
    } catch (const ProfileError &) {
        return 0;
    }
    const std::string mismatch = fuzz::crossCheckPprof(raw);
    if (!mismatch.empty())
        disagree("decoder and whole-message parse disagree", mismatch);
    return 0;
}
