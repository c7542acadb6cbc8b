// Each sample's time (model/time, issue #35): the timelines of a hand-made perf script and .cpuprofile, their
// heatmap cells counted by hand from the records, a time range's profile, and two ranges compared.
#include "TimedPerfScript.h"
#include "diff/DiffTree.h"
#include "formats/ProfileInput.h"
#include "time/Heatmap.h"
#include "time/RangeDiff.h"
#include "time/TimeRange.h"
#include "time/Timeline.h"
#include "tree/FlatTable.h"

#include <QTest>

#include <algorithm>
#include <map>
#include <random>

using namespace qflame;

class tst_Timeline : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void perfScriptTimes();
    void perfScriptHeatmap();
    void cpuProfileTimes();
    void speedscopeTimes();
    void rangeProfile();
    void twoRangesDiff();
    void cellUnion();
    void cellUnionRandom();
    void frontDoorCut();
    void refusals();
};

namespace {

const auto &kPerf = qflame::test::kTimedPerfScript;

// Samples at 110, 115, 120, 140, 150 us (startTime 100 plus the deltas), the last lasting until endTime 160:
// main 5 us, a 5, a 20, the anonymous function 10, a 10.
const char kCpu[] = R"({"nodes":[
 {"id":1,"callFrame":{"functionName":"(root\u0029","url":"","lineNumber":-1},"children":[2]},
 {"id":2,"callFrame":{"functionName":"main","url":"m.js","lineNumber":0},"children":[3,4]},
 {"id":3,"callFrame":{"functionName":"a","url":"m.js","lineNumber":3}},
 {"id":4,"callFrame":{"functionName":"","url":"m.js","lineNumber":6}}],
 "startTime":100,"endTime":160,"samples":[2,3,3,4,3],"timeDeltas":[10,5,5,20,10]})";

std::shared_ptr<const Profile> read(std::string_view text, const ReadOptions &options = {})
{
    return readProfile(text, "in", options);
}

// "column:row=value" for every non-empty cell, in time order.
QString cells(const Heatmap &h)
{
    QStringList out;
    for (size_t c = 0; c < h.columns; ++c)
        for (uint32_t r = 0; r < h.rows; ++r)
            if (h.value(c, r))
                out << QStringLiteral("%1:%2=%3").arg(c).arg(r).arg(h.value(c, r));
    return out.join(QLatin1Char(' '));
}

// "name=flat/cum" of the top table, by name.
QString top(const std::shared_ptr<const Profile> &p, const char *type)
{
    const auto table = FlatTable::compute({p}, size_t(p->findSampleType(type)), {});
    std::map<std::string, std::pair<int64_t, int64_t>> rows;
    for (size_t i = 0; i < table->rows().size(); ++i)
        rows[std::string(table->label(i))] = {table->rows()[i].flat, table->rows()[i].cum};
    QStringList out;
    for (const auto &[name, v] : rows)
        out << QStringLiteral("%1=%2/%3").arg(QString::fromStdString(name)).arg(v.first).arg(v.second);
    return out.join(QLatin1Char(' '));
}

QString describeType(const std::shared_ptr<const Profile> &p, size_t type)
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

QString times(const Timeline &t)
{
    QStringList out;
    t.forEach([&](size_t, int64_t nanos, uint32_t s, int64_t) { out << QStringLiteral("%1@%2").arg(s).arg(nanos); });
    return out.join(QLatin1Char(' '));
}

}   // namespace

void tst_Timeline::perfScriptTimes()
{
    const auto p = read(kPerf);
    QVERIFY(p->timeline);
    const Timeline &t = *p->timeline;
    QCOMPARE(t.size(), size_t(5));
    QCOMPARE(t.startNanos, int64_t(10000100000));
    QCOMPARE(t.spanNanos, int64_t(2600000000));
    QVERIFY(!t.wallClock);
    // Samples: 0 = prog 100/100 main;f, 1 = prog 100/101 main;g, 2 = other 200/200 main;g.
    QCOMPARE(times(t), QStringLiteral("0@0 1@249900000 0@500000000 0@1000100000 2@2600000000"));
    QCOMPARE(t.threadNames, (std::vector<std::string>{"prog 100/100", "prog 100/101", "other 200/200"}));
    QCOMPARE(t.threadOf(1), uint32_t(1));
    // Sample 0's records differ in their period (1000, 1000, 2000): the weights are kept.
    QCOMPARE(t.weight, (std::vector<int64_t>{1000, 3000, 1000, 2000, 1000}));
    // 8 bytes a record, 8 more for the weights.
    QCOMPARE(t.sample.size() + t.delta.size(), size_t(10));
}

