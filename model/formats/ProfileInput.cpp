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
#include "time/TimeRange.h"
#include "time/TimelineLabels.h"

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

// pprof, with the samples' times where their labels carry them (time/TimelineLabels.h).
std::shared_ptr<const Profile> withLabelTimes(std::shared_ptr<const Profile> profile)
{
    if (auto timeline = timelineFromLabels(*profile))
        std::const_pointer_cast<Profile>(profile)->timeline = std::move(timeline);   // no one else holds it yet
    return profile;
}

std::shared_ptr<const Profile> readTimedPprofBytes(std::string_view raw, const std::string &sourceName,
                                                   const ReadOptions &options)
{
    return withLabelTimes(readPprofBytes(raw, sourceName, options));
}

std::shared_ptr<const Profile> readTimedPprofInflating(InflatingStream &in, const std::string &sourceName,
                                                       const ReadOptions &options)
{
    return withLabelTimes(readPprofInflating(in, sourceName, options));
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

// What a reader said, without the source name it begins with.
std::string reasonOf(const ProfileError &e, const std::string &sourceName)
{
    std::string_view what = e.what();
    if (what.substr(0, sourceName.size() + 2) == sourceName + ": ")
        what.remove_prefix(sourceName.size() + 2);
    return std::string(what);
}

// Text, not binary: no control characters but tabs and line ends in its first 4 KiB.
bool looksLikeText(std::string_view head)
{
    for (char c : head.substr(0, 4096))
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r')
            return false;
    return true;
}

// When no reader recognised the input (pprof, the last resort, refused it too) or a JSON object was none of the
// JSON formats: which formats were tried, and why the closest one failed, in one line.
ProfileError noFormatMatched(std::string_view head, const std::string &sourceName, ProfileFormat reader,
                             const ProfileError &refusal)
{
    const std::string why = reasonOf(refusal, sourceName);
    if (reader == ProfileFormat::Pprof && why.rfind("not a pprof profile", 0) != 0)
        return refusal;   // a pprof message, malformed: pprof's own error says what is wrong
    if (reader == ProfileFormat::Flamebearer)
        return ProfileError(why.rfind("not flamebearer JSON", 0) == 0
                                ? sourceName + ": JSON, but neither speedscope, .cpuprofile nor flamebearer: " + why
                                : std::string(refusal.what()));
    const size_t first = head.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && head[first] == '[')
        return ProfileError(sourceName + ": a JSON array, but speedscope, .cpuprofile and flamebearer files are JSON "
                                         "objects (and pprof is binary: " + why + ")");
    if (looksLikeText(head)) {
        // The closest text format is folded stacks' "frames COUNT"; its reader names the first line that is not.
        std::string folded;
        try {
            // Up to the first line that is neither blank nor a '#' comment: the one folded's test refused.
            size_t end = 0;
            for (size_t at = 0; at < head.size(); at = end + 1) {
                end = std::min(head.find('\n', at), head.size());
                const size_t text = head.find_first_not_of(" \t\r", at);
                if (text < end && head[text] != '#')
                    break;
            }
            readFolded(head.substr(0, std::min(end + 1, head.size())), sourceName);
        } catch (const ProfileError &e) {
            folded = reasonOf(e, sourceName);
        }
        return ProfileError(sourceName + ": text, but none of the text formats (tried legacy pprof, perf script, "
                                         "folded stacks); as folded stacks: " + folded);
    }
    return ProfileError(sourceName + ": no format matches (tried legacy pprof's binary CPU profile, then pprof, the "
                                     "closest); " + why);
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

// `file`, where given, holds `bytes` and may still have to read the rest of them (InputBytes::readRest).
std::shared_ptr<const Profile> readThroughDoor(std::string_view bytes, const std::string &sourceName,
                                               const ReadOptions &options, std::optional<ProfileFormat> only,
                                               InputBytes *file)
{
    const uint64_t cap = inputSizeCap(options);
    if (bytes.empty())
        throw ProfileError(sourceName + ": empty input: not a profile");
    const Compression c = sniffCompression(bytes);
    auto readAll = [&] {
        if (file) {
            file->readRest();
            bytes = file->view();
        }
    };
    try {
        if (c == Compression::None) {
            readAll();
            const FormatReader &reader = only ? readerFor(*only) : sniffReader(bytes);
            // pprof's protobuf streams count in int, so it stops at 2 GiB (the cap); the text and JSON readers
            // take what --max-size allows: an hour of perf script on 8 threads at 1 kHz is 11 GB (issue #35).
            const uint64_t limit = reader.format == ProfileFormat::Pprof ? cap : options.maxDecompressedBytes;
            if (bytes.size() > limit)
                throw ProfileError(sourceName + ": " + sizeLimitMessage(limit));
            try {
                return reader.readBytes(bytes, sourceName, options);
            } catch (const ProfileError &e) {
                if (only || (reader.format != ProfileFormat::Pprof && reader.format != ProfileFormat::Flamebearer))
                    throw;
                throw noFormatMatched(bytes.substr(0, 64 * 1024), sourceName, reader.format, e);
            }
        }
        // Compressed: the first inflated block tells the format. A streaming reader (pprof) decodes while the
        // rest is still being inflated; the others get the whole inflated text, which the cap bounds.
        const auto in = named(sourceName, [&] {
            return std::make_unique<InflatingStream>(bytes, c, cap, InflatingStream::kDefaultBlockSize,
                                                     InflatingStream::Threading::Auto, defaultGzipLibrary(),
                                                     file ? file->arrival() : nullptr);
        });
        readAll();   // the rest of the file, while its beginning inflates
        const std::string_view head = in->peek();
        if (head.empty()) {
            named(sourceName, [&] { in->finish(); return 0; });
            throw ProfileError(sourceName + ": empty input after " + compressionName(c) + " decompression");
        }
        const FormatReader &reader = only ? readerFor(*only) : sniffReader(head);
        const std::string firstBlock(head.substr(0, 64 * 1024));   // for the message when nothing matches
        try {
            if (reader.readInflating)
                return reader.readInflating(*in, sourceName, options);
            const std::string inflated = named(sourceName, [&] { return in->readAll(); });
            return reader.readBytes(inflated, sourceName, options);
        } catch (const ProfileError &e) {
            if (only || (reader.format != ProfileFormat::Pprof && reader.format != ProfileFormat::Flamebearer))
                throw;
            throw noFormatMatched(firstBlock, sourceName, reader.format, e);
        }
    } catch (const std::bad_alloc &) {
        throw ProfileError(sourceName + ": out of memory while reading the profile");
    }
}

// Names are made readable after the reader, for every format alike (readers keep names exactly as they arrive),
// then their template arguments collapsed when asked.
std::shared_ptr<const Profile> readAndDemangle(std::string_view bytes, const std::string &sourceName,
                                               const ReadOptions &options, std::optional<ProfileFormat> only,
                                               InputBytes *file = nullptr)
{
    std::shared_ptr<const Profile> read;
    try {
        read = readThroughDoor(bytes, sourceName, options, only, file);
    } catch (const SampleLabelsNeeded &) {   // labels dropped, one of them bad: again with them, for its error
        ReadOptions withLabels = options;
        withLabels.sampleLabels = true;
        if (file)
            file->readRest();
        read = readThroughDoor(file ? file->view() : bytes, sourceName, withLabels, only, nullptr);
    }
    auto profile = demangleProfile(cutToTimeOptions(std::move(read), options.timeFrom, options.timeTo),
                                   options.demangle);
    return options.collapseTemplates ? collapseTemplates(std::move(profile)) : profile;
}

std::shared_ptr<const Profile> readFileThroughDoor(const std::string &path, const ReadOptions &options,
                                                   std::optional<ProfileFormat> only)
{
    std::string name;
    InputBytes bytes = readInputBytes(path, options, &name);
    return readAndDemangle(bytes.view(), name, options, only, &bytes);
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
        {ProfileFormat::Pprof, nullptr, readTimedPprofBytes, readTimedPprofInflating},
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

std::shared_ptr<const Profile> readProfileFile(const std::string &path, const ReadOptions &options)
{
    return readFileThroughDoor(path, options, std::nullopt);
}

std::shared_ptr<const Profile> readPprof(std::string_view bytes, const std::string &sourceName,
                                         const ReadOptions &options)
{
    return readAndDemangle(bytes, sourceName, options, ProfileFormat::Pprof);
}

std::shared_ptr<const Profile> readPprofFile(const std::string &path, const ReadOptions &options)
{
    return readFileThroughDoor(path, options, ProfileFormat::Pprof);
}

}   // namespace qflame
