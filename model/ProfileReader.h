// Reads pprof profiles from files, stdin or memory: gzip, zstd or raw protobuf, told apart by content.
#pragma once

#include "Profile.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

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

enum class Compression { None, Gzip, Zstd };
Compression sniffCompression(std::string_view bytes);
const char *compressionName(Compression c);

// Inflates gzip (all members) or zstd (all frames) into a string, refusing more than `cap` bytes.
std::string decompress(std::string_view bytes, Compression c, uint64_t cap, const ProgressFn &progress = {});

// Decodes bytes (compressed or not) into a validated profile. `sourceName` appears in messages.
std::shared_ptr<const Profile> readProfile(std::string_view bytes, const std::string &sourceName,
                                           const ReadOptions &options = {});

// For readers that look at the inflated bytes before deciding what they are (ProfileFormats): a stream that
// inflates `bytes` (kept alive by the caller) on a second thread, and the pprof decode of such a stream.
class InflatingStream;
std::unique_ptr<InflatingStream> startInflating(std::string_view bytes, Compression c, const ReadOptions &options);
std::shared_ptr<const Profile> readInflatedProfile(InflatingStream &in, const std::string &sourceName,
                                                   const ReadOptions &options);

// Reads a file; "-" reads standard input.
std::shared_ptr<const Profile> readProfileFile(const QString &path, const ReadOptions &options = {});

// The raw bytes of a file ("-": standard input), refusing more than options.maxDecompressedBytes; sets
// *sourceName to the name for messages. Throws ProfileError.
QByteArray readInputBytes(const QString &path, const ReadOptions &options, std::string *sourceName);

}   // namespace qflame