void tst_Timeline::perfScriptHeatmap()
{
    const auto p = read(kPerf);
    HeatmapOptions o;
    o.type = size_t(p->findSampleType("samples"));
    // 1 s columns of 50 rows of 20 ms: 0 s -> 0:0, 0.2499 -> 0:12, 0.5 -> 0:25, 1.0001 -> 1:0, 2.6 -> 2:30.
    Heatmap h = computeHeatmap(*p, o);
    QCOMPARE(h.columns, size_t(3));
    QCOMPARE(cells(h), QStringLiteral("0:0=1 0:12=1 0:25=1 1:0=1 2:30=1"));
    QCOMPARE(h.cellStartNanos(2, 30), int64_t(2600000000));
    o.type = size_t(p->findSampleType("cpu-clock"));
    QCOMPARE(cells(computeHeatmap(*p, o)), QStringLiteral("0:0=1000 0:12=3000 0:25=1000 1:0=2000 2:30=1000"));
    o.threadRegex = "100/100";
    QCOMPARE(cells(computeHeatmap(*p, o)), QStringLiteral("0:0=1000 0:25=1000 1:0=2000"));
    // 500 ms columns of 5 rows of 100 ms: 0 -> 0:0, 0.2499 -> 0:2, 0.5 -> 1:0, 1.0001 -> 2:0, 2.6 -> 5:1.
    o.threadRegex.clear();
    o.columnNanos = 500000000;
    o.rows = 5;
    h = computeHeatmap(*p, o);
    QCOMPARE(h.columns, size_t(6));
    QCOMPARE(cells(h), QStringLiteral("0:0=1000 0:2=3000 1:0=1000 2:0=2000 5:1=1000"));
    QCOMPARE(h.maxValue, int64_t(3000));
}

void tst_Timeline::cpuProfileTimes()
{
    const auto p = read(kCpu);
    QVERIFY(p->timeline);
    const Timeline &t = *p->timeline;
    QCOMPARE(t.startNanos, int64_t(110000));
    QCOMPARE(t.spanNanos, int64_t(40000));
    QCOMPARE(t.threadNames, std::vector<std::string>{""});
    // 20 us columns of 4 rows of 5 us, cpu/nanoseconds (each sample's duration): main 5000 at 0 -> 0:0, a 5000
    // at 5 -> 0:1, a 20000 at 10 -> 0:2, the anonymous function 10000 at 30 -> 1:2, a 10000 at 40 -> 2:0.
    HeatmapOptions o;
    o.type = 1;
    o.columnNanos = 20000;
    o.rows = 4;
    QCOMPARE(cells(computeHeatmap(*p, o)), QStringLiteral("0:0=5000 0:1=5000 0:2=20000 1:2=10000 2:0=10000"));
    o.type = 0;
    QCOMPARE(cells(computeHeatmap(*p, o)), QStringLiteral("0:0=1 0:1=1 0:2=1 1:2=1 2:0=1"));
    // The old V8 form: absolute timestamps.
    const auto old = read(R"({"head":{"functionName":"(root\u0029","children":[{"functionName":"f","id":2,
        "children":[]}],"id":1},"startTime":1.0,"endTime":1.00005,"samples":[2,2],"timestamps":[1000010,1000030]})");
    QVERIFY(old->timeline);
    QCOMPARE(old->timeline->startNanos, int64_t(1000010000));
    QCOMPARE(times(*old->timeline), QStringLiteral("0@0 0@20000"));
}

