// Profiles and call trees shared by the in-process benchmarks: made once per process from the generator, so
// every benchmark of a size measures the same data.
#pragma once

#include "pprof/Profile.h"
#include "ProfileGenerator.h"
#include "tree/CallTree.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace qflame::bench {

struct BenchProfile {
    std::string raw;    // uncompressed pprof
    std::string gzip;   // the same, gzip level 6
    std::shared_ptr<const Profile> profile;
    GeneratorStats stats;
};

// A generated profile of about `megabytes` MiB uncompressed (program seed 1, sample seed 1).
const BenchProfile &profileOfSize(uint64_t megabytes);
// A generated profile whose default-type call tree has `nodes` nodes; sample seeds 1 and 2 of one program
// are the two sides of the diff benchmark.
const BenchProfile &profileOfNodes(uint64_t nodes, uint64_t sampleSeed = 1);
// The default-type call tree of profileOfNodes.
std::shared_ptr<const CallTree> treeOfNodes(uint64_t nodes, uint64_t sampleSeed = 1);

// The shape of tests/support/ProfileFactory.cpp's big synthetic trees: a random tree of `nodes` nodes, every node a
// function of its own ("f<id>", one location each), one sample per leaf. Real profiles have far fewer
// functions than nodes; this is the worst case for everything that is per function.
const Profile &distinctFunctionProfile(uint64_t nodes);

std::string gzipBytes(std::string_view raw);

// Registers the BM_File_* stage benchmarks on the file named by QFLAME_BENCH_FILE, when it is set.
void registerFileBenchmarks();

}   // namespace qflame::bench
