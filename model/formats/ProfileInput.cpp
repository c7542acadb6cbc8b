#include "formats/ProfileInput.h"

#include "formats/ChromeCpuProfileFormat.h"
#include "formats/FlamebearerFormat.h"
#include "formats/FoldedFormat.h"
#include "formats/LegacyPprofFormat.h"
#include "formats/PerfScriptFormat.h"
#include "formats/SpeedscopeFormat.h"
#include "io/InflatingStream.h"
#include "io/InputFile.h"
#include "names/Demangle.h"
#include "names/TemplateArguments.h"
#include "pprof/PprofReader.h"

#include <algorithm>
#include <optional>

namespace qflame {

namespace {

bool recognizesFolded(std::string_view head)
{
    return looksLikeFolded(head.substr(0, 64 * 1024));
}

std::shared_ptr<const Profile> readFoldedBytes(std::string_view text, const std::string &sourceName,
                                               const ReadOptions &options)
{
    return readFolded(text, sourceName, options);
}

std::shared_ptr<const Profile> readPerfScriptBytes(std::string_view text, const std::string &sourceName,
                                                   const ReadOptions &options)
{
    return readPerfScript(text, sourceName, options);
}

std::shared_ptr<const Profile> readFlamebearerBytes(std::string_view json, const std::string &sourceName,
                                                    const ReadOptions &options)
{
    return readFlamebearer(json, sourceName, options);
}

const FormatReader &readerFor(ProfileFormat format)
{
    for (const FormatReader &r : formatReaders())
        if (r.format == format)
            return r;
    return formatReaders().back();
}

const FormatReader &sniffReader(std::string_view head)
{
    for (const FormatReader &r : formatReaders())
        if (!r.recognizes || r.recognizes(head))
            return r;
    return formatReaders().back();
}

// The door's own errors (size, damaged or empty archives) name the source; the readers name it themselves.
template <typename Step>
auto named(const std::string &sourceName, Step step)
{
    try {
        return step();
    } catch (const ProfileError &e) {
        throw ProfileError(sourceName + ": " + e.what());
    }
}

std::string sizeLimitMessage(uint64_t limit)
{
    return "the input is larger than the size limit of " + std::to_string(limit) + " bytes";
}

std::shared_ptr<const Profile> readThroughDoor(std::string_view bytes, const std::string &sourceName,
                                               const ReadOptions &options, std::optional<ProfileFormat> only)
{
    const uint64_t cap = inputSizeCap(options);
    if (bytes.empty())
        throw ProfileError(sourceName + ": empty input: not a profile");
    const Compression c = sniffCompression(bytes);
    try {
        if (c == Compression::None) {
            if (bytes.size() > cap)
                throw ProfileError(sourceName + ": " + sizeLimitMessage(cap));
            const FormatReader &reader = only ? readerFor(*only) : sniffReader(bytes);
            return reader.readBytes(bytes, sourceName, options);
        }
        // Compressed: the first inflated block tells the format. A streaming reader (pprof) decodes while the
        // rest is still being inflated; the others get the whole inflated text, which the cap bounds.
        const auto in = named(sourceName, [&] { return std::make_unique<InflatingStream>(bytes, c, cap); });
        const std::string_view head = in->peek();
        if (head.empty()) {
            named(sourceName, [&] { in->finish(); return 0; });
            throw ProfileError(sourceName + ": empty input after " + compressionName(c) + " decompression");
        }
        const FormatReader &reader = only ? readerFor(*only) : sniffReader(head);
        if (reader.readInflating)
            return reader.readInflating(*in, sourceName, options);
        const std::string inflated = named(sourceName, [&] { return in->readAll(); });
        return reader.readBytes(inflated, sourceName, options);
    } catch (const std::bad_alloc &) {
        throw ProfileError(sourceName + ": out of memory while reading the profile");
    }
}

// Names are made readable after the reader, for every format alike (readers keep names exactly as they arrive),
// then their template arguments collapsed when asked.
std::shared_ptr<const Profile> readAndDemangle(std::string_view bytes, const std::string &sourceName,
                                               const ReadOptions &options, std::optional<ProfileFormat> only)
{
    auto profile = demangleProfile(readThroughDoor(bytes, sourceName, options, only), options.demangle);
    return options.collapseTemplates ? collapseTemplates(std::move(profile)) : profile;
}

std::shared_ptr<const Profile> readFileThroughDoor(const QString &path, const ReadOptions &options,
                                                   std::optional<ProfileFormat> only)
{
    std::string name;
    const QByteArray bytes = readInputBytes(path, options, &name);
    return readAndDemangle(std::string_view(bytes.constData(), size_t(bytes.size())), name, options, only);
}

}   // namespace

const char *profileFormatName(ProfileFormat f)
{
    switch (f) {
    case ProfileFormat::Pprof: return "pprof";
    case ProfileFormat::Folded: return "folded";
    case ProfileFormat::Flamebearer: return "flamebearer";
    case ProfileFormat::PerfScript: return "perf script";
    case ProfileFormat::Speedscope: return "speedscope";
    case ProfileFormat::ChromeCpuProfile: return "cpuprofile";
    case ProfileFormat::LegacyPprof: return "legacy pprof";
    }
    return "pprof";
}

const std::vector<FormatReader> &formatReaders()
{
    // A pprof message cannot start with '{' (field 15, wire type 3: a group, which proto3 has none of), and its
    // first bytes are binary tags and lengths, so text that parses as a folded line is never a real profile.
    // perf script comes before folded: its header ends in an "EVENT:" token, which no folded line's count is.
    // speedscope and .cpuprofile are JSON objects too, told apart by their own keys before flamebearer's test
    // (any object) takes them. pprof's legacy formats come before the other text formats: their header lines
    // ("heap profile: 1: 2 [3: 4] @ heap_v2/524288") are precise, and perf script's test would take them. Their
    // binary CPU profile starts with a zero word, which no pprof message does (field 0 does not exist).
    static const std::vector<FormatReader> readers = {
        {ProfileFormat::Speedscope, looksLikeSpeedscope, readSpeedscope, nullptr},
        {ProfileFormat::ChromeCpuProfile, looksLikeChromeCpuProfile, readChromeCpuProfile, nullptr},
        {ProfileFormat::Flamebearer, looksLikeJsonObject, readFlamebearerBytes, nullptr},
        {ProfileFormat::LegacyPprof, looksLikeLegacyPprof, readLegacyPprof, nullptr},
        {ProfileFormat::PerfScript, looksLikePerfScript, readPerfScriptBytes, nullptr},
        {ProfileFormat::Folded, recognizesFolded, readFoldedBytes, nullptr},
        {ProfileFormat::Pprof, nullptr, readPprofBytes, readPprofInflating},
    };
    return readers;
}

ProfileFormat sniffProfileFormat(std::string_view bytes)
{
    return sniffReader(bytes).format;
}

uint64_t inputSizeCap(const ReadOptions &options)
{
    return pprofSizeCap(options);
}

std::shared_ptr<const Profile> readProfile(std::string_view bytes, const std::string &sourceName,
                                           const ReadOptions &options)
{
    return readAndDemangle(bytes, sourceName, options, std::nullopt);
}

std::shared_ptr<const Profile> readProfileFile(const QString &path, const ReadOptions &options)
{
    return readFileThroughDoor(path, options, std::nullopt);
}

std::shared_ptr<const Profile> readPprof(std::string_view bytes, const std::string &sourceName,
                                         const ReadOptions &options)
{
    return readAndDemangle(bytes, sourceName, options, ProfileFormat::Pprof);
}

std::shared_ptr<const Profile> readPprofFile(const QString &path, const ReadOptions &options)
{
    return readFileThroughDoor(path, options, ProfileFormat::Pprof);
}

}   // namespace qflame