void tst_Timeline::speedscopeTimes()
{
    // A sampled profile in milliseconds: sample i starts where the weights before it end: main;a at 0 (1.5 ms),
    // main;a;b at 1.5 (2), main;c at 3.5 (3), main;a;b at 6.5 (0.5). Either order of samples and weights.
    const char *samples = R"("samples":[[0,1],[0,1,2],[0,3],[0,1,2]])";
    const char *weights = R"("weights":[1.5,2,3,0.5])";
    for (const bool weightsFirst : {false, true}) {
        const std::string json = std::string(R"({"shared":{"frames":[{"name":"main"},{"name":"a"},{"name":"b"},)"
                                             R"({"name":"c"}]},"profiles":[{"type":"sampled","name":"cpu",)"
                                             R"("unit":"milliseconds","startValue":0,"endValue":7,)") +
                                 (weightsFirst ? weights : samples) + "," + (weightsFirst ? samples : weights) + "}]}";
        const auto p = read(json);
        QVERIFY(p->timeline);
        QCOMPARE(times(*p->timeline), QStringLiteral("0@0 1@1500000 2@3500000 1@6500000"));
        // 2 ms columns of two 1 ms rows: 0 -> 0:0, 1.5 -> 0:1, 3.5 -> 1:1, 6.5 -> 3:0, each its own weight.
        HeatmapOptions o;
        o.type = 1;
        o.columnNanos = 2000000;
        o.rows = 2;
        QCOMPARE(cells(computeHeatmap(*p, o)), QStringLiteral("0:0=1500000 0:1=2000000 1:1=3000000 3:0=500000"));
        // [1 ms, 4 ms): b's 2 ms at 1.5 and c's 3 ms at 3.5.
        const auto cut = profileInRange(p, TimeRange{1000000, 4000000});
        QCOMPARE(top(cut, "samples"), QStringLiteral("a=0/1 b=1/1 c=1/1 main=0/2"));
        QCOMPARE(describeType(cut, 1), QStringLiteral("a=0/2000000 b=2000000/2000000 c=3000000/3000000 main=0/5000000"));
    }
}

void tst_Timeline::rangeProfile()
{
    const auto p = read(kPerf);
    // [0.2 s, 1 s): thread 101's g (3000) at 0.2499 and thread 100's f (1000) at 0.5.
    auto cut = profileInRange(p, TimeRange{200000000, 1000000000});
    QCOMPARE(top(cut, "cpu-clock"), QStringLiteral("f=1000/1000 g=3000/3000 main=0/4000"));
    QCOMPARE(top(cut, "samples"), QStringLiteral("f=1/1 g=1/1 main=0/2"));
    QCOMPARE(cut->durationNanos, int64_t(800000000));
    QVERIFY(cut->timeline);
    // Its times keep the file's origin.
    QCOMPARE(cut->timeline->startNanos, p->timeline->startNanos);
    QCOMPARE(times(*cut->timeline), QStringLiteral("1@249900000 0@500000000"));
    // [1 s, 3 s): f's 2000 at 1.0001, other's g 1000 at 2.6; and of thread 200 alone, g.
    cut = profileInRange(p, TimeRange{1000000000, 3000000000});
    QCOMPARE(top(cut, "cpu-clock"), QStringLiteral("f=2000/2000 g=1000/1000 main=0/3000"));
    QCOMPARE(top(profileInRange(p, TimeRange{1000000000, 3000000000}, "^other"), "cpu-clock"),
             QStringLiteral("g=1000/1000 main=0/1000"));
    // The whole range is the whole profile.
    QCOMPARE(top(profileInRange(p, TimeRange{}), "cpu-clock"), top(p, "cpu-clock"));
    // .cpuprofile: [5 us, 30 us) holds a's two samples, 5000 + 20000 ns.
    const auto cpu = profileInRange(read(kCpu), TimeRange{5000, 30000});
    QCOMPARE(top(cpu, "cpu"), QStringLiteral("a=25000/25000 main=0/25000"));
    QCOMPARE(top(cpu, "samples"), QStringLiteral("a=2/2 main=0/2"));
}

