// How long a helper thread takes to begin while its creator stays busy (io/HelperThread.h): a plain std::thread
// against one from startHelperThread, interleaved. Prints one line per kind: median and 90th percentile in
// microseconds, and in how many trials the helper began on a CPU other than its creator's. bench/floor.sh runs it.
#include "io/HelperThread.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <sched.h>
#include <unistd.h>
#endif

namespace {

using Clock = std::chrono::steady_clock;

struct Trial {
    double micros;
    bool elsewhere;
};

// Starts one helper and spins until it has begun (at most 50 ms), as a thread with work of its own would not wait.
template <typename Start>
Trial once(Start start)
{
#if defined(__linux__)
    const int here = sched_getcpu();
#else
    const int here = 0;
#endif
    std::atomic<int64_t> begunAt{0};
    std::atomic<int> cpu{-1};
    const Clock::time_point t0 = Clock::now();
    std::thread t = start([&] {
#if defined(__linux__)
        cpu = sched_getcpu();
#endif
        begunAt = (Clock::now() - t0).count();
    });
    while (begunAt.load() == 0 && Clock::now() - t0 < std::chrono::milliseconds(50)) {
    }
    t.join();
    return {double(begunAt.load()) / 1e3, cpu.load() != here};
}

void report(const char *kind, std::vector<Trial> trials)
{
    std::sort(trials.begin(), trials.end(), [](const Trial &a, const Trial &b) { return a.micros < b.micros; });
    const size_t n = trials.size();
    const size_t elsewhere = size_t(std::count_if(trials.begin(), trials.end(), [](const Trial &t) { return t.elsewhere; }));
    std::printf("%s: median %.0f us, p90 %.0f us, max %.0f us, began on another CPU in %zu of %zu\n", kind,
                trials[n / 2].micros, trials[n * 9 / 10].micros, trials.back().micros, elsewhere, n);
}

}   // namespace

int main(int argc, char **argv)
{
    const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 50;
    std::vector<Trial> plain, placed;
    for (int i = 0; i < runs; ++i) {
        plain.push_back(once([](auto body) { return std::thread(body); }));
        std::this_thread::sleep_for(std::chrono::milliseconds(5));   // both CPUs idle again
        placed.push_back(once([](auto body) { return qflame::startHelperThread(body); }));
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    std::printf("%d trials each, interleaved, creator busy until the helper begins\n", runs);
    report("std::thread", plain);
    report("startHelperThread", placed);
    return 0;
}
