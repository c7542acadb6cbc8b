// qflame-bench-bound FILE [RUNS]: how fast `qflame top` could be on this machine at best, from what its parts
// cost alone (issue #31: a zstd profile in at most 1.0x `zstd -dc`). Each part runs RUNS times in one process,
// on one thread, the parts in turn in each round (this VM's speed moves by half from one minute to the next);
// medians:
// - the floor: `zstd -dc` (or `zcat`) as a whole process, output to /dev/null, as bench/floor.sh times it;
// - inflate: the file through the program's own streaming inflater (InflatingStream on the reading thread),
//   its blocks discarded;
// - decode: the samples' location ids and values from the inflated bytes, by the program's own varint readers
//   (SampleWire.h, ShortVarints.h), nothing kept and nothing checked: less than any real read does;
// - decode+sums: the same, with every sample's flat and cum added by function while it is decoded (what a
//   `top` that never keeps the samples would do). That needs each sample's locations and functions before it,
//   as the Go runtime writes them; other files say "n/a";
// - decode+sums+marks: the same, with each call noted by caller and callee (a bit per caller in the callee's
//   row), which pprof's "(inline)" and "(partial-inline)" marks need: the whole of what `top` prints.
// - three threads: the same work as a prototype of such a `top` would share it out, measured (BoundPipeline.h):
//   inflating on its thread, decoding into batches on this one, the sums and marks on a third.
// The sums and marks are checked against `qflame top`'s table (FlatTable), function by function. Each bound
// assumes the two cores share the work perfectly: max(inflate, (inflate + the pass) / 2), with no process start
// or exit, no checks, no waiting, and this process's memory warm (a new process faults its buffers in): a bound,
// not a forecast; the three threads say how far from it the work shared for real is. bench/floor.sh runs it on
// r64.pb.zst after its runs, and the floor report prints it.
#include "BoundPass.h"
#include "BoundPipeline.h"

