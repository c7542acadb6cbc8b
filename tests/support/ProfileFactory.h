// Small real pprof profiles for tests, written from folded stacks through the generated protobuf classes, so
// that they take the same road through readPprof as any file would.
#pragma once

#include "pprof/Profile.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace qflame::test {

struct FoldedProfile {
    // (type, unit) per sample type, in file order.
    std::vector<std::pair<std::string, std::string>> sampleTypes = {{"samples", "count"}};
    // One sample per line: frames root first, separated by ';', then one value per sample type, separated by
    // spaces: "main;a;b 10" or "main;a;b 3 30000000". A frame may be "name@file:line" to give it a source
    // line (it then differs from "name@file:other" at line granularity only). Empty lines are skipped.
    std::string folded;
    int64_t durationNanos = 0;
    int64_t period = 0;
    std::pair<std::string, std::string> periodType;   // ("", "") leaves it unset
};

// The uncompressed pprof bytes of the profile. Throws std::invalid_argument on a malformed line.
std::string pprofBytes(const FoldedProfile &spec);

// pprofBytes read back with readPprof.
std::shared_ptr<const Profile> profileFromFolded(const FoldedProfile &spec, const std::string &sourceName = "test");

// The common case: one sample type and nothing else.
std::shared_ptr<const Profile> profileFromFolded(const std::string &folded, const std::string &type = "samples",
                                                 const std::string &unit = "count",
                                                 const std::string &sourceName = "test");

// A real profile's samples dealt out among `parts` profiles, as if it had been recorded as `parts` consecutive
// profiles of equal duration: each sample's count (its samples/count value) is split at random (a multinomial
// draw, seeded) and its other values in proportion, so that the parts show the sampling spread of real
// observations. The profile must have a samples/count type.
std::vector<Profile> splitProfile(const Profile &profile, size_t parts, uint32_t seed);

// The bytes of a file; a test that cannot read its own fixture stops (qFatal).
std::string fileBytes(const QString &path);

// gzip (one member, level 6) of the bytes, as profilers write .pb.gz.
std::string gzipBytes(const std::string &raw);
// zlib's deflate with its windowBits (-15: raw deflate, 15 + 16: a gzip member) at `level`.
std::string deflateBytes(const std::string &raw, int windowBits, int level);

}   // namespace qflame::test
