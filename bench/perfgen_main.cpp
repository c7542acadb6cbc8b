// qflame-bench-perfgen: writes a deterministic perf script of a long recording on several threads, for the
// one-hour benchmark of issue #35 (bench/timeline.sh): by default one hour at 1,000 Hz on 8 threads, 28.8 million
// records of cpu-clock, as `perf script -F comm,pid,tid,cpu,time,period,event,ip,sym,dso` prints them.
//
// The stacks are drawn from a synthetic server: 4 DSOs (the binary, libc, libstdc++, the kernel), 3,000 functions,
// 100,000 distinct stacks 4 to 8 frames deep (6 on average) from main or a thread's entry, each frame with its own
// ip, picked with a skew (a few hot stacks, a long tail) so that the call tree has the shape of a real one. Every
// 10 s thread 0 spends 200 ms in a garbage collector's stacks, and every minute all threads spend 2 s in a
// lock's slow path: stripes a heatmap should show. Times start 12,345 s after boot with up to 20 us of jitter.
//
//   qflame-bench-perfgen [--seconds N] [--hz N] [--threads N] [--no-time] [--seed S] OUT
//
// --no-time leaves the time field out (the same records, which the reader keeps no timeline for): the
// benchmark's "without times". Prints the records and bytes written.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

// xorshift64*: fast and deterministic across platforms (std::uniform_int_distribution is not).
struct Rng {
    uint64_t s;
    uint64_t next()
    {
        s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
        return s * 0x2545F4914F6CDD1Dull;
    }
    uint64_t below(uint64_t n) { return next() % n; }
    double unit() { return double(next() >> 11) / double(uint64_t(1) << 53); }
};

struct Function {
    std::string name, dso;
    uint64_t base;
};

// One frame line as perf prints it: tab, the ip right-aligned in 16, symbol+offset, (dso).
void frameLine(std::string &out, const Function &f, uint64_t offset)
{
    char buf[256];
    const int n = std::snprintf(buf, sizeof buf, "\t%16llx %s+0x%llx (%s)\n", (unsigned long long)(f.base + offset),
                                f.name.c_str(), (unsigned long long)offset, f.dso.c_str());
    out.append(buf, size_t(n));
}

// Appends "12345.678901: " (seconds and microseconds, as perf prints by default).
void timeField(std::string &out, uint64_t nanos)
{
    char buf[40];
    const int n = std::snprintf(buf, sizeof buf, "%llu.%06llu: ", (unsigned long long)(nanos / 1000000000),
                                (unsigned long long)(nanos % 1000000000 / 1000));
    out.append(buf, size_t(n));
}

}   // namespace

