// The profile `go build -pgo` reads, and nothing it does not: Go's PGO builds its call edges from the last two
// physical frames of each sample (pgo/PgoEdges.h), so a merged 20-minute export of deep stacks, labels and mappings
// shrinks to a fraction of its size and gives the compiler exactly the same edges.
//
// Kept: the sample types samples/count and cpu/nanoseconds (those present, in the input's order), the period and
// its type, time and duration, and per sample its last two locations with all their inline lines (address,
// function name, system name, file name, start line, line). Dropped: the frames above, labels, mappings, comments,
// keep/drop frames. Samples with equal kept locations are one sample with the values summed; samples whose kept
// values are all 0, or that have no locations, are dropped (the compiler skips them).
#pragma once

#include "pprof/Profile.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace qflame {

// The merged, trimmed profile. Throws ProfileError as computePgoEdges does (no PGO sample type; a file without
// the first file's type).
std::shared_ptr<Profile> trimForPgo(const std::vector<std::shared_ptr<const Profile>> &profiles);

struct PgoTrimmedFile {
    std::string gzipBytes;       // the trimmed profile as gzip'd pprof, ready to write
    std::string pprofBytes;      // the same uncompressed (for writers that compress themselves)
    size_t edges = 0;            // the named edges of the input, which the trimmed profile gives identically
};

// trimForPgo, encoded and gzip'd, and checked: the edge list of the bytes read back must equal the input's, else
// std::logic_error (a bug, never the input's fault).
PgoTrimmedFile encodeTrimmedForPgo(const std::vector<std::shared_ptr<const Profile>> &profiles);

}   // namespace qflame
