// The model's stages, one benchmark each: inflate, decode, tree build, flat table, diff.
#include "BenchTrees.h"

#include "diff/DiffTable.h"
#include "diff/DiffTree.h"
#include "formats/ProfileInput.h"
#include "profile.pb.h"
#include "tree/CallTreeBuilder.h"
#include "tree/FlatTable.h"

#include <benchmark/benchmark.h>

#include <google/protobuf/arena.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

namespace qflame::bench {

namespace {

constexpr uint64_t kSizes[] = {10, 100};   // MiB uncompressed; bench/run.sh times the 500 MiB file whole-process
constexpr uint64_t kNodes[] = {10000, 100000, 1000000};

void setCounters(benchmark::State &state, const GeneratorStats &s)
{
    state.counters["samples"] = double(s.samples);
    state.counters["tree_nodes"] = double(s.treeNodes);
}

// gzip inflation alone: the floor under loading a .pb.gz.
void BM_Inflate(benchmark::State &state)
{
    const BenchProfile &p = profileOfSize(uint64_t(state.range(0)));
    for (auto _ : state)
        benchmark::DoNotOptimize(decompress(p.gzip, Compression::Gzip, uint64_t(1) << 32));
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(p.raw.size()));
}

// readPprof on the gzip bytes: inflate, protobuf parse, validation and conversion. MB/s of pprof. Wall time:
// a second thread inflates while the caller parses.
void BM_DecodeGzip(benchmark::State &state)
{
    const BenchProfile &p = profileOfSize(uint64_t(state.range(0)));
    for (auto _ : state)
        benchmark::DoNotOptimize(readPprof(p.gzip, "bench"));
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(p.raw.size()));
    setCounters(state, p.stats);
}

// readPprof on uncompressed bytes: parse and conversion only.
void BM_DecodeRaw(benchmark::State &state)
{
    const BenchProfile &p = profileOfSize(uint64_t(state.range(0)));
    for (auto _ : state)
        benchmark::DoNotOptimize(readPprof(p.raw, "bench"));
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(p.raw.size()));
}

// CallTreeBuilder on a decoded profile: items are tree nodes, so items/s is nodes/s.
void BM_BuildTree(benchmark::State &state)
{
    const BenchProfile &p = profileOfNodes(uint64_t(state.range(0)));
    const size_t type = size_t(p.profile->effectiveDefaultType());
    size_t nodes = 0;
    for (auto _ : state) {
        auto tree = CallTreeBuilder::build({p.profile}, type);
        nodes = tree->size();
        benchmark::DoNotOptimize(tree);
    }
    state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(nodes));
    setCounters(state, p.stats);
}

void BM_FlatTable(benchmark::State &state)
{
    const auto tree = treeOfNodes(uint64_t(state.range(0)));
    for (auto _ : state)
        benchmark::DoNotOptimize(FlatTable::compute(tree));
    state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(tree->size()));
}

// The worst case for per-function work: every node a function of its own (see BenchTrees.h).
void BM_BuildTreeDistinctFunctions(benchmark::State &state)
{
    const Profile &p = distinctFunctionProfile(uint64_t(state.range(0)));
    const std::shared_ptr<const Profile> shared(std::shared_ptr<const Profile>(), &p);   // not owned
    size_t nodes = 0;
    for (auto _ : state) {
        auto tree = CallTreeBuilder::build({shared}, 0);
        nodes = tree->size();
        benchmark::DoNotOptimize(tree);
    }
    state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(nodes));
}

void BM_FlatTableDistinctFunctions(benchmark::State &state)
{
    const Profile &p = distinctFunctionProfile(uint64_t(state.range(0)));
    const std::shared_ptr<const Profile> shared(std::shared_ptr<const Profile>(), &p);
    const auto tree = CallTreeBuilder::build({shared}, 0);
    for (auto _ : state)
        benchmark::DoNotOptimize(FlatTable::compute(tree));
    state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(tree->size()));
}

// Two runs of one program (sample seeds 1 and 2), each side's trees built beforehand as a document holds them.
const DiffSide &diffSide(uint64_t nodes, uint64_t seed)
{
    static std::map<std::pair<uint64_t, uint64_t>, DiffSide> cache;
    auto it = cache.find({nodes, seed});
    if (it == cache.end()) {
        const BenchProfile &p = profileOfNodes(nodes, seed);
        it = cache.emplace(std::pair{nodes, seed},
                           DiffSide::fromProfiles({p.profile}, size_t(p.profile->effectiveDefaultType()))).first;
    }
    return it->second;
}

void BM_DiffTree(benchmark::State &state)
{
    const uint64_t nodes = uint64_t(state.range(0));
    const DiffSide &before = diffSide(nodes, 1), &after = diffSide(nodes, 2);
    size_t size = 0;
    for (auto _ : state) {
        auto diff = DiffTree::build(before, after);
        size = diff->size();
        benchmark::DoNotOptimize(diff);
    }
    state.counters["union_nodes"] = double(size);
    state.counters["before_nodes"] = double(before.tree->size());
    state.counters["after_nodes"] = double(after.tree->size());
}