void tst_Timeline::twoRangesDiff()
{
    const auto p = read(kPerf);
    // Before [0, 1 s): f 1000 + 1000, g 3000; after [1 s, 3 s): f 2000, g 1000.
    const auto d = diffTimeRanges(p, TimeRange{0, 1000000000}, TimeRange{1000000000, 3000000000},
                                  size_t(p->findSampleType("cpu-clock")));
    std::map<std::string, QString> byName;
    for (NodeId n = 1; n < d->size(); ++n)
        byName[d->label(n)] = QStringLiteral("%1->%2 %3").arg(d->beforeTotalRaw(n)).arg(d->afterTotalRaw(n))
                                  .arg(QString::fromLatin1(diffClassName(d->classOf(n))));
    // Counts are known (samples/count): g's 1 sample against 1 is within the noise of 2 standard errors.
    QVERIFY(d->hasSampleCounts());
    QCOMPARE(byName["main"].section(QLatin1Char(' '), 0, 0), QStringLiteral("5000->3000"));
    QCOMPARE(byName["f"], QStringLiteral("2000->2000 unchanged"));
    QCOMPARE(byName["g"].section(QLatin1Char(' '), 0, 0), QStringLiteral("3000->1000"));
    // |delta| 2000 against sqrt(3000^2/1 + 1000^2/1) * 2 = 6325: noise.
    QCOMPARE(byName["g"].section(QLatin1Char(' '), 1), QStringLiteral("noise"));
}

void tst_Timeline::cellUnion()
{
    const auto p = read(kPerf);
    HeatmapOptions o;
    o.type = size_t(p->findSampleType("cpu-clock"));
    const Heatmap h = computeHeatmap(*p, o);
    // Cells of 20 ms: 0:12 holds thread 101's g (3000) at 0.2499 s, 1:0 f (2000) at 1.0001, 2:30 other's g (1000).
    const TimeRanges cells{h.cellSpan(2, 30, 2, 30), h.cellSpan(0, 12, 0, 12), h.cellSpan(1, 0, 1, 0)};
    QCOMPARE(cells[1], (TimeRange{240000000, 260000000}));
    auto cut = profileInRanges(p, cells);
    QCOMPARE(top(cut, "cpu-clock"), QStringLiteral("f=2000/2000 g=4000/4000 main=0/6000"));
    QCOMPARE(top(cut, "samples"), QStringLiteral("f=1/1 g=2/2 main=0/3"));
    // Two cells of 20 ms; the third starts where the recording ends (its last record, at 2.6 s).
    QCOMPARE(cut->durationNanos, int64_t(40000000));
    QCOMPARE(times(*cut->timeline), QStringLiteral("1@249900000 0@1000100000 2@2600000000"));
    // From cell 0:40 to 1:5, either way round: [0.8 s, 1.12 s), f's 2000 at 1.0001.
    QCOMPARE(h.cellSpan(1, 5, 0, 40), (TimeRange{800000000, 1120000000}));
    // Overlapping and touching ranges are one: [0, 0.3) and [0.2, 0.5) and [0.5, 0.6) hold f at 0 and 0.5, g at 0.2499.
    QCOMPARE(timeRangeUnion({{500000000, 600000000}, {0, 300000000}, {200000000, 500000000}, {7, 7}}),
             (TimeRanges{{0, 600000000}}));
    // A cell taken out again: from its middle, its edge, or outside.
    QCOMPARE(timeRangeMinus({{0, 100}, {200, 300}}, {250, 260}), (TimeRanges{{0, 100}, {200, 250}, {260, 300}}));
    QCOMPARE(timeRangeMinus({{0, 100}, {200, 300}}, {50, 250}), (TimeRanges{{0, 50}, {250, 300}}));
    QCOMPARE(timeRangeMinus({{0, 100}}, {100, 200}), (TimeRanges{{0, 100}}));
    QCOMPARE(timeRangeMinus({{0, 100}}, {0, 100}), TimeRanges{});
    cut = profileInRanges(p, {{500000000, 600000000}, {0, 300000000}, {200000000, 500000000}});
    QCOMPARE(top(cut, "cpu-clock"), QStringLiteral("f=2000/2000 g=3000/3000 main=0/5000"));
    QCOMPARE(cut->durationNanos, int64_t(600000000));
    // Two unions compared: before {0:12, 2:30} g 3000 + 1000; after {0:0, 1:0} f 1000 + 2000.
    const auto d = diffTimeRanges(p, TimeRanges{cells[0], cells[1]}, TimeRanges{h.cellSpan(0, 0, 0, 0), cells[2]},
                                  o.type);
    std::map<std::string, QString> byName;
    for (NodeId n = 1; n < d->size(); ++n)
        byName[d->label(n)] = QStringLiteral("%1->%2").arg(d->beforeTotalRaw(n)).arg(d->afterTotalRaw(n));
    QCOMPARE(byName["g"], QStringLiteral("4000->0"));
    QCOMPARE(byName["f"], QStringLiteral("0->3000"));
}

