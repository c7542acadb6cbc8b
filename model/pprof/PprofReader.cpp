#include "pprof/PprofReader.h"

#include "io/InflatingStream.h"
#include "pprof/PprofDecoder.h"

#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <algorithm>

namespace qflame {

namespace {

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

}   // namespace

uint64_t pprofSizeCap(const ReadOptions &options)
{
    return std::min<uint64_t>(options.maxDecompressedBytes, INT32_MAX);
}

std::shared_ptr<const Profile> readPprofBytes(std::string_view raw, const std::string &sourceName,
                                              const ReadOptions &options)
{
    return naming(sourceName, [&] {
        google::protobuf::io::ArrayInputStream in(raw.data(), int(raw.size()));
        auto profile = std::make_shared<Profile>();
        decodePprof(in, raw.size(), "data", *profile, [&] {
            return !options.progress || options.progress(0.95 * double(in.ByteCount()) / double(raw.size()));
        }, options);
        return profile;
    });
}

std::shared_ptr<const Profile> readPprofInflating(InflatingStream &in, const std::string &sourceName,
                                                  const ReadOptions &options)
{
    return naming(sourceName, [&] {
        auto profile = std::make_shared<Profile>();
        try {
            const uint64_t cap = pprofSizeCap(options);
            decodePprof(in, std::function<uint64_t()>([&] { return std::min(in.sizeEstimate(), cap); }),
                        "decompressed data", *profile,
                        [&] { return !options.progress || options.progress(0.95 * in.progress()); }, options);
        } catch (const ProfileError &) {
            in.finish();
            throw;
        }
        in.finish();
        return profile;
    });
}

}   // namespace qflame
