// qflame-bench-firstlook FILE [RUNS] [DIVISOR]: a first look's phases in one process (read once): the build's
// cursors, the first look, its layout; RUNS times, milliseconds each, and the first look's node count.
#include "formats/ProfileInput.h"
#include "io/Prefault.h"
#include "layout/FlameLayout.h"
#include "tree/StagedTree.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include <sys/resource.h>

using namespace qflame;

namespace {

// The process's minor page faults so far: a first run touches fresh memory, which on this project's VM costs
// 17-22 us a page; later runs reuse what the first freed.
long minorFaults()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_minflt;
}

}   // namespace

int main(int argc, char **argv)
{
    // The window's heap (app/main_gui.cpp): one arena on huge pages, where the first look's arrays reuse what the
    // read freed. Without it this bench's first look took fresh 4 KiB pages and ran under other conditions than the
    // window's (its first run 1,630 page faults against the window's 5-12; a first form of tree/StackLevels, its
    // own 3 MB array written beside the walk, measured 14-19 ms slower here and 3-5 ms faster on the window's
    // heap: bench/floor-notes.md, session 44).
    windowHeap(size_t(256) << 20);
    if (argc < 2) {
        std::fprintf(stderr, "usage: qflame-bench-firstlook FILE [RUNS] [DIVISOR]\n");
        return 1;
    }
    const int runs = argc > 2 ? std::atoi(argv[2]) : 5;
    const int64_t divisor = argc > 3 ? std::atoll(argv[3]) : StagedTreeBuild::kCullDivisor;
    const bool inverted = std::getenv("INVERTED") != nullptr;
    auto profile = readProfileFile(std::string(argv[1]));
    using Clock = std::chrono::steady_clock;
    const auto ms = [](Clock::time_point a, Clock::time_point b) {
        return std::chrono::duration<double, std::milli>(b - a).count();
    };
    for (int r = 0; r < runs; ++r) {
        BuildOptions options;
        options.filters.inverted = inverted;
        const long faults0 = minorFaults();
        const auto t0 = Clock::now();
        StagedTreeBuild staged({profile}, size_t(profile->effectiveDefaultType()), options, divisor);
        const auto t1 = Clock::now();
        auto look = staged.firstLook();
        const auto t2 = Clock::now();
        const long faults = minorFaults() - faults0;
        FlameLayout layout(*look);
        const auto t3 = Clock::now();
        std::printf("cursors %.1f ms, first look %.1f ms (%zu nodes, %ld page faults), layout %.1f ms\n", ms(t0, t1),
                    ms(t1, t2), look->size(), faults, ms(t2, t3));
    }
    return 0;
}
