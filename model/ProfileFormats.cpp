#include "ProfileFormats.h"

#include "FlamebearerFormat.h"
#include "FoldedFormat.h"


namespace qflame {

namespace {

std::string sizeLimitMessage(const std::string &what, uint64_t limit)
{
    return what + " is larger than the size limit of " + std::to_string(limit) + " bytes";
}

std::shared_ptr<const Profile> readText(ProfileFormat format, std::string_view text, const std::string &sourceName)
{
    if (format == ProfileFormat::Flamebearer)
        return readFlamebearer(text, sourceName);
    return readFolded(text, sourceName);
}

}   // namespace

const char *profileFormatName(ProfileFormat f)
{
    switch (f) {
    case ProfileFormat::Pprof: return "pprof";
    case ProfileFormat::Folded: return "folded";
    case ProfileFormat::Flamebearer: return "flamebearer";
    }
    return "pprof";
}

ProfileFormat sniffProfileFormat(std::string_view bytes)
{
    // A pprof message cannot start with '{' (field 15, wire type 3: a group, which proto3 has none of), and its
    // first bytes are binary tags and lengths, so text that parses as a folded line is never a real profile.
    if (looksLikeJsonObject(bytes))
        return ProfileFormat::Flamebearer;
    if (looksLikeFolded(bytes.substr(0, 64 * 1024)))
        return ProfileFormat::Folded;
    return ProfileFormat::Pprof;
}

std::shared_ptr<const Profile> readAnyProfile(std::string_view bytes, const std::string &sourceName,
                                              const ReadOptions &options)
{
    const Compression c = bytes.empty() ? Compression::None : sniffCompression(bytes);
    if (c == Compression::None) {
        const ProfileFormat format = sniffProfileFormat(bytes);
        if (format == ProfileFormat::Pprof)
            return readProfile(bytes, sourceName, options);
        if (bytes.size() > options.maxDecompressedBytes)
            throw ProfileError(sourceName + ": " + sizeLimitMessage("the input", options.maxDecompressedBytes));
        return readText(format, bytes, sourceName);
    }

    // Compressed: inflate once, then read what came out.
    std::string inflated;
    try {
        ProgressFn inflateProgress;
        if (options.progress)
            inflateProgress = [&](double f) { return options.progress(0.4 * f); };
        inflated = decompress(bytes, c, options.maxDecompressedBytes, inflateProgress);
    } catch (const ProfileError &e) {
        throw ProfileError(sourceName + ": " + e.what());
    }
    if (inflated.empty())
        return readProfile(bytes, sourceName, options);   // its message for empty archives
    const ProfileFormat format = sniffProfileFormat(inflated);
    if (format != ProfileFormat::Pprof)
        return readText(format, inflated, sourceName);
    ReadOptions rest = options;
    if (options.progress)
        rest.progress = [&](double f) { return options.progress(0.4 + 0.6 * f); };
    return readProfile(inflated, sourceName, rest);
}

std::shared_ptr<const Profile> readAnyProfileFile(const QString &path, const ReadOptions &options)
{
    std::string name;
    const QByteArray bytes = readInputBytes(path, options, &name);
    return readAnyProfile(std::string_view(bytes.constData(), size_t(bytes.size())), name, options);
}

}   // namespace qflame
