// qflame-bench-decode FILE [RUNS]: decoding a profile's bytes already in memory, inflated beforehand, RUNS times
// in one process (milliseconds each): the decoder alone, without the inflating thread beside it that `qflame
// top` has. The labels are dropped, as `qflame top` reads.
#include "formats/ProfileInput.h"
#include "io/Compression.h"

#include <QFile>

#include <chrono>
#include <cstdio>
#include <cstdlib>

using namespace qflame;

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: qflame-bench-decode FILE [RUNS]\n");
        return 1;
    }
    const int runs = argc > 2 ? std::atoi(argv[2]) : 5;
    QFile file(QString::fromLocal8Bit(argv[1]));
    if (!file.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "cannot open %s\n", argv[1]);
        return 1;
    }
    const QByteArray read = file.readAll();
    const std::string_view bytes(read.constData(), size_t(read.size()));
    const Compression c = sniffCompression(bytes);
    const std::string inflated = c == Compression::None ? std::string(bytes) : decompress(bytes, c, uint64_t(1) << 34);
    ReadOptions options;
    options.sampleLabels = false;
    using Clock = std::chrono::steady_clock;
    for (int r = 0; r < runs; ++r) {
        const auto t0 = Clock::now();
        const auto p = readProfile(inflated, argv[1], options);
        const auto t1 = Clock::now();
        std::printf("decode %.2f ms (%zu samples)\n", std::chrono::duration<double, std::milli>(t1 - t0).count(),
                    p->sampleCount());
    }
    return 0;
}
