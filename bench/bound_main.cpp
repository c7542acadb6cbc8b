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
// The sums and marks are checked against `qflame top`'s table (FlatTable), function by function. Each bound
// assumes the two cores share the work perfectly: max(inflate, (inflate + the pass) / 2), with no process start
// or exit, no checks, no waiting, and this process's memory warm (a new process faults its buffers in): a bound,
// not a forecast. bench/floor.sh runs it on r64.pb.zst after its runs, and the floor report prints it.
#include "formats/ProfileInput.h"
#include "io/Compression.h"
#include "io/InflatingStream.h"
#include "pprof/SampleWire.h"
#include "pprof/ShortVarints.h"
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

// What one pass adds to a function, side by side as the flat pass keeps it.
struct FunctionSums {
    int64_t cum = 0;
    uint32_t seenIn = 0;   // the last sample (from 1) that counted the function in cum
};

// The functions' sums of one pass: by function id. With `width` set (marks), also what pprof's inline marks
// need: each function's callers by call, exactly (a bit per caller function in the callee's row of `width`
// words), and the locations the samples passed, whose lines are the inlined calls.
struct Sums {
    std::vector<FunctionSums> byFunction;
    std::vector<int64_t> flat;
    bool inOrder = true;   // every sample's locations came before it
    size_t width = 0;
    std::vector<uint64_t> callers;
    std::vector<uint8_t> passed;   // by location index
};

// One pass over a profile's inflated bytes: each sample's ids and values decoded into buffers on the stack;
// with `sums`, value `type` added to the functions as pprof -top adds them (cum once per sample).
class Pass {
public:
    Pass(const std::string &bytes, size_t type, Sums *sums) : m_bytes(bytes), m_type(type), m_sums(sums) {}

    // False when the bytes are not of the shapes taken here (they are then no bound of anything).
    bool run()
    {
        const uint8_t *p = reinterpret_cast<const uint8_t *>(m_bytes.data());
        const uint8_t *const end = p + m_bytes.size();
        while (p < end) {
            uint64_t tag, size;
            if (!(p = wire::varint(p, end, tag)))
                return false;
            if ((tag & 7) == 0) {
                if (!(p = wire::varint(p, end, size)))
                    return false;
                continue;
            }
            if ((tag & 7) != 2 || !(p = wire::length(p, end, size)))
                return false;
            const uint8_t *const item = p;
            p += size;
            const uint64_t field = tag >> 3;
            if (field == 2 && !sample(item, p, end))
                return false;
            if (field == 4 && m_sums && !location(item, p))
                return false;
        }
        return true;
    }

    uint64_t entries() const { return m_entries; }

private:
    bool sample(const uint8_t *p, const uint8_t *end, const uint8_t *readable)
    {
        size_t n = 0, values = 0;
        uint32_t largest = 0;
        while (p < end) {
            const uint8_t tag = *p++;
            uint64_t size;
            if (tag == 0x08 || tag == 0x10) {   // one id or value alone (Go writes up to two so)
                uint64_t v;
                if (!(p = wire::varint(p, end, v)) || (tag == 0x08 ? n == kMaxIds || v == 0 || v > 0xffff
                                                                   : values == kMaxValues))
                    return false;
                if (tag == 0x08)
                    m_ids[n++] = uint16_t(v - 1);
                else
                    m_values[values++] = int64_t(v);
                continue;
            }
            if (tag != 0x0a && tag != 0x12 && tag != 0x1a)
                return false;   // fields real writers do not use
            if (!(p = wire::length(p, end, size)))
                return false;
            const uint8_t *q = p, *const fieldEnd = p + size;
            p = fieldEnd;
            if (tag == 0x0a) {
                while (q < fieldEnd && n < kMaxIds) {
                    if (fieldEnd - q >= 8 && readable - q >= 16 && kMaxIds - n >= 8)
                        n += wire::detail::shortIdsLessOne(q, fieldEnd, readable, m_ids + n, kMaxIds - n, largest);
                    uint64_t id;
                    if (q < fieldEnd) {
                        if (n == kMaxIds || !(q = wire::varint(q, fieldEnd, id)) || id == 0 || id > 0xffff)
                            return false;
                        m_ids[n++] = uint16_t(id - 1);
                    }
                }
                if (q < fieldEnd)
                    return false;
            } else if (tag == 0x12) {
                while (q < fieldEnd && values < kMaxValues) {
                    uint64_t v;
                    if (!(q = wire::varint(q, fieldEnd, v)))
                        return false;
                    m_values[values++] = int64_t(v);
                }
                if (q < fieldEnd)
                    return false;
            }
        }
        m_entries += n;
        if (m_sums && m_type < values && m_values[m_type] != 0) {
            if (m_sums->width)
                add<true>(n, m_values[m_type]);
            else
                add<false>(n, m_values[m_type]);
        }
        return true;
    }