void tst_Timeline::cellUnionRandom()
{
    // 2000 records at random times over 10 s on 3 threads, leaves a..e with random periods; random cells of a
    // 1 s x 50 heatmap picked; the union's top against sums made here from the records themselves.
    std::mt19937 rng(35);
    std::vector<int64_t> micros(2000);
    for (int64_t &m : micros)
        m = int64_t(rng() % 10000000);
    std::sort(micros.begin(), micros.end());
    micros.front() = 0;   // the origin: the heatmap's columns count from the first record
    QByteArray text;
    struct Record {
        int64_t micros, period;
        char leaf;
    };
    std::vector<Record> records;
    for (const int64_t m : micros) {
        const Record r{m, int64_t(1 + rng() % 1000), char('a' + rng() % 5)};
        records.push_back(r);
        const int tid = 100 + int(rng() % 3);
        text += "prog 100/" + QByteArray::number(tid) + " [000] " + QByteArray::number(5 + m / 1000000) + "." +
                QByteArray::number(m % 1000000).rightJustified(6, '0') + ": " + QByteArray::number(r.period) +
                " cpu-clock:\n\t1 " + QByteArray(1, r.leaf) + "+0x0 (/bin/p)\n\t2 main+0x0 (/bin/p)\n\n";
    }
    const auto p = read(text.toStdString());
    HeatmapOptions o;
    o.type = size_t(p->findSampleType("cpu-clock"));
    const Heatmap h = computeHeatmap(*p, o);
    for (int round = 0; round < 20; ++round) {
        TimeRanges picked;
        std::vector<std::pair<size_t, uint32_t>> cells;
        for (int k = 0; k < 1 + int(rng() % 40); ++k)
            cells.push_back({size_t(rng() % h.columns), uint32_t(rng() % 50)});
        for (const auto &[c, r] : cells)
            picked.push_back(h.cellSpan(c, r, c, r));
        std::map<char, int64_t> expected;
        int64_t total = 0;
        for (const Record &r : records)
            for (const auto &[c, row] : cells)
                // Cell c:row is [c s + row * 20 ms, + 20 ms); a record in a cell picked twice counts once.
                if (r.micros >= int64_t(c) * 1000000 + row * 20000 && r.micros < int64_t(c) * 1000000 + (row + 1) * 20000) {
                    expected[r.leaf] += r.period, total += r.period;
                    break;
                }
        QStringList rows;
        for (const auto &[leaf, v] : expected)
            rows << QStringLiteral("%1=%2/%2").arg(QLatin1Char(leaf)).arg(v);
        if (total)
            rows << QStringLiteral("main=0/%1").arg(total);
        QCOMPARE(top(profileInRanges(p, picked), "cpu-clock"), rows.join(QLatin1Char(' ')));
    }
}

void tst_Timeline::frontDoorCut()
{
    ReadOptions o;
    o.timeFrom = "0.2";
    o.timeTo = "1";
    QCOMPARE(top(read(kPerf, o), "cpu-clock"), QStringLiteral("f=1000/1000 g=3000/3000 main=0/4000"));
    o.timeFrom.clear();   // from the first sample
    QCOMPARE(top(read(kPerf, o), "cpu-clock"), QStringLiteral("f=2000/2000 g=3000/3000 main=0/5000"));
}

