// The explorer timeline's numbers (qryn/TimelineSteps.h, rounds/RateUnit.h), headless: units and their wording per
// sample type, the steps and the request of a window, per-step values of rates and gauges, and a brushed range's
// average ± SE by the rounds model, against hand-computed values.
#include "qryn/ServerRounds.h"
#include "qryn/TimelineSteps.h"
#include "rounds/RateUnit.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace qflame;
using namespace qflame::qryn;

namespace {

constexpr qint64 kT0 = 1'700'000'000'000;   // a multiple of 10 s and of 20 s since the epoch
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

ProfileType type(const char *id)
{
    ProfileType t;
    if (!ProfileType::parse(QString::fromLatin1(id), &t))
        qFatal("bad type %s", id);
    return t;
}

Series series(LabelSet labels, QList<SeriesPoint> points)
{
    return {std::move(labels), std::move(points)};
}

// A plan of `steps` steps of `seconds` from kT0, as planTimeline makes it for that window.
TimelinePlan plan(const char *typeId, qint64 seconds, int steps, const QString &groupBy = QString())
{
    return planTimeline({QString::fromLatin1(typeId), QStringLiteral("{}"), {kT0, kT0 + seconds * 1000 * steps}},
                        type(typeId), seconds, groupBy);
}

const char *const kCpu = "process_cpu:cpu:nanoseconds:cpu:nanoseconds";
const char *const kGoroutines = "goroutines:goroutine:count:goroutine:count";

}   // namespace

class tst_TimelineSteps : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void units_data();
    void units();
    void withError_data();
    void withError();
    void change();
    void snap();
    void planOfAWindow();
    void rateSteps();
    void rateRangeCountsAnEmptyStep();
    void gaugeSteps();
    void gaugeRange();
    void meanOfOne();
};

void tst_TimelineSteps::units_data()
{
    QTest::addColumn<QString>("sampleType");
    QTest::addColumn<QString>("unit");
    QTest::addColumn<bool>("gauge");
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("scale");
    QTest::addColumn<double>("divisor");
    QTest::addColumn<QString>("text");
    QTest::newRow("cpu") << "cpu" << "nanoseconds" << false << 4.94e9 << "cores" << 1e9 << "4.94 cores";
    QTest::newRow("mutex delay") << "delay" << "nanoseconds" << false << 2e8 << "cores" << 1e9 << "0.2 cores";
    QTest::newRow("cpu in ms") << "cpu" << "milliseconds" << false << 500.0 << "cores" << 1e3 << "0.5 cores";
    QTest::newRow("alloc_space") << "alloc_space" << "bytes" << false << 3.5 * 1048576 << "MiB/s" << 1048576.0
                                 << "3.50 MiB/s";
    QTest::newRow("alloc_space small") << "alloc_space" << "bytes" << false << 512.0 << "B/s" << 1.0 << "512 B/s";
    QTest::newRow("alloc_objects") << "alloc_objects" << "count" << false << 1500.0 << "k objects/s" << 1e3
                                   << "1.5 k objects/s";
    QTest::newRow("samples") << "samples" << "count" << false << 120.0 << "samples/s" << 1.0 << "120 samples/s";
    QTest::newRow("contentions") << "contentions" << "count" << false << 3.0 << "contentions/s" << 1.0
                                 << "3 contentions/s";
    QTest::newRow("inuse_space") << "inuse_space" << "bytes" << true << 200e6 << "MiB" << 1048576.0 << "191 MiB";
    QTest::newRow("inuse_objects") << "inuse_objects" << "count" << true << 42.0 << "objects" << 1.0 << "42 objects";
    QTest::newRow("goroutine") << "goroutine" << "count" << true << 42.0 << "goroutines" << 1.0 << "42 goroutines";
    QTest::newRow("goroutines many") << "goroutine" << "count" << true << 12500.0 << "k goroutines" << 1e3
                                     << "12.5 k goroutines";
}

void tst_TimelineSteps::units()
{
    QFETCH(QString, sampleType);
    QFETCH(QString, unit);
    QFETCH(bool, gauge);
    QFETCH(double, value);
    const RateUnit u = rateUnit(sampleType.toStdString(), unit.toStdString());
    QCOMPARE(u.kind == ValueKind::Gauge, gauge);
    const DisplayScale s = displayScale(u, value);
    QTEST(QString::fromStdString(s.text), "scale");
    QTEST(s.divisor, "divisor");
    QTEST(QString::fromStdString(formatUnitValue(value, u)), "text");
}

