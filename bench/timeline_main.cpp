// qflame-bench-timeline: what the Time tab computes once a file is loaded (issue #35), timed in one process:
// reading the file (with its timeline), the heatmap of the default sample type in 1 s columns of 50 rows, the
// heatmap of one thread, and the profile of one minute. Prints one "name seconds" line each, then the timeline's
// size and the peak RSS, for bench/timeline.sh.
//
//   qflame-bench-timeline FILE
#include "formats/ProfileInput.h"
#include "time/Heatmap.h"
#include "time/TimeRange.h"
#include "time/Timeline.h"

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <exception>

using namespace qflame;

namespace {

template <class Fn>
double seconds(Fn &&fn)
{
    const auto start = std::chrono::steady_clock::now();
    fn();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}   // namespace

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: qflame-bench-timeline FILE\n");
        return 2;
    }
    try {
        ReadOptions options;
        options.maxDecompressedBytes = uint64_t(1) << 40;   // the hour is ~10 GB of text
        std::shared_ptr<const Profile> p;
        std::printf("read %.3f\n", seconds([&] { p = readProfileFile(std::string(argv[1]), options); }));
        if (!p->timeline) {
            std::fprintf(stderr, "qflame-bench-timeline: %s has no sample times\n", argv[1]);
            return 1;
        }
        const Timeline &t = *p->timeline;
        HeatmapOptions h;
        h.type = size_t(p->effectiveDefaultType());
        Heatmap map;
        std::printf("heatmap %.3f\n", seconds([&] { map = computeHeatmap(*p, h); }));
        h.threadRegex = "/4245$";
        std::printf("heatmap_one_thread %.3f\n", seconds([&] { computeHeatmap(*p, h); }));
        std::shared_ptr<const Profile> minute;
        std::printf("range_one_minute %.3f\n",
                    seconds([&] { minute = profileInRange(p, TimeRange{60000000000, 120000000000}); }));
        std::printf("events %zu\nsamples %zu\nthreads %zu\ntimeline_bytes %llu\nspan_s %.3f\ncolumns %zu\n"
                    "minute_events %zu\n",
                    t.size(), p->sampleCount(), t.threadNames.size(), (unsigned long long)t.bytes(),
                    double(t.spanNanos) / 1e9, map.columns, minute->timeline ? minute->timeline->size() : 0);
        rusage usage{};
        getrusage(RUSAGE_SELF, &usage);
        std::printf("max_rss_kb %ld\n", usage.ru_maxrss);
        return 0;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "qflame-bench-timeline: %s\n", e.what());
        return 1;
    }
}
