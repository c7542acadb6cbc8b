// Deterministic synthetic pprof profiles for benchmarks, written through the protoc-generated classes.
//
// A profile is drawn from a made-up program: packages of functions placed in call layers, each function with a
// few call sites (line numbers, addresses), a call graph that descends the layers with some recursion, small
// functions inlined into their callers, and an allocation tail into the runtime. Each sample is a random walk
// down that graph, so stacks are deep (tens of frames, hundreds under recursion), hot paths repeat (callees
// are picked with Zipf weights) and the call tree grows like a real one: many nodes per function.
//
// The same seeds give the same bytes on any machine with this code: the generator uses its own random number
// generator and integer-only arithmetic for every choice.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace qflame::bench {

struct GeneratorOptions {
    // The program (functions, files, call graph): two profiles with the same program seed are two runs of one
    // program, as in a diff.
    uint64_t programSeed = 1;
    // The samples drawn from that program.
    uint64_t sampleSeed = 1;
    // Stop once the uncompressed profile reaches this many bytes (give or take one batch of samples).
    uint64_t targetBytes = 10u << 20;
    // When non-zero, stop instead once the function-granularity call tree of the default sample type has
    // this many nodes (checked after every sample), whatever the size.
    uint64_t targetNodes = 0;
    // Functions of the program; 0 picks a number that grows with targetBytes (or targetNodes), as bigger
    // profiles come from bigger programs.
    uint32_t functions = 0;
};

struct GeneratorStats {
    uint64_t bytes = 0;        // uncompressed
    uint64_t samples = 0;
    uint64_t locations = 0;
    uint64_t functions = 0;    // functions referenced by some location
    uint64_t treeNodes = 0;    // function-granularity call tree of the default type, root included
    uint32_t maxDepth = 0;     // frames of the deepest sample, inlined frames included
    double meanDepth = 0;
};

// Writes the uncompressed pprof bytes in pieces to `sink` (concatenated protobuf messages are one message).
GeneratorStats generateProfile(const GeneratorOptions &options, const std::function<void(std::string_view)> &sink);

// The whole uncompressed profile in memory.
std::string generateProfileBytes(const GeneratorOptions &options, GeneratorStats *stats = nullptr);

// Writes a gzip pprof file (compression level 6, like `go tool pprof -proto`). Throws std::runtime_error.
GeneratorStats writeGzipProfile(const GeneratorOptions &options, const std::string &path);

}   // namespace qflame::bench
