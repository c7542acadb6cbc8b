// Sample times of the formats besides perf script and .cpuprofile (issue #35): a speedscope evented profile's
// intervals, pprof's timestamp labels, and wall-clock times (pprof since the epoch, perf script recorded with
// -k CLOCK_REALTIME) that RFC 3339 times select in. Every expected value is worked out from the hand-made files in
// TimedFormats.h.
#include "TimedFormats.h"
#include "formats/ProfileInput.h"
#include "time/Heatmap.h"
#include "time/TimeRange.h"
#include "time/Timeline.h"
#include "tree/CallTreeBuilder.h"
#include "tree/FlatTable.h"

#include <QTest>

#include <ctime>
#include <map>

using namespace qflame;
using namespace qflame::test;

class tst_TimedFormats : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void eventedSpeedscope();
    void eventedSpeedscopeCut();
    void eventedOtherUnits();
    void pprofTimestampLabels();
    void pprofSinceBoot();
    void pprofWithoutTimes();
    void realtimePerfScript();
    void todPerfScript();
    void perfScriptTimesBeyondInt64();
    void heatmapCellsByFormula();
};

namespace {

std::shared_ptr<const Profile> read(std::string_view bytes)
{
    return readProfile(bytes, "in", {});
}

// "sample@nanos" per event, or "sample@nanos/weight" with `weights`.
QString times(const Timeline &t, bool weights = false)
{
    QStringList out;
    t.forEach([&](size_t, int64_t nanos, uint32_t s, int64_t w) {
        out << (weights ? QStringLiteral("%1@%2/%3").arg(s).arg(nanos).arg(w) : QStringLiteral("%1@%2").arg(s).arg(nanos));
    });
    return out.join(QLatin1Char(' '));
}

QString cells(const Heatmap &h)
{
    QStringList out;
    for (size_t c = 0; c < h.columns; ++c)
        for (uint32_t r = 0; r < h.rows; ++r)
            if (h.value(c, r))
                out << QStringLiteral("%1:%2=%3").arg(c).arg(r).arg(h.value(c, r));
    return out.join(QLatin1Char(' '));
}

// "name=flat/cum" of the top table of one sample type, by name.
QString top(const std::shared_ptr<const Profile> &p, size_t type)
{
    const auto table = FlatTable::compute({p}, type, {});
    std::map<std::string, std::pair<int64_t, int64_t>> rows;
    for (size_t i = 0; i < table->rows().size(); ++i)
        rows[std::string(table->label(i))] = {table->rows()[i].flat, table->rows()[i].cum};
    QStringList out;
    for (const auto &[name, v] : rows)
        out << QStringLiteral("%1=%2/%3").arg(QString::fromStdString(name)).arg(v.first).arg(v.second);
    return out.join(QLatin1Char(' '));
}

QString threads(const Timeline &t)
{
    QStringList out;
    for (const std::string &name : t.threadNames)
        out << QString::fromStdString(name);
    return out.join(QLatin1Char(','));
}

}   // namespace

void tst_TimedFormats::eventedSpeedscope()
{
    const auto p = read(kEventedSpeedscope);
    QVERIFY(p->timeline);
    const Timeline &t = *p->timeline;
    // Six intervals from the first at 1 ms: main at 0 (1 ms), main;a at 1 (1), main;a;b at 2 (2), main;a at 4 (2,
    // lengthened over the empty c at 6), main;c at 6 (1), main at 8 (1, open until endValue 10).
    QCOMPARE(times(t, true), QStringLiteral("0@0/1000000 1@1000000/1000000 2@2000000/2000000 1@4000000/2000000 "
                                            "3@6000000/1000000 0@8000000/1000000"));
    QCOMPARE(t.startNanos, int64_t(1000000));
    QCOMPARE(t.spanNanos, int64_t(8000000));
    QVERIFY(!t.wallClock);
    QCOMPARE(threads(t), QStringLiteral("worker"));
    // The profile's values are the intervals' sums: main 1 + 1 ms self, a 1 + 2, b 2, c 1.
    QCOMPARE(top(p, 0), QStringLiteral("a=3000000/5000000 b=2000000/2000000 c=1000000/1000000 main=2000000/8000000"));
    // 2 ms columns of two 1 ms rows: each interval's length in the cell of its start.
    HeatmapOptions o;
    o.columnNanos = 2000000;
    o.rows = 2;
    QCOMPARE(cells(computeHeatmap(*p, o)),
             QStringLiteral("0:0=1000000 0:1=1000000 1:0=2000000 2:0=2000000 3:0=1000000 4:0=1000000"));
}

