// Writes pprof: a whole profile back to protobuf (whatever format it was read from), or a call tree as a profile
// whose tree is the same. Compressed with gzip, as pprof itself writes and every pprof reader accepts.
#pragma once

#include "pprof/Profile.h"
#include "tree/CallTree.h"

#include <string>
#include <string_view>

namespace qflame {

// Every field qflame keeps: sample types, samples with their values and labels, locations, lines, functions,
// mappings, period, time, duration, comments, drop/keep frames, the default sample type, with the file's ids.
// Uncompressed protobuf bytes.
std::string encodePprof(const Profile &profile);

// One sample per node with a non-zero self value, its stack the node's path: reading the result back at the
// tree's granularity gives a tree with the same nodes, totals and self values. Each frame becomes one location
// carrying what identifies it at that granularity (function name, file and line, address, object file), so labels
// come back equal. One sample type, the tree's; its duration. Which calls were inlined is not kept.
std::string encodePprof(const CallTree &tree);

// gzip (RFC 1952) through zlib at its default level.
std::string gzipCompress(std::string_view bytes);

}   // namespace qflame