int main(int argc, char **argv)
{
    uint64_t seconds = 3600, hz = 1000, threads = 8, seed = 1;
    bool withTime = true;
    const char *path = nullptr;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto value = [&] { return i + 1 < argc ? std::strtoull(argv[++i], nullptr, 10) : 0ull; };
        if (a == "--seconds")
            seconds = value();
        else if (a == "--hz")
            hz = value();
        else if (a == "--threads")
            threads = value();
        else if (a == "--seed")
            seed = value();
        else if (a == "--no-time")
            withTime = false;
        else if (!a.empty() && a[0] != '-' && !path)
            path = argv[i];
        else {
            std::fprintf(stderr, "usage: qflame-bench-perfgen [--seconds N] [--hz N] [--threads N] [--no-time] "
                                 "[--seed S] OUT\n");
            return 2;
        }
    }
    if (!path || !seconds || !hz || !threads || threads > 1000) {
        std::fprintf(stderr, "qflame-bench-perfgen: give OUT and positive --seconds, --hz, --threads\n");
        return 2;
    }
    FILE *out = std::fopen(path, "wb");
    if (!out) {
        std::perror(path);
        return 1;
    }
    Rng rng{seed * 0x9E3779B97F4A7C15ull + 1};
    // The program: functions spread over the DSOs, the binary's the most.
    const char *dsos[] = {"/srv/bin/server", "/lib/libc.so.6", "/lib/libstdc++.so.6", "[kernel.kallsyms]"};
    const char *words[] = {"request", "parse", "json", "hash", "lookup", "encode", "write", "read", "buffer", "alloc",
                           "index", "query", "plan", "exec", "sort", "merge", "cache", "lock", "queue", "send"};
    std::vector<Function> fns;
    for (int k = 0; k < 3000; ++k) {
        const int d = k < 2200 ? 0 : k < 2600 ? 1 : k < 2800 ? 2 : 3;
        std::string name = d == 0 ? std::string(words[k % 20]) + "_" + words[(k / 20) % 20] + std::to_string(k)
                         : d == 1 ? "__libc_" + std::to_string(k)
                         : d == 2 ? "std::_fn" + std::to_string(k)
                                  : "k_fn" + std::to_string(k);
        fns.push_back({name, dsos[d], (d == 3 ? 0xffffffff81000000ull : 0x55d0c8a00000ull + (uint64_t(d) << 40)) +
                                        uint64_t(k) * 0x1000});
    }
    const auto stackText = [&](bool gc, bool lock) {
        std::string s;
        // Leaf first, as perf prints: a leaf in any DSO, callers in the binary, then the thread's entry.
        const size_t depth = 4 + rng.below(5);
        std::vector<size_t> frames;
        frames.push_back(gc ? 2000 + rng.below(40) : lock ? 2790 + rng.below(30) : rng.below(3000));
        for (size_t k = 1; k + 3 < depth; ++k) {
            // Callers: mostly a few hundred mid-level functions, so that stacks share prefixes.
            const double u = rng.unit();
            frames.push_back(gc ? 2040 + rng.below(100) : 200 + size_t(u * u * 800));
        }
        frames.push_back(gc ? 2150 : 100 + rng.below(4));   // the worker's loop, or the collector's
        frames.push_back(7);      // the thread's entry in the binary
        frames.push_back(2300);   // libc's start_thread
        for (size_t f : frames)
            frameLine(s, fns[f], 0x10 + rng.below(0x400));
        s += '\n';
        return s;
    };
    std::vector<std::string> pool, gcPool, lockPool;
    for (int k = 0; k < 100000; ++k)
        pool.push_back(stackText(false, false));
    for (int k = 0; k < 1000; ++k)
        gcPool.push_back(stackText(true, false));
    for (int k = 0; k < 2000; ++k)
        lockPool.push_back(stackText(false, true));
    const uint64_t stepNanos = 1000000000 / hz, origin = 12345ull * 1000000000;
    std::string buf;
    buf.reserve(8 << 20);
    uint64_t records = 0, bytes = 0;
    const uint64_t ticks = seconds * hz;
    for (uint64_t tick = 0; tick < ticks; ++tick) {
        const uint64_t at = tick * stepNanos;
        for (uint64_t th = 0; th < threads; ++th) {
            const uint64_t nanos = origin + at + th * (stepNanos / threads) + rng.below(20000);
            const uint64_t inSecond = at % 10000000000ull, inMinute = at % 60000000000ull;
            const bool gc = th == 0 && inSecond < 200000000;
            const bool lock = inMinute >= 30000000000ull && inMinute < 32000000000ull && rng.below(2) == 0;
            char head[96];
            const int n = std::snprintf(head, sizeof head, "server %d/%d [%03d] ", 4242, int(4242 + th), int(th % 2));
            buf.append(head, size_t(n));
            if (withTime)
                timeField(buf, nanos);
            buf += "   1000000 cpu-clock:\n";
            // A skewed pick: u^3 puts most records on a few hundred stacks.
            const double u = rng.unit();
            const std::vector<std::string> &from = gc ? gcPool : lock ? lockPool : pool;
            buf += from[size_t(u * u * u * double(from.size()))];
            ++records;
            if (buf.size() >= (8u << 20) - 4096) {
                bytes += buf.size();
                if (std::fwrite(buf.data(), 1, buf.size(), out) != buf.size()) {
                    std::perror(path);
                    return 1;
                }
                buf.clear();
            }
        }
    }
    bytes += buf.size();
    if (std::fwrite(buf.data(), 1, buf.size(), out) != buf.size() || std::fclose(out) != 0) {
        std::perror(path);
        return 1;
    }
    std::printf("%llu records, %llu bytes\n", (unsigned long long)records, (unsigned long long)bytes);
    return 0;
}