#include "formats/ProfileInput.h"
#include "io/Compression.h"
#include "io/InflatingStream.h"
#include "tree/CallTreeBuilder.h"
#include "tree/FlatTable.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace qflame;
using namespace bound;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// Milliseconds from spawning `tool -dc file` (stdout to /dev/null) to its exit.
double timeProcess(const char *tool, const char *file)
{
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    char dc[] = "-dc";
    char *args[] = {const_cast<char *>(tool), dc, const_cast<char *>(file), nullptr};
    const auto t0 = Clock::now();
    pid_t pid;
    double ms = -1;
    if (posix_spawnp(&pid, tool, &actions, nullptr, args, environ) == 0) {
        int status;
        waitpid(pid, &status, 0);
        ms = msSince(t0);
    }
    posix_spawn_file_actions_destroy(&actions);
    return ms;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

// How many of the functions the table has a row for carry the same flat and cum as the fused pass found (and,
// given `marks`, the same inline mark); `rows` is the table's count of such functions.
size_t sameAsTable(const Profile &p, const FlatTable &table, const Sums &s, const std::vector<FlatRow::Inline> *marks,
                   size_t *rows)
{
    std::map<std::string, const FlatRow *, std::less<>> byName;
    for (size_t r = 0; r < table.rows().size(); ++r)
        byName[std::string(table.label(r))] = &table.rows()[r];
    *rows = byName.size();
    size_t same = 0;
    for (const Function &f : p.functions) {
        if (f.id >= s.byFunction.size() || (s.flat[f.id] == 0 && s.byFunction[f.id].cum == 0))
            continue;
        const auto it = byName.find(p.strings[f.name]);
        same += it != byName.end() && it->second->flat == s.flat[f.id] && it->second->cum == s.byFunction[f.id].cum &&
                (!marks || it->second->inlined == (*marks)[f.id]);
    }
    return same;
}

}   // namespace

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: qflame-bench-bound FILE [RUNS]\n");
        return 1;
    }
    const int runs = argc > 2 ? std::max(1, std::atoi(argv[2])) : 7;
    std::ifstream file(argv[1], std::ios::binary);
    if (!file.is_open()) {
        std::fprintf(stderr, "cannot open %s\n", argv[1]);
        return 1;
    }
    const std::string input{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
    const Compression c = sniffCompression(input);
    const uint64_t cap = uint64_t(1) << 34;
    std::string bytes;
    std::shared_ptr<const Profile> profile;
    try {
        bytes = c == Compression::None ? input : decompress(input, c, cap);
        ReadOptions options;
        options.sampleLabels = false;   // as `qflame top` reads
        profile = readProfileFile(std::string(argv[1]), options);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "%s: %s\n", argv[1], e.what());
        return 1;
    }
    const size_t type = size_t(profile->effectiveDefaultType());
    const char *const floorTool = c == Compression::Zstd ? "zstd" : c == Compression::Gzip ? "zcat" : nullptr;
    // The marks' rows: a bit per caller function in each callee's row, while that stays small.
    uint64_t functions = 0;
    for (const Function &f : profile->functions)
        functions = std::max(functions, f.id + 1);
    const size_t width = size_t(functions + 63) / 64;
    const bool withMarks = functions <= (uint64_t(1) << 20) && functions * width * 8 <= (uint64_t(256) << 20);
    std::vector<double> floor, inflate, decode, fused, fusedMarks, threads;
    std::vector<FlatRow::Inline> marks, threadMarks;
    Sums sums, piped;
    uint64_t entries = 0;
    bool taken = true;
    for (int r = 0; r < runs && taken; ++r) {
        if (floorTool) {
            floor.push_back(timeProcess(floorTool, argv[1]));
            const auto t0 = Clock::now();
            InflatingStream in(input, c, cap, InflatingStream::kDefaultBlockSize, InflatingStream::Threading::Reader);
            const void *data;
            int size;
            while (in.Next(&data, &size)) {
            }
            in.finish();
            inflate.push_back(msSince(t0));
        }
        Pass bare(bytes, type, nullptr);
        auto t0 = Clock::now();
        taken = bare.run();
        decode.push_back(msSince(t0));
        entries = bare.entries();
        sums = Sums();
        Pass withSums(bytes, type, &sums);
        t0 = Clock::now();
        taken = taken && withSums.run();
        fused.push_back(msSince(t0));
        if (withMarks && taken && sums.inOrder) {
            Sums marked;
            marked.width = width;
            marked.callers.assign(functions * width, 0);
            marked.passed.assign(profile->locations.size() + 1, 0);
            Pass withMarks(bytes, type, &marked);
            t0 = Clock::now();
            taken = withMarks.run();
            fusedMarks.push_back(msSince(t0));
            marks = marked.marks(withMarks.locations());
            piped = Sums();
            piped.width = width;
            piped.callers.assign(functions * width, 0);
            piped.passed.assign(profile->locations.size() + 1, 0);
            Locations locations;
            t0 = Clock::now();
            const bool ok = runPipeline(input, c, type, piped, locations);
            threads.push_back(msSince(t0));
            threadMarks = ok ? piped.marks(locations) : std::vector<FlatRow::Inline>();
        }
    }
    if (!taken) {
        std::printf("n/a: fields or locations this bound does not decode (unknown fields, locations without lines "
                    "or not numbered 1, 2, 3...)\n");
        return 0;
    }
    const double fl = median(floor), in = median(inflate), de = median(decode), fu = median(fused);
    if (floorTool)
        std::printf("%s %.1f ms (the whole process, output to /dev/null)\n",
                    c == Compression::Zstd ? "zstd -dc" : "zcat", fl);
    std::printf("inflate %.1f ms (one thread, the blocks discarded)\n", in);
    std::printf("decode %.1f ms (%llu location ids and the values, nothing kept)\n", de,
                static_cast<unsigned long long>(entries));
    if (!sums.inOrder) {
        std::printf("decode+sums n/a: samples come before their locations\n");
        return 0;
    }
    const auto table = FlatTable::compute({profile}, type, BuildOptions{});
    size_t rows = 0;
    size_t same = sameAsTable(*profile, *table, sums, nullptr, &rows);
    std::printf("decode+sums %.1f ms (flat and cum by function while decoding; %zu of the table's %zu functions "
                "alike)\n", fu, same, rows);
    const auto bound = [&](double work) {
        std::printf("bound %.1f ms: max(inflate, (inflate + that) / 2)", std::max(in, (in + work) / 2));
        if (floorTool)
            std::printf(", %.2fx %s", std::max(in, (in + work) / 2) / fl, c == Compression::Zstd ? "zstd -dc" : "zcat");
        std::printf("\n");
    };
    bound(fu);
    if (fusedMarks.empty()) {
        std::printf("decode+sums+marks n/a: %llu functions\n", static_cast<unsigned long long>(functions));
        return 0;
    }
    const double fm = median(fusedMarks);
    same = sameAsTable(*profile, *table, sums, &marks, &rows);
    std::printf("decode+sums+marks %.1f ms (each call noted by caller and callee, for pprof's inline marks; %zu of "
                "the table's %zu functions alike)\n", fm, same, rows);
    bound(fm);
    if (threadMarks.empty()) {
        std::printf("three threads n/a: a field the prototype does not take\n");
        return 0;
    }
    const double th = median(threads);
    same = sameAsTable(*profile, *table, piped, &threadMarks, &rows);
    std::printf("three threads %.1f ms (that work shared out for real: inflating, decoding into batches, the sums and "
                "marks; %zu of the table's %zu functions alike)", th, same, rows);
    if (floorTool)
        std::printf(", %.2fx %s", th / fl, c == Compression::Zstd ? "zstd -dc" : "zcat");
    std::printf("\n");
    return 0;
}