void BM_DiffTable(benchmark::State &state)
{
    const uint64_t nodes = uint64_t(state.range(0));
    const auto diff = DiffTree::build(diffSide(nodes, 1), diffSide(nodes, 2));
    for (auto _ : state)
        benchmark::DoNotOptimize(DiffTable::compute(diff));
    state.counters["union_nodes"] = double(diff->size());
}

void sizes(benchmark::internal::Benchmark *b)
{
    for (uint64_t s : kSizes)
        b->Arg(int64_t(s));
    b->Unit(benchmark::kMillisecond);
}

void nodes(benchmark::internal::Benchmark *b)
{
    for (uint64_t n : kNodes)
        b->Arg(int64_t(n));
    b->Unit(benchmark::kMillisecond);
}

}   // namespace

// Where the time of `qflame top FILE` goes on one real file (QFLAME_BENCH_FILE; bench/run.sh passes the largest
// corpus profile): inflation, the protobuf parse alone, parse with conversion, tree build, flat table.
void registerFileBenchmarks()
{
    const char *path = getenv("QFLAME_BENCH_FILE");
    if (!path || !*path)
        return;
    struct File {
        std::string bytes, raw;
        std::shared_ptr<const Profile> profile;
        size_t type = 0;
        std::shared_ptr<const CallTree> tree;
    };
    static File f;
    std::ifstream in(path, std::ios::binary);
    std::ostringstream all;
    all << in.rdbuf();
    f.bytes = all.str();
    f.raw = decompress(f.bytes, sniffCompression(f.bytes), uint64_t(1) << 32);
    f.profile = readPprof(f.raw, path);
    f.type = size_t(f.profile->effectiveDefaultType());
    f.tree = CallTreeBuilder::build({f.profile}, f.type);
    const auto bytes = [](benchmark::State &state) {
        state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(f.raw.size()));
    };
    benchmark::RegisterBenchmark("BM_File_Inflate", [bytes](benchmark::State &state) {
        for (auto _ : state)
            benchmark::DoNotOptimize(decompress(f.bytes, sniffCompression(f.bytes), uint64_t(1) << 32));
        bytes(state);
    })->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("BM_File_ProtobufParse", [bytes](benchmark::State &state) {
        for (auto _ : state) {   // the whole message on an arena, as the reader did before it streamed samples
            google::protobuf::ArenaOptions options;
            options.start_block_size = 64 * 1024;
            options.max_block_size = 8 * 1024 * 1024;
            google::protobuf::Arena arena(options);
            auto *m = google::protobuf::Arena::CreateMessage<perftools::profiles::Profile>(&arena);
            benchmark::DoNotOptimize(m->ParseFromArray(f.raw.data(), int(f.raw.size())));
        }
        bytes(state);
    })->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("BM_File_DecodeRaw", [bytes](benchmark::State &state) {
        for (auto _ : state)
            benchmark::DoNotOptimize(readPprof(f.raw, "bench"));
        bytes(state);
    })->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("BM_File_DecodeGzip", [bytes](benchmark::State &state) {
        for (auto _ : state)
            benchmark::DoNotOptimize(readPprof(f.bytes, "bench"));
        bytes(state);
    })->Unit(benchmark::kMillisecond)->UseRealTime();
    benchmark::RegisterBenchmark("BM_File_BuildTree", [](benchmark::State &state) {
        for (auto _ : state)
            benchmark::DoNotOptimize(CallTreeBuilder::build({f.profile}, f.type));
        state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(f.tree->size()));
        state.counters["tree_nodes"] = double(f.tree->size());
    })->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("BM_File_FlatTable", [](benchmark::State &state) {
        for (auto _ : state)
            benchmark::DoNotOptimize(FlatTable::compute(f.tree));
        state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(f.tree->size()));
    })->Unit(benchmark::kMillisecond);
    // What `qflame top` does after decoding: the flat table straight from the samples (two threads).
    benchmark::RegisterBenchmark("BM_File_FlatTableFromSamples", [](benchmark::State &state) {
        for (auto _ : state)
            benchmark::DoNotOptimize(FlatTable::compute({f.profile}, f.type, BuildOptions()));
        state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(f.profile->sampleCount()));
        state.counters["samples"] = double(f.profile->sampleCount());
    })->Unit(benchmark::kMillisecond)->UseRealTime();
}

BENCHMARK(BM_Inflate)->Apply(sizes);
BENCHMARK(BM_DecodeGzip)->Apply(sizes)->UseRealTime();
BENCHMARK(BM_DecodeRaw)->Apply(sizes);
BENCHMARK(BM_BuildTree)->Apply(nodes);
BENCHMARK(BM_FlatTable)->Apply(nodes);
BENCHMARK(BM_BuildTreeDistinctFunctions)->Apply(nodes);
BENCHMARK(BM_FlatTableDistinctFunctions)->Apply(nodes);
BENCHMARK(BM_DiffTree)->Arg(1000000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DiffTable)->Arg(1000000)->Unit(benchmark::kMillisecond);

}   // namespace qflame::bench