void tst_TimedFormats::eventedSpeedscopeCut()
{
    // [1 ms, 5 ms): the intervals that start in it, each whole: a 1 + 2 ms, b 2 ms; as the file cut by hand.
    const auto cut = profileInRange(read(kEventedSpeedscope), TimeRange{1000000, 5000000});
    QCOMPARE(top(cut, 0), QStringLiteral("a=3000000/5000000 b=2000000/2000000 main=0/5000000"));
    QCOMPARE(top(cut, 0), top(read(kEventedSpeedscopeCut), 0));
    // Its samples are the ones with an event in range, renumbered: main;a 0, main;a;b 1 (main has none).
    QCOMPARE(times(*cut->timeline), QStringLiteral("0@1000000 1@2000000 0@4000000"));
    // Thread "worker" by name.
    QCOMPARE(top(profileInRange(read(kEventedSpeedscope), TimeRange{}, "^work"), 0),
             top(read(kEventedSpeedscope), 0));
    QVERIFY(profileInRange(read(kEventedSpeedscope), TimeRange{}, "^io")->sampleCount() == 0);
}

void tst_TimedFormats::eventedOtherUnits()
{
    // The same events in microseconds: times 1000 times smaller. In bytes (no time): no timeline.
    std::string json = kEventedSpeedscope;
    json.replace(json.find("milliseconds"), 12, "microseconds");
    auto p = read(json);
    QVERIFY(p->timeline);
    QCOMPARE(times(*p->timeline), QStringLiteral("0@0 1@1000 2@2000 1@4000 3@6000 0@8000"));
    json.replace(json.find("microseconds"), 12, "bytes");
    p = read(json);
    QVERIFY(!p->timeline);
    QCOMPARE(top(p, 0), QStringLiteral("a=3/5 b=2/2 c=1/1 main=2/8"));
}

void tst_TimedFormats::pprofTimestampLabels()
{
    const auto p = read(timedPprofBytes(timedPprofSamples(kWallT0, "end_timestamp_ns"), kWallT0));
    QVERIFY(p->timeline);
    const Timeline &t = *p->timeline;
    // A at 0, B at 0.25 s, C at 1.5 and 1.6 s, D's milliseconds at 2.1 s; from the epoch: wall-clock times.
    QCOMPARE(times(t), QStringLiteral("0@0 1@250000000 2@1500000000 2@1600000000 3@2100000000"));
    QCOMPARE(t.startNanos, kWallT0);
    QVERIFY(t.wallClock);
    QCOMPARE(threads(t), QStringLiteral("worker 7,8,io 3/9"));
    QCOMPARE(t.threadOf(0), 0u);
    QCOMPARE(t.threadOf(1), 0u);
    QCOMPARE(t.threadOf(2), 1u);
    QCOMPARE(t.threadOf(3), 2u);
    // cpu in 1 s columns of 50 rows: 0 -> 0:0, 0.25 -> 0:12, 1.5 -> 1:25, 1.6 -> 1:30 (C's halves), 2.1 -> 2:5.
    HeatmapOptions o;
    o.type = 1;
    QCOMPARE(cells(computeHeatmap(*p, o)),
             QStringLiteral("0:0=10000000 0:12=10000000 1:25=10000000 1:30=10000000 2:5=10000000"));
    // 2025-12-04T11:00:01Z to 12:00:02.6+01:00 is [0.5 s, 2.1 s): C's two events.
    const TimeRange r = parseTimeRange(t, std::string("2025-12-04T11:00:01Z"), std::string("2025-12-04T12:00:02.6+01:00"), "in");
    QCOMPARE(r.fromNanos, int64_t(500000000));
    QCOMPARE(r.toNanos, int64_t(2100000000));
    const auto cut = profileInRange(p, r);
    QCOMPARE(top(cut, 1), QStringLiteral("f=20000000/20000000 main=0/20000000"));
    QCOMPARE(top(cut, 0), QStringLiteral("f=2/2 main=0/2"));
    // Thread 8 alone, the whole recording: C.
    QCOMPARE(top(profileInRange(p, TimeRange{}, "^8$"), 1), QStringLiteral("f=20000000/20000000 main=0/20000000"));
}

