// The one front door for bytes. Every reader path (CLI verbs, the window, the qryn client, tests) comes here:
// the compression is sniffed, the input inflated under the size cap, the format sniffed from the first inflated
// bytes (never from a file name), and the bytes handed to the one reader for that format. A new reader is one
// row in formatReaders() (ProfileInput.cpp); the cap, the naming of errors and the handling of damaged or empty
// archives then hold for it too.
#pragma once

#include "io/Compression.h"
#include "io/ReadOptions.h"
#include "pprof/Profile.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

class QString;

namespace qflame {

class InflatingStream;

enum class ProfileFormat { Pprof, Folded, Flamebearer, PerfScript, Speedscope, ChromeCpuProfile, LegacyPprof };
const char *profileFormatName(ProfileFormat f);

// A reader of one format. Its errors (ProfileError) begin with the source name it is given.
struct FormatReader {
    ProfileFormat format;
    // Whether the first uncompressed bytes (a block, or all of a shorter input) are this format's. Null for the
    // reader of last resort (pprof), which takes whatever no other reader claims and says why it is not a
    // profile, if it is not.
    bool (*recognizes)(std::string_view head);
    // Reads the whole uncompressed input.
    std::shared_ptr<const Profile> (*readBytes)(std::string_view bytes, const std::string &sourceName,
                                                const ReadOptions &options);
    // Reads while the rest is still being inflated on a second thread. Null: the input is inflated whole
    // (under the cap) and given to readBytes.
    std::shared_ptr<const Profile> (*readInflating)(InflatingStream &in, const std::string &sourceName,
                                                    const ReadOptions &options);
};

// In the order they are asked; the last is pprof.
const std::vector<FormatReader> &formatReaders();

// The format of uncompressed `bytes` (the first reader that recognizes them, else pprof).
ProfileFormat sniffProfileFormat(std::string_view bytes);

// The size above which any input, raw or inflated, is refused: options.maxDecompressedBytes, and never more
// than a pprof message can be (2 GiB).
uint64_t inputSizeCap(const ReadOptions &options);

// Any format, compressed or not. Errors name `sourceName`.
std::shared_ptr<const Profile> readProfile(std::string_view bytes, const std::string &sourceName,
                                           const ReadOptions &options = {});
// A file of any format; "-" reads standard input.
std::shared_ptr<const Profile> readProfileFile(const std::string &path, const ReadOptions &options = {});
// The same for a path held by Qt code (formats/ProfileInputQt.cpp: the core of the model links no Qt).
std::shared_ptr<const Profile> readProfileFile(const QString &path, const ReadOptions &options = {});

// The same door with the format fixed to pprof, for callers that hold pprof whatever the bytes look like (a
// server's pprof answer, tests of the pprof decoder).
std::shared_ptr<const Profile> readPprof(std::string_view bytes, const std::string &sourceName,
                                         const ReadOptions &options = {});
std::shared_ptr<const Profile> readPprofFile(const std::string &path, const ReadOptions &options = {});
std::shared_ptr<const Profile> readPprofFile(const QString &path, const ReadOptions &options = {});

}   // namespace qflame
