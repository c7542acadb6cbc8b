// What fresh memory costs on this machine: the first write to each 4 KiB page, the same pages asked for in one
// call (MADV_POPULATE_WRITE, io/Prefault.h), and transparent huge pages (2 MiB, adviseHugePages). On this
// project's VM a 4 KiB page costs microseconds whoever asks for it, and a huge page little when the host still
// backs the memory it is made from (right after another process freed some) but much more after a pause
// (bench/floor-notes.md, session 41). bench/floor.sh runs it right after its runs and again after a pause.
// Usage: qflame-bench-page-cost [MiB per trial, default 16] [trials, default 9]. Prints medians.
#include "io/Prefault.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace {

#if defined(__linux__)
using Clock = std::chrono::steady_clock;
constexpr size_t kPage = 4096, kHuge = size_t(2) << 20;

enum class Kind { Touch4K, Populate4K, TouchHuge };

// Milliseconds to make `bytes` of fresh anonymous memory resident the way `kind` says, or -1 where the system
// refused a step (populateForWrite: no MADV_POPULATE_WRITE before Linux 5.14).
double trial(size_t bytes, Kind kind)
{
    void *mapped = mmap(nullptr, bytes + kHuge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED)
        return -1;
    char *p = reinterpret_cast<char *>((reinterpret_cast<uintptr_t>(mapped) + kHuge - 1) & ~(kHuge - 1));
    // The program's own calls (io/Prefault.h), so that this measures what it asks for.
    if (kind == Kind::TouchHuge)
        qflame::adviseHugePages(p, bytes);
    else
        madvise(p, bytes, MADV_NOHUGEPAGE);   // whatever the system's default for THP
    const Clock::time_point t0 = Clock::now();
    bool ok = true;
    if (kind == Kind::Populate4K)
        ok = qflame::populateForWrite(p, bytes);
    for (size_t i = 0; ok && i < bytes; i += kPage)
        static_cast<volatile char *>(p)[i] = 1;
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    munmap(mapped, bytes + kHuge);
    return ok ? ms : -1;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? -1 : v[v.size() / 2];
}
#endif

}   // namespace

int main(int argc, char **argv)
{
    const size_t mib = argc > 1 ? size_t(std::max(1, std::atoi(argv[1]))) : 16;
    const int trials = argc > 2 ? std::max(1, std::atoi(argv[2])) : 9;
#if defined(__linux__)
    const size_t bytes = mib << 20;
    std::vector<double> touch, populate, huge;
    // Interleaved, so that each kind sees the machine alike; huge pages first, so that after a pause they are
    // made from memory the host no longer backs, not from what the 4 KiB trials just freed.
    for (int t = 0; t < trials; ++t) {
        huge.push_back(trial(bytes, Kind::TouchHuge));
        touch.push_back(trial(bytes, Kind::Touch4K));
        populate.push_back(trial(bytes, Kind::Populate4K));
    }
    const double pages = double(bytes / kPage);
    const double mt = median(touch), mp = median(populate), mh = median(huge);
    std::printf("fresh memory, %zu MiB a trial, %d trials each, interleaved, medians:\n", mib, trials);
    std::printf("4 KiB pages, first write to each: %.1f us a page (%.2f ms/MiB)\n", mt * 1e3 / pages, mt / double(mib));
    if (mp >= 0)
        std::printf("4 KiB pages, asked for in one call (MADV_POPULATE_WRITE): %.1f us a page (%.2f ms/MiB)\n",
                    mp * 1e3 / pages, mp / double(mib));
    else
        std::printf("4 KiB pages, asked for in one call: not available (MADV_POPULATE_WRITE, Linux 5.14)\n");
    std::printf("2 MiB pages (MADV_HUGEPAGE), first write: %.3f ms/MiB\n", mh / double(mib));
#else
    (void)mib;
    (void)trials;
    std::printf("fresh memory: not measured on this system (Linux only)\n");
#endif
    return 0;
}
