// qflame-bench-flat FILE [RUNS]: `qflame top`'s table from the samples (FlatTable::compute without a tree) in one
// process, read once: RUNS times, milliseconds each and the table's row count. The flat pass is measured alone,
// without the read and the process around it that `qflame top` adds.
#include "formats/ProfileInput.h"
#include "tree/CallTreeBuilder.h"
#include "tree/FlatTable.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>

using namespace qflame;

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: qflame-bench-flat FILE [RUNS]\n");
        return 1;
    }
    const int runs = argc > 2 ? std::atoi(argv[2]) : 5;
    ReadOptions options;
    options.sampleLabels = false;   // as `qflame top` reads
    auto profile = readProfileFile(std::string(argv[1]), options);
    using Clock = std::chrono::steady_clock;
    for (int r = 0; r < runs; ++r) {
        const auto t0 = Clock::now();
        auto table = FlatTable::compute({profile}, size_t(profile->effectiveDefaultType()), BuildOptions{});
        const auto t1 = Clock::now();
        std::printf("flat table %.2f ms (%zu rows)\n", std::chrono::duration<double, std::milli>(t1 - t0).count(),
                    table->rows().size());
    }
    return 0;
}