void tst_TimedFormats::pprofSinceBoot()
{
    // perf_data_converter's timestamp_ns counts from boot (5 s here): times, but no clock time.
    const auto p = read(timedPprofBytes(timedPprofSamples(5000000000, "timestamp_ns"), kWallT0));
    QVERIFY(p->timeline);
    QCOMPARE(times(*p->timeline), QStringLiteral("0@0 1@250000000 2@1500000000 2@1600000000 3@2100000000"));
    QCOMPARE(p->timeline->startNanos, int64_t(5000000000));
    QVERIFY(!p->timeline->wallClock);
    try {
        parseTimePoint(*p->timeline, "2025-12-04T11:00:01Z", "in");
        QFAIL("a clock time was taken");
    } catch (const ProfileError &e) {
        QCOMPARE(QString::fromUtf8(e.what()), QStringLiteral("in: '2025-12-04T11:00:01Z' is a clock time, but the "
                                                             "file's sample times are not (give seconds from the first sample)"));
    }
}

void tst_TimedFormats::pprofWithoutTimes()
{
    // One sample without a time: no timeline (as a perf script record without one).
    auto samples = timedPprofSamples(kWallT0, "end_timestamp_ns");
    samples[1].labels.erase(samples[1].labels.begin());
    QVERIFY(!read(timedPprofBytes(samples, kWallT0))->timeline);
    // A bare "timestamp" without a unit is not taken (its unit would be a guess), nor is a negative time.
    samples = timedPprofSamples(kWallT0, "end_timestamp_ns");
    samples[3].labels[0].unit.clear();
    QVERIFY(!read(timedPprofBytes(samples, kWallT0))->timeline);
    samples = timedPprofSamples(kWallT0, "end_timestamp_ns");
    samples[0].labels[0].num = -1;
    QVERIFY(!read(timedPprofBytes(samples, kWallT0))->timeline);
    // A time key with a string value is not a time.
    samples = timedPprofSamples(kWallT0, "end_timestamp_ns");
    samples[0].labels[0].str = "now";
    QVERIFY(!read(timedPprofBytes(samples, kWallT0))->timeline);
    // Seconds: the unit named by num_unit.
    samples = timedPprofSamples(kWallT0, "end_timestamp_ns");
    samples[3].labels[0] = {"timestamp", "", (kWallT0 + 2500000000) / 1000000000, "seconds"};   // 11:00:03Z
    const auto p = read(timedPprofBytes(samples, kWallT0));
    QVERIFY(p->timeline);
    QCOMPARE(times(*p->timeline), QStringLiteral("0@0 1@250000000 2@1500000000 2@1600000000 3@2500000000"));
}

void tst_TimedFormats::realtimePerfScript()
{
    const auto p = read(kRealtimePerfScript);
    QVERIFY(p->timeline);
    QVERIFY(p->timeline->wallClock);
    QCOMPARE(p->timeline->startNanos, int64_t(1764846000000100000));
    // 11:00:00.2Z to 11:00:01Z is [0.1999 s, 0.9999 s) from the first record: thread 101's g.
    const TimeRange r = parseTimeRange(*p->timeline, std::string("2025-12-04T11:00:00.2Z"),
                                       std::string("2025-12-04T11:00:01Z"), "in");
    QCOMPARE(r.fromNanos, int64_t(199900000));
    QCOMPARE(top(profileInRange(p, r), size_t(p->findSampleType("cpu-clock"))), QStringLiteral("g=3000/3000 main=0/3000"));
    // perf's default clock counts from boot (TimedPerfScript.h's 10 s): no clock time.
    QVERIFY(!read("prog 100/100 [000] 10.000100: 1000 cpu-clock:\n\t1000 f+0x0 (/bin/prog)\n")->timeline->wallClock);
}

