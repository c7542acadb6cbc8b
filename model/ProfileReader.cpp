// Reading pprof input: raw bytes are decoded in place, compressed ones while a second thread inflates them.
#include "ProfileReader.h"

#include "InflatingStream.h"
#include "PprofDecoder.h"

#include <QFile>

#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <algorithm>

namespace qflame {

namespace {

uint64_t streamCap(const ReadOptions &options)
{
    // CodedInputStream counts in int: beyond 2 GiB it stops with a log line instead of an answer.
    return std::min<uint64_t>(options.maxDecompressedBytes, INT32_MAX);
}

template <typename Body>
std::shared_ptr<const Profile> naming(const std::string &sourceName, Body body)
{
    try {
        std::shared_ptr<Profile> profile = body();
        profile->sourceName = sourceName;
        return profile;
    } catch (const ProfileError &e) {
        throw ProfileError(sourceName + ": " + e.what());
    } catch (const std::bad_alloc &) {
        throw ProfileError(sourceName + ": out of memory while decoding the profile");
    }
}

// Decodes, then reports a damaged compressed stream as such: when inflating failed, the parse merely saw the
// data end early, and its complaint is not the one to give.
std::shared_ptr<Profile> decodeInflated(InflatingStream &in, const ReadOptions &options)
{
    auto profile = std::make_shared<Profile>();
    try {
        decodePprof(in, std::min(in.sizeHint(), streamCap(options)), "decompressed data", *profile,
                    [&] { return !options.progress || options.progress(0.95 * in.progress()); });
    } catch (const ProfileError &) {
        in.finish();
        throw;
    }
    in.finish();
    return profile;
}

}   // namespace

std::unique_ptr<InflatingStream> startInflating(std::string_view bytes, Compression c, const ReadOptions &options)
{
    return std::make_unique<InflatingStream>(bytes, c, streamCap(options));
}

std::shared_ptr<const Profile> readInflatedProfile(InflatingStream &in, const std::string &sourceName,
                                                   const ReadOptions &options)
{
    return naming(sourceName, [&] { return decodeInflated(in, options); });
}

std::shared_ptr<const Profile> readProfile(std::string_view bytes, const std::string &sourceName,
                                           const ReadOptions &options)
{
    return naming(sourceName, [&] {
        if (bytes.empty())
            throw ProfileError("empty input: not a profile");
        const Compression c = sniffCompression(bytes);
        if (c != Compression::None) {
            InflatingStream in(bytes, c, streamCap(options));
            if (in.peek().empty()) {
                in.finish();
                throw ProfileError(std::string("empty input after ") + compressionName(c) + " decompression");
            }
            return decodeInflated(in, options);
        }
        if (bytes.size() > streamCap(options))
            throw ProfileError("the input is larger than the size limit of " + std::to_string(streamCap(options)) +
                               " bytes");
        google::protobuf::io::ArrayInputStream in(bytes.data(), int(bytes.size()));
        auto profile = std::make_shared<Profile>();
        decodePprof(in, bytes.size(), "data", *profile, [&] {
            return !options.progress || options.progress(0.95 * double(in.ByteCount()) / double(bytes.size()));
        });
        return profile;
    });
}

QByteArray readInputBytes(const QString &path, const ReadOptions &options, std::string *sourceName)
{
    QFile file;
    std::string name = path.toStdString();
    bool ok;
    if (path == QLatin1String("-")) {
        name = "<stdin>";
        ok = file.open(stdin, QIODevice::ReadOnly);
    } else {
        file.setFileName(path);
        ok = file.open(QIODevice::ReadOnly);
    }
    *sourceName = name;
    if (!ok)
        throw ProfileError(name + ": cannot open: " + file.errorString().toStdString());
    // Compressed input is at most ~1/1000 of its inflated size for real data; refusing files far over the cap
    // before reading them keeps a huge wrong file from being slurped into memory.
    if (file.size() > 0 && uint64_t(file.size()) > options.maxDecompressedBytes)
        throw ProfileError(name + ": the file is larger than the size limit of " +
                           std::to_string(options.maxDecompressedBytes) + " bytes");
    QByteArray bytes;
    if (file.isSequential()) {
        while (!file.atEnd()) {
            bytes += file.read(1 << 20);
            if (uint64_t(bytes.size()) > options.maxDecompressedBytes)
                throw ProfileError(name + ": the input is larger than the size limit of " +
                                   std::to_string(options.maxDecompressedBytes) + " bytes");
            if (file.error() != QFileDevice::NoError)
                break;
        }
    } else {
        bytes = file.readAll();
    }
    if (file.error() != QFileDevice::NoError)
        throw ProfileError(name + ": cannot read: " + file.errorString().toStdString());
    return bytes;
}

std::shared_ptr<const Profile> readProfileFile(const QString &path, const ReadOptions &options)
{
    std::string name;
    const QByteArray bytes = readInputBytes(path, options, &name);
    return readProfile(std::string_view(bytes.constData(), size_t(bytes.size())), name, options);
}

}   // namespace qflame
