// The in-process benchmarks (Google Benchmark), with a QApplication for the painting ones. Offscreen unless
// QT_QPA_PLATFORM says otherwise, so the numbers do not depend on a display.
#include "BenchTrees.h"

#include <QApplication>

#include <benchmark/benchmark.h>

#include <cstdlib>

int main(int argc, char **argv)
{
    setenv("QT_QPA_PLATFORM", "offscreen", 0);
    QApplication app(argc, argv);
    qflame::bench::registerFileBenchmarks();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
