// A series of profiles loaded into a qryn fixture (qryn-fixture.sh load-batch): one profile per step, each with
// samples/count and cpu/nanoseconds of three stacks whose sample counts the test knows, as Go's CPU profiler
// writes them (10 ms per sample). The acceptance series: 120 profiles at 10 s steps, 20 minutes.
#pragma once

#include "qryn/QrynFixtureEnv.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace qflame::test {

struct SeriesStep {
    qint64 fromS = 0;   // the profile's stamp (its collection's start), s since the epoch
    int hot = 0, cold = 0, idle = 0;   // samples of main;work;hot, main;work;cold, main;idle
    static constexpr int64_t kPeriod = 10'000'000;
    int64_t samples() const { return hot + cold + idle; }
    int64_t cpu() const { return samples() * kPeriod; }
};

struct LoadedSeries {
    QString service;
    std::vector<SeriesStep> steps;
    QString error;   // set when loading failed
};

// Loads `count` profiles of `service` (label env=series) stamped at firstS, firstS + stepS, ...; their sample
// counts vary with the step (hot 40-62, cold 15-21, idle 5-8), so no two neighbours are alike. Files go to
// `tmpDir`. Takes about 2 s for 120 profiles.
LoadedSeries loadSeries(const QrynFixtureEnv &env, const QString &fixtureScript, const QString &tmpDir,
                        const QString &service, qint64 firstS, int count, int stepS);

}   // namespace qflame::test