void tst_TimelineSteps::withError_data()
{
    QTest::addColumn<QString>("sampleType");
    QTest::addColumn<QString>("unit");
    QTest::addColumn<double>("value");
    QTest::addColumn<double>("error");
    QTest::addColumn<QString>("text");
    // Two significant digits of the error, the value to the same place.
    QTest::newRow("cores") << "cpu" << "nanoseconds" << 4.9387e9 << 0.0312e9 << "4.939 ± 0.031 cores";
    QTest::newRow("coarse") << "cpu" << "nanoseconds" << 4.9387e9 << 0.31e9 << "4.94 ± 0.31 cores";
    QTest::newRow("bytes") << "alloc_space" << "bytes" << 1.5 * 1048576 << 0.02 * 1048576 << "1.500 ± 0.020 MiB/s";
    QTest::newRow("large error") << "goroutine" << "count" << 640.0 << 35.0 << "640 ± 35 goroutines";
    QTest::newRow("no spread") << "goroutine" << "count" << 100.0 << 0.0 << "100 ± 0 goroutines";
    QTest::newRow("unknown") << "cpu" << "nanoseconds" << 5e9 << kNan << "5 ± ? cores";
    QTest::newRow("no rate") << "cpu" << "nanoseconds" << kNan << kNan << "?";
}

void tst_TimelineSteps::withError()
{
    QFETCH(QString, sampleType);
    QFETCH(QString, unit);
    QFETCH(double, value);
    QFETCH(double, error);
    QTEST(QString::fromStdString(formatWithError(value, error, rateUnit(sampleType.toStdString(), unit.toStdString()))),
          "text");
}

void tst_TimelineSteps::change()
{
    const RateUnit cores = rateUnit("cpu", "nanoseconds");
    // 4.94 -> 4.658 cores, each ± 0.035: delta -0.282, SE sqrt(2) · 0.035 = 0.0495, beyond 2 SE.
    RateEstimate a, b;
    a.rate = 4.94e9;
    b.rate = 4.658e9;
    a.standardError = b.standardError = 0.035e9;
    RateChange c = compareRates(a, b, 2);
    QCOMPARE(c.verdict, RoundVerdict::Faster);
    QCOMPARE(QString::fromStdString(formatRateChange(c, cores, 2)),
             QStringLiteral("-5.71% (-0.282 ± 0.049 cores), faster: beyond 2 SE"));
    b.rate = 4.96e9;
    c = compareRates(a, b, 2);
    QCOMPARE(QString::fromStdString(formatRateChange(c, cores, 2)),
             QStringLiteral("+0.40% (+0.020 ± 0.049 cores), noise: within 2 SE"));
    QCOMPARE(QString::fromStdString(formatRateChange(compareRates(a, b, 0), cores, 0)),
             QStringLiteral("+0.40% (+0.020 ± 0.049 cores), slower: noise test off"));
    b.standardError = kNan;
    c = compareRates(a, b, 2);
    QCOMPARE(QString::fromStdString(formatRateChange(c, cores, 2)),
             QStringLiteral("+0.40% (+0.02 ± ? cores), unknown: no error known"));
}