void tst_Timeline::refusals()
{
    const auto error = [](auto &&fn) {
        try {
            fn();
        } catch (const ProfileError &e) {
            return QString::fromUtf8(e.what());
        }
        return QString();
    };
    // perf script without the time field: no timeline.
    const auto untimed = read("prog 100/100 1000 cpu-clock:\n\t1000 f+0x0 (/bin/prog)\n");
    QVERIFY(!untimed->timeline);
    QCOMPARE(error([&] { profileInRange(untimed, TimeRange{}); }),
             QStringLiteral("in: the profile has no sample times, which a time range needs (perf script, Chrome "
                            ".cpuprofile and speedscope files have them, and pprof files whose samples have "
                            "timestamp labels)"));
    ReadOptions o;
    o.timeTo = "1";
    QCOMPARE(error([&] { read("prog 100/100 1000 cpu-clock:\n\t1000 f+0x0 (/bin/prog)\n", o); }),
             QStringLiteral("in: the profile has no sample times, which --from/--to needs (perf script, Chrome "
                            ".cpuprofile and speedscope files have them, and pprof files whose samples have "
                            "timestamp labels)"));
    const auto p = read(kPerf);
    QCOMPARE(error([&] { parseTimePoint(*p->timeline, "2026-12-04T11:00:00Z", "in"); }),
             QStringLiteral("in: '2026-12-04T11:00:00Z' is a clock time, but the file's sample times are not (give "
                            "seconds from the first sample)"));
    QCOMPARE(error([&] { parseTimePoint(*p->timeline, "soon", "in"); }),
             QStringLiteral("in: 'soon' is neither seconds from the first sample nor an RFC 3339 time"));
    QCOMPARE(error([&] { parseTimeRange(*p->timeline, std::string("2"), std::string("1"), "in"); }),
             QStringLiteral("in: the time range is empty (--from must be before --to)"));
    Timeline wall = *p->timeline;
    wall.wallClock = true;
    wall.startNanos = 1764846000000000000;   // 2025-12-04T11:00:00Z
    QCOMPARE(parseTimePoint(wall, "2025-12-04T11:00:01.5Z", "in"), int64_t(1500000000));
    QCOMPARE(parseTimePoint(wall, "2025-12-04T12:00:02+01:00", "in"), int64_t(2000000000));
    QCOMPARE(parseTimePoint(wall, "1.25", "in"), int64_t(1250000000));
    // RFC 3339 as the regex and the calendar take it: ' ' or 't' for 'T', 'z' for 'Z', negative offsets, days
    // before the first sample; days and times that do not exist are refused.
    QCOMPARE(parseTimePoint(wall, "2025-12-04 11:00:01-00:30", "in"), int64_t(1801000000000));
    QCOMPARE(parseTimePoint(wall, "2025-12-04t11:00:00.000000001z", "in"), int64_t(1));
    QCOMPARE(parseTimePoint(wall, "2025-12-03T11:00:00Z", "in"), int64_t(-86400000000000));
    // a leap day 644 days before: 366 to 2025-03-01, then 31+30+31+30+31+31+30+31+30 = 275 to 2025-12-01, and 3
    QCOMPARE(parseTimePoint(wall, "2024-02-29T11:00:00Z", "in"), int64_t(-(366 + 275 + 3) * 86400000000000LL));
    for (const char *missing : {"2025-02-29T00:00:00Z", "2025-12-04T24:00:00Z", "2025-13-01T00:00:00Z",
                                "2025-12-04T11:60:00Z", "2025-12-04T11:00:00+24:00", "2025-04-31T00:00:00Z"})
        QCOMPARE(error([&] { parseTimePoint(wall, missing, "in"); }),
                 QStringLiteral("in: '%1' is neither seconds from the first sample nor an RFC 3339 time")
                     .arg(QLatin1String(missing)));
    HeatmapOptions h;
    h.columnNanos = 1;
    QVERIFY(error([&] { computeHeatmap(*p, h); }).contains(QStringLiteral("choose wider columns")));
}

QTEST_GUILESS_MAIN(tst_Timeline)
#include "tst_timeline.moc"