    // As the flat pass adds (FlatSums.cpp): the arrays in locals, a location of one function read in one load,
    // and no branch on whether the sample has counted the function yet. kMarks: each call noted in the callee's
    // row, also without a branch.
    template <bool kMarks>
    void add(size_t n, int64_t v)
    {
        const uint32_t no = ++m_sampleNo;
        const LocationFunctions *const locs = m_locs.data();
        const uint32_t *const many = m_locFunctions.data();
        FunctionSums *const sums = m_sums->byFunction.data();
        const size_t known = m_locs.size(), width = m_sums->width;
        uint64_t *const callers = m_sums->callers.data();
        uint8_t *const passed = m_sums->passed.data();
        uint32_t caller = 0;
        bool atRoot = true;
        for (size_t k = n; k-- > 0;) {   // root first
            const uint16_t loc = m_ids[k];
            if (loc >= known) {
                m_sums->inOrder = false;   // a location not read yet
                return;
            }
            const LocationFunctions lf = locs[loc];
            const auto count = [&](uint32_t f) {
                FunctionSums &sum = sums[f];
                const int64_t add = v & -int64_t(sum.seenIn != no);   // no branch: recursion made it mispredicted
                sum.seenIn = no;
                sum.cum += add;
            };
            if constexpr (kMarks) {
                const uint32_t outer = lf.count == 1 ? lf.first : many[lf.first + lf.count - 1];
                callers[size_t(outer) * width + (caller >> 6)] |= uint64_t(!atRoot && caller != outer) << (caller & 63);
                passed[loc] = 1;
                caller = lf.count == 1 ? lf.first : many[lf.first];
                atRoot = false;
            }
            if (lf.count == 1) {
                count(lf.first);
                continue;
            }
            for (uint32_t i = lf.first; i < lf.first + lf.count; ++i)
                count(many[i]);
        }
        if (n > 0 && m_locs[m_ids[0]].count > 0) {   // the leaf: its location's innermost line
            const LocationFunctions lf = m_locs[m_ids[0]];
            m_sums->flat[lf.count == 1 ? lf.first : many[lf.first]] += v;
        }
    }

public:
    // pprof's inline mark of each function (FlatRow::Inline), from a pass with marks: an edge into a function
    // is inlined when none of its occurrences was a call; the mark says whether all of a function's edges in
    // were (Always) or some (Partly), for the functions inlined somewhere.
    std::vector<FlatRow::Inline> marks() const
    {
        const Sums &s = *m_sums;
        std::vector<uint8_t> inlineIn(s.byFunction.size(), 0);
        for (size_t l = 0; l < m_locs.size(); ++l) {
            const LocationFunctions lf = m_locs[l];
            if (!s.passed[l] || lf.count < 2)
                continue;
            for (uint32_t i = lf.first; i + 1 < lf.first + lf.count; ++i) {   // inner line i, its caller i + 1
                const uint32_t f = m_locFunctions[i], g = m_locFunctions[i + 1];
                if (f != g && !(s.callers[size_t(f) * s.width + (g >> 6)] >> (g & 63) & 1))
                    inlineIn[f] = 1;
            }
        }
        std::vector<FlatRow::Inline> out(s.byFunction.size(), FlatRow::Inline::No);
        for (size_t f = 0; f < out.size(); ++f) {
            if (!inlineIn[f])
                continue;
            bool called = false;
            for (size_t w = 0; w < s.width; ++w)
                called |= s.callers[f * s.width + w] != 0;
            out[f] = called ? FlatRow::Inline::Partly : FlatRow::Inline::Always;
        }
        return out;
    }

private:
    // A location's function ids, by its id: Go numbers them 1, 2, 3... in the order it writes them.
    bool location(const uint8_t *p, const uint8_t *end)
    {
        uint64_t id = 0;
        const size_t first = m_locFunctions.size();
        while (p < end) {
            uint64_t tag, v;
            if (!(p = wire::varint(p, end, tag)))
                return false;
            if ((tag & 7) == 0) {
                if (!(p = wire::varint(p, end, v)))
                    return false;
                if (tag >> 3 == 1)
                    id = v;
                continue;
            }
            if ((tag & 7) != 2 || !(p = wire::length(p, end, v)))
                return false;
            const uint8_t *const lineEnd = p + v;
            while (tag >> 3 == 4 && p < lineEnd) {   // a line: its function_id
                uint64_t lineTag, x;
                if (!(p = wire::varint(p, lineEnd, lineTag)) || (lineTag & 7) != 0 ||
                    !(p = wire::varint(p, lineEnd, x)))
                    return false;
                if (lineTag >> 3 == 1) {
                    if (x == 0 || x > kMaxFunctions)
                        return false;
                    m_locFunctions.push_back(uint32_t(x));
                }
            }
            p = lineEnd;
        }
        const uint32_t count = uint32_t(m_locFunctions.size() - first);
        if (id != m_locs.size() + 1 || count == 0)   // not numbered 1, 2, 3..., or no function to add to
            return false;
        m_locs.push_back({count == 1 ? m_locFunctions[first] : uint32_t(first), count});
        for (size_t i = first; i < m_locFunctions.size(); ++i)
            if (m_locFunctions[i] >= m_sums->byFunction.size()) {
                m_sums->byFunction.resize(m_locFunctions[i] + 1);
                m_sums->flat.resize(m_locFunctions[i] + 1, 0);
            }
        return true;
    }

    static constexpr size_t kMaxIds = 8192, kMaxValues = 64, kMaxFunctions = 1u << 24;
    const std::string &m_bytes;
    const size_t m_type;
    Sums *const m_sums;
    uint16_t m_ids[kMaxIds];
    int64_t m_values[kMaxValues];
    // By location index: its one function id, or where its function ids begin in m_locFunctions.
    struct LocationFunctions {
        uint32_t first, count;
    };
    std::vector<LocationFunctions> m_locs;
    std::vector<uint32_t> m_locFunctions;
    uint32_t m_sampleNo = 0;
    uint64_t m_entries = 0;
};

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
    std::vector<double> floor, inflate, decode, fused, fusedMarks;
    std::vector<FlatRow::Inline> marks;
    Sums sums;
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
            marks = withMarks.marks();
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
    return 0;
}