void tst_TimedFormats::todPerfScript()
{
    // perf script -F +tod prints the local time of day between [cpu] and the time; read here in a zone two hours
    // east of UTC (a POSIX TZ rule: no tzdata needed), so 18:26:55.620971 local is 16:26:55.620971Z,
    // 1594657615.620971 s after the epoch. perf's own clock (since boot) keeps the steps between records.
    const QByteArray zone = qgetenv("TZ");
    qputenv("TZ", "XST-2");
    tzset();
    const char script[] = "perf 261340/261340 [001] 2020-07-13 18:26:55.620971 152919.481538: 1000 cpu-clock:\n"
                          "\t1000 f+0x0 (/bin/prog)\n\t2000 main+0x0 (/bin/prog)\n\n"
                          "perf 261340/261341 [000] 2020-07-13 18:26:55.870971 152919.731538: 3000 cpu-clock:\n"
                          "\t1100 g+0x0 (/bin/prog)\n\t2000 main+0x0 (/bin/prog)\n\n"
                          "perf 261340/261340 [001] 2020-07-13 18:26:57.120971 152920.981538: 2000 cpu-clock:\n"
                          "\t1000 f+0x0 (/bin/prog)\n\t2000 main+0x0 (/bin/prog)\n";
    const auto p = read(script);
    QVERIFY(p->timeline);
    QVERIFY(p->timeline->wallClock);
    QCOMPARE(p->timeline->startNanos, int64_t(1594657615620971000));
    QCOMPARE(times(*p->timeline), QStringLiteral("0@0 1@250000000 0@1500000000"));
    QCOMPARE(p->timeline->threadNames, (std::vector<std::string>{"perf 261340/261340", "perf 261340/261341"}));
    // RFC 3339 selects in it: 16:26:55.8Z to 16:26:57Z is thread 261341's g.
    const TimeRange r = parseTimeRange(*p->timeline, std::string("2020-07-13T16:26:55.8Z"),
                                       std::string("2020-07-13T18:26:57+02:00"), "in");
    QCOMPARE(r.fromNanos, int64_t(179029000));
    QCOMPARE(top(profileInRange(p, r), size_t(p->findSampleType("cpu-clock"))), QStringLiteral("g=3000/3000 main=0/3000"));
    // --ns: nine decimals; and tod without the time field: the tod is each record's time.
    const auto ns = read("perf 261340/261340 [001] 2020-07-13 18:26:55.620971621 152919.481538922: 1000 cpu-clock:\n"
                         "\t1000 f+0x0 (/bin/prog)\n\n");
    QCOMPARE(ns->timeline->startNanos, int64_t(1594657615620971621));
    const auto todOnly = read("perf 261340/261340 2020-07-13 18:26:55.5 cpu-clock:\n\t1000 f+0x0 (/bin/prog)\n\n"
                              "perf 261340/261340 2020-07-13 18:26:56.25 cpu-clock:\n\t1000 f+0x0 (/bin/prog)\n\n");
    QVERIFY(todOnly->timeline && todOnly->timeline->wallClock);
    QCOMPARE(todOnly->timeline->startNanos, int64_t(1594657615500000000));
    QCOMPARE(times(*todOnly->timeline), QStringLiteral("0@0 0@750000000"));
    // Without pid/tid: the comm stops before the date.
    QCOMPARE(read("perf 2020-07-13 18:26:55.620971 152919.481538: cpu-clock:\n\t1000 f+0x0 (/bin/prog)\n\n")
                 ->timeline->threadNames,
             std::vector<std::string>{"perf"});
    if (zone.isNull())
        qunsetenv("TZ");
    else
        qputenv("TZ", zone);
    tzset();
}

