#include "ProfileFormats.h"

#include "FlamebearerFormat.h"
#include "FoldedFormat.h"
#include "InflatingStream.h"

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

    // Compressed: the first inflated block tells the format; a pprof message is decoded while the rest is
    // still being inflated, text is inflated whole first.
    auto named = [&](auto step) {
        try {
            return step();
        } catch (const ProfileError &e) {
            throw ProfileError(sourceName + ": " + e.what());
        }
    };
    const auto in = named([&] { return startInflating(bytes, c, options); });
    const std::string_view head = in->peek();
    if (head.empty()) {
        named([&] { in->finish(); return 0; });
        return readProfile(bytes, sourceName, options);   // its message for empty archives
    }
    const ProfileFormat format = sniffProfileFormat(head);
    if (format == ProfileFormat::Pprof)
        return readInflatedProfile(*in, sourceName, options);
    const std::string inflated = named([&] { return in->readAll(); });
    return readText(format, inflated, sourceName);
}

std::shared_ptr<const Profile> readAnyProfileFile(const QString &path, const ReadOptions &options)
{
    std::string name;
    const QByteArray bytes = readInputBytes(path, options, &name);
    return readAnyProfile(std::string_view(bytes.constData(), size_t(bytes.size())), name, options);
}

}   // namespace qflame