void tst_TimelineSteps::snap()
{
    QCOMPARE(snapToSteps({12'345, 47'000}, 10).startMs, qint64(10'000));
    QCOMPARE(snapToSteps({12'345, 47'000}, 10).endMs, qint64(50'000));
    QCOMPARE(snapToSteps({10'000, 50'000}, 10).startMs, qint64(10'000));   // whole steps stay
    QCOMPARE(snapToSteps({10'000, 50'000}, 10).endMs, qint64(50'000));
    QCOMPARE(snapToSteps({-15'000, -1}, 10).startMs, qint64(-20'000));
    QCOMPARE(snapToSteps({-15'000, -1}, 10).endMs, qint64(0));
    QCOMPARE(snapToSteps({12'345, 47'000}, 0).startMs, qint64(12'345));
}

void tst_TimelineSteps::planOfAWindow()
{
    // 20 minutes from 5 s past a 20 s boundary: Auto is ServerRounds' rule, 1200 s / 60 = 20 s; the steps are the
    // epoch's 20 s buckets covering the window, 61 of them, and SelectSeries is asked their span at 20 s.
    const ProfileQuery q{QString::fromLatin1(kCpu), QStringLiteral("{}"), {kT0 + 5'000, kT0 + 1'205'000}};
    TimelinePlan p = planTimeline(q, type(kCpu), 0, QStringLiteral("round"));
    QCOMPARE(p.stepSeconds, qint64(20));
    QCOMPARE(p.stepSeconds, roundStepSeconds(q.range, 0));
    QCOMPARE(p.steps.size(), size_t(61));
    QCOMPARE(p.steps.front().startMs, kT0);
    QCOMPARE(p.steps.back().endMs, kT0 + 1'220'000);
    QCOMPARE(p.query.range.startMs, kT0);
    QCOMPARE(p.query.range.endMs, kT0 + 1'220'000);
    QCOMPARE(p.options.stepSeconds, 20.0);
    QCOMPARE(p.options.groupBy, QStringList{QStringLiteral("round")});
    QCOMPARE(p.unit.kind, ValueKind::Rate);
    // A chosen step; a gauge is asked at 1 s and ungrouped (averaged per label set here).
    p = planTimeline(q, type(kGoroutines), 60, QStringLiteral("round"));
    QCOMPARE(p.stepSeconds, qint64(60));
    QCOMPARE(p.steps.size(), size_t(21));
    QCOMPARE(p.options.stepSeconds, 1.0);
    QCOMPARE(p.options.groupBy, QStringList());
    QCOMPARE(p.unit.kind, ValueKind::Gauge);
    QCOMPARE(p.unit.counted, std::string("goroutines"));
    // One hour: 60 s steps; 10 minutes: no step under 10 s.
    QCOMPARE(planTimeline({q.profileTypeId, {}, {kT0, kT0 + 3'600'000}}, type(kCpu), 0, {}).stepSeconds, qint64(60));
    QCOMPARE(planTimeline({q.profileTypeId, {}, {kT0, kT0 + 600'000}}, type(kCpu), 0, {}).stepSeconds, qint64(10));
}

void tst_TimelineSteps::rateSteps()
{
    // Two series over three 10 s steps; the third step holds nothing. Points outside the steps are dropped.
    const TimelinePlan p = plan(kCpu, 10, 3);
    const QList<Series> answer = {
        series({{QStringLiteral("service_name"), QStringLiteral("b")}}, {{kT0, 5e9}, {kT0 + 30'000, 7e9}}),
        series({{QStringLiteral("service_name"), QStringLiteral("a")}}, {{kT0 - 10'000, 3e9}, {kT0, 20e9}, {kT0 + 10'000, 10e9}}),
    };
    const StepTimeline t = stepTimeline(answer, p);
    QCOMPARE(t.stepSeconds, qint64(10));
    QCOMPARE(t.steps.size(), size_t(3));
    QCOMPARE(t.series.size(), size_t(2));
    QCOMPARE(t.series[0].labels.front().value, QStringLiteral("a"));   // by labels, not by the server's order
    // Per second of the step: 20 s of CPU in 10 s is 2 cores.
    QCOMPARE(t.series[0].values, (std::vector<double>{2e9, 1e9, 0}));
    QCOMPARE(t.series[1].values, (std::vector<double>{0.5e9, 0, 0}));
    QCOMPARE(t.totalValues, (std::vector<double>{2.5e9, 1e9, 0}));
    QCOMPARE(t.totals.size(), size_t(3));
    QCOMPARE(t.totals[0].value, int64_t(25'000'000'000));
    QCOMPARE(t.totals[1].value, int64_t(10'000'000'000));
    QCOMPARE(t.totals[2].value, int64_t(0));
    QCOMPARE(t.totals[2].durationNanos, int64_t(10'000'000'000));
    QCOMPARE(t.stepAt(kT0 + 15'000), 1);
    QCOMPARE(t.stepAt(kT0 + 30'000), -1);
    QCOMPARE(t.stepAt(kT0 - 1), -1);
}

void tst_TimelineSteps::rateRangeCountsAnEmptyStep()
{
    const TimelinePlan p = plan(kCpu, 10, 4);
    const StepTimeline t = stepTimeline({series({}, {{kT0, 20e9}, {kT0 + 10'000, 5e9}, {kT0 + 20'000, 10e9}})}, p);
    // Steps 1..3: 5 s, 10 s and an empty step (0) of CPU, each over 10 s. By hand: R = 15 / 30 = 0.5 cores;
    // residuals 5 - 5, 10 - 5, 0 - 5 (s): SE = sqrt(3/2 · 50) / 30 = sqrt(75) / 30 cores.
    const TimeRange range{kT0 + 10'000, kT0 + 40'000};
    const std::vector<Observation> obs = rangeObservations(t, range);
    QCOMPARE(obs.size(), size_t(3));
    QCOMPARE(obs[2].value, int64_t(0));
    const RateEstimate e = rangeEstimate(t, range);
    QCOMPARE(e.k, size_t(3));
    QCOMPARE(e.total, int64_t(15'000'000'000));
    QCOMPARE(e.rate, 0.5e9);
    QVERIFY(std::fabs(e.standardError - std::sqrt(75.0) / 30 * 1e9) < 1e-6);
    QCOMPARE(QString::fromStdString(formatWithError(e.rate, e.standardError, t.unit)),
             QStringLiteral("0.50 ± 0.29 cores"));
    // A range of no step has no rate.
    QVERIFY(!rangeEstimate(t, {kT0 + 41'000, kT0 + 45'000}).rateKnown());
}

void tst_TimelineSteps::gaugeSteps()
{
    // One point per profile (asked at 1 s). pod 1: 100 and 120 in step 0 (mean 110), 90 in step 1; pod 2: 10 in
    // step 0, 30 in step 2. A step without a profile has no value, not 0.
    const QList<Series> answer = {
        series({{QStringLiteral("pod"), QStringLiteral("1")}, {QStringLiteral("svc"), QStringLiteral("x")}},
               {{kT0 + 1'000, 100}, {kT0 + 4'000, 120}, {kT0 + 12'000, 90}}),
        series({{QStringLiteral("pod"), QStringLiteral("2")}, {QStringLiteral("svc"), QStringLiteral("x")}},
               {{kT0 + 2'000, 10}, {kT0 + 25'000, 30}}),
    };
    StepTimeline t = stepTimeline(answer, plan(kGoroutines, 10, 3));
    QCOMPARE(t.series.size(), size_t(2));
    QCOMPARE(t.series[0].values[0], 110.0);
    QCOMPARE(t.series[0].values[1], 90.0);
    QVERIFY(std::isnan(t.series[0].values[2]));
    QCOMPARE(t.series[1].values[0], 10.0);
    QVERIFY(std::isnan(t.series[1].values[1]));
    QCOMPARE(t.series[1].values[2], 30.0);
    QCOMPARE(t.totalValues, (std::vector<double>{120, 90, 30}));
    QVERIFY(t.totals.empty());
    // Grouped here: the group's value is the sum of its label sets' means.
    t = stepTimeline(answer, plan(kGoroutines, 10, 3, QStringLiteral("svc")));
    QCOMPARE(t.series.size(), size_t(1));
    QCOMPARE(t.series[0].labels, (LabelSet{{QStringLiteral("svc"), QStringLiteral("x")}}));
    QCOMPARE(t.series[0].values, (std::vector<double>{120, 90, 30}));
}

void tst_TimelineSteps::gaugeRange()
{
    const QList<Series> answer = {series({}, {{kT0 + 1'000, 100}, {kT0 + 4'000, 120}, {kT0 + 12'000, 90},
                                              {kT0 + 31'000, 30}})};
    const StepTimeline t = stepTimeline(answer, plan(kGoroutines, 10, 4));
    // Steps 110, 90, (none), 30: the empty step is left out. Mean 230 / 3; by hand the squares of the residuals
    // (100/3)² + (40/3)² + (140/3)² = 31200/9, SE = sqrt(3/2 · 31200/9) / 3.
    const RateEstimate e = rangeEstimate(t, {kT0, kT0 + 40'000});
    QCOMPARE(e.k, size_t(3));
    QVERIFY(std::fabs(e.rate - 230.0 / 3) < 1e-9);
    QVERIFY(std::fabs(e.standardError - std::sqrt(1.5 * 31200.0 / 9) / 3) < 1e-9);
    QVERIFY(rangeObservations(t, {kT0, kT0 + 40'000}).empty());
    QCOMPARE(QString::fromStdString(formatWithError(e.rate, e.standardError, t.unit)),
             QStringLiteral("77 ± 24 goroutines"));
}

void tst_TimelineSteps::meanOfOne()
{
    const RateEstimate one = estimateMean({42});
    QCOMPARE(one.rate, 42.0);
    QVERIFY(!one.errorKnown());
    QVERIFY(!estimateMean({}).rateKnown());
}

QTEST_APPLESS_MAIN(tst_TimelineSteps)
#include "tst_timelinesteps.moc"