void tst_TimedFormats::perfScriptTimesBeyondInt64()
{
    // int64 nanoseconds end at 9223372036.854775807 s: a time past it is no time, so the records go untimed
    // (no timeline) while their stacks are read; the last time that fits is kept to the nanosecond.
    const auto record = [](const char *time) {
        return "prog 100/100 " + std::string(time) + ": 1000 cpu-clock:\n\t1000 f+0x0 (/bin/prog)\n\n";
    };
    const auto last = read(record("9223372036.854775807"));
    QVERIFY(last->timeline);
    QCOMPARE(last->timeline->startNanos, std::numeric_limits<int64_t>::max());
    for (const char *beyond : {"9223372036.854775808", "9999999999.999999999"}) {
        const auto p = read(record("1.0") + record(beyond));
        QVERIFY2(!p->timeline, beyond);
        QCOMPARE(top(p, size_t(p->findSampleType("cpu-clock"))), QStringLiteral("f=2000/2000"));
    }
    // A clock plus its offset to the tod past int64 (farTod), a tod less the clock before it (early), and times
    // that each fit but span more than int64 holds.
    const QByteArray zone = qgetenv("TZ");
    qputenv("TZ", "UTC0");
    tzset();
    const auto farTod = read("prog 100/100 2262-04-11 23:47:16.854775807 1.0: 1000 cpu-clock:\n\t1000 f+0x0 (/bin/prog)\n\n"
                             "prog 100/100 2262-04-11 23:47:17.854775807 2.0: 1000 cpu-clock:\n\t1000 f+0x0 (/bin/prog)\n\n");
    QVERIFY(!farTod->timeline);
    const auto early = read("prog 100/100 1700-01-01 00:00:00 9000000000.0: 1000 cpu-clock:\n\t1000 f+0x0 (/bin/prog)\n\n"
                            "prog 100/100 1700-01-01 00:00:01 9000000001.0: 1000 cpu-clock:\n\t1000 f+0x0 (/bin/prog)\n\n");
    QVERIFY(!early->timeline);
    const auto todOnly = read("prog 100/100 1700-01-01 00:00:00 cpu-clock:\n\t1000 f+0x0 (/bin/prog)\n\n"
                              "prog 100/100 2200-01-01 00:00:00 cpu-clock:\n\t1000 f+0x0 (/bin/prog)\n\n");
    QVERIFY(!todOnly->timeline);   // each fits; the span (500 years) does not
    const auto fits = read("prog 100/100 1700-01-01 00:00:00 cpu-clock:\n\t1000 f+0x0 (/bin/prog)\n\n"
                           "prog 100/100 1900-01-01 00:00:00 cpu-clock:\n\t1000 f+0x0 (/bin/prog)\n\n");
    QVERIFY(fits->timeline);
    QCOMPARE(fits->timeline->startNanos, int64_t(-8520336000) * 1000000000);   // 1700-01-01Z, date -d @-8520336000
    QCOMPARE(fits->timeline->spanNanos, int64_t(6311347200) * 1000000000);     // 200 years of 48 leap days
    if (zone.isNull())
        qunsetenv("TZ");
    else
        qputenv("TZ", zone);
    tzset();
}

void tst_TimedFormats::heatmapCellsByFormula()
{
    // Every event's cell by the definition (column = t / width, row = offset * rows / width) against the heatmap,
    // which steps from cell to cell: widths that do not divide into rows, one row, many.
    const auto evented = read(kEventedSpeedscope);
    const auto pprof = read(timedPprofBytes(timedPprofSamples(kWallT0, "end_timestamp_ns"), kWallT0));
    for (const auto &p : {evented, pprof}) {
        for (const int64_t width : {int64_t(3000001), int64_t(7000000), int64_t(1000000000), int64_t(999)})
            for (const uint32_t rows : {1u, 3u, 7u, 50u}) {
                if (width == 999 && p == pprof)
                    continue;   // 2.1 million columns: over the cell limit
                HeatmapOptions o;
                o.columnNanos = width;
                o.rows = rows;
                o.type = p->sampleTypes.size() - 1;
                const Heatmap h = computeHeatmap(*p, o);
                std::vector<int64_t> expected(h.cells.size(), 0);
                const int64_t events = int64_t(p->timeline->size());
                p->timeline->forEach([&](size_t, int64_t t, uint32_t s, int64_t w) {
                    const int64_t column = t / width, row = (t - column * width) * rows / width;
                    // each event's value: its weight where weights are kept, else its sample's share
                    const bool weighted = !p->timeline->weight.empty();
                    int64_t share = p->value(s, o.type), n = 0;
                    p->timeline->forEach([&](size_t, int64_t, uint32_t s2, int64_t) { n += s2 == s; });
                    expected[size_t(column * rows + row)] += weighted ? w : share / n;
                });
                QVERIFY(events > 0);
                QCOMPARE(h.cells, expected);
            }
    }
}

QTEST_GUILESS_MAIN(tst_TimedFormats)
#include "tst_timedformats.moc"
