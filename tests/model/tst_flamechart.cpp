// The flame chart (model/time/FlameChart): hand-made perf scripts with the boxes worked out here, sample by
// sample: equal consecutive frames merged, a frame that changes only deeper, gaps, several threads as lanes; and
// the levels of detail against the merging rule applied in the test to the exact boxes.
#include "formats/ProfileInput.h"
#include "time/FlameChart.h"
#include "time/Timeline.h"

#include <QTest>

#include <random>

using namespace qflame;

class tst_FlameChart : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void mergesEqualFramesAndDeeperChanges();
    void gapsBreakBoxes();
    void threadsAreLanes();
    void levelsByHand();
    void levelsAgainstMerging();
    void exactQueryWindow();
    void filtersAndGranularity();
};

namespace {

constexpr int64_t kMs = 1000000;

// A perf script record of thread `tid` (comm "prog", pid 100) at `ms` milliseconds after 10 s, stack root first.
QByteArray record(int tid, double ms, const QList<QByteArray> &rootFirst)
{
    QByteArray r = "prog 100/" + QByteArray::number(tid) + " [000] " + QByteArray::number(10.0 + ms / 1000.0, 'f', 6) +
                   ": 1000 cpu-clock:\n";
    for (qsizetype i = rootFirst.size(); i-- > 0;)
        r += "\t" + QByteArray::number(0x1000 + i, 16) + " " + rootFirst[i] + "+0x0 (/bin/prog)\n";
    return r + "\n";
}

std::shared_ptr<const Profile> read(const QByteArray &text)
{
    return readProfile(std::string_view(text.constData(), size_t(text.size())), "chart.perf");
}

// "depth label start end" per box, times in ms, "~" for a merged box: readable when a comparison fails.
QStringList describe(const FlameChart &c, const std::vector<FlameBox> &boxes)
{
    QStringList out;
    for (const FlameBox &b : boxes)
        out << QStringLiteral("%1 %2 %3-%4")
                   .arg(b.depth)
                   .arg(b.node == FlameChart::kMerged ? QStringLiteral("~") : QString::fromStdString(c.label(b.node)))
                   .arg(double(b.start) / kMs)
                   .arg(double(b.end) / kMs);
    return out;
}

QStringList queried(const FlameChart &c, size_t lane, int64_t from, int64_t to, double nanosPerPixel)
{
    std::vector<FlameBox> boxes;
    c.query(lane, from, to, nanosPerPixel, boxes);
    return describe(c, boxes);
}

// The levels' rule, applied here to the exact boxes: at width w, the boxes of at least w stay; at each depth
// the others, in time order, merge while the next starts less than w after the merged box ends.
std::vector<FlameBox> mergedAt(std::vector<FlameBox> exact, int64_t w, int64_t from, int64_t to)
{
    std::vector<FlameBox> out;
    std::optional<FlameBox> open;
    uint32_t depth = UINT32_MAX;
    const auto flush = [&] {
        if (open && open->end > from && open->start < to)
            out.push_back(*open);
        open.reset();
    };
    for (const FlameBox &b : exact) {   // by depth, then time
        if (b.depth != depth)
            flush(), depth = b.depth;
        if (b.end - b.start >= w) {
            flush();
            if (b.end > from && b.start < to)
                out.push_back(b);
        } else if (open && b.start - open->end < w) {
            open->end = std::max(open->end, b.end);
        } else {
            flush();
            open = FlameBox{b.start, b.end, b.depth, FlameChart::kMerged};
        }
    }
    flush();
    return out;
}

}   // namespace

void tst_FlameChart::mergesEqualFramesAndDeeperChanges()
{
    // 1 ms apart: main;a;x twice, main;a;y, main;b;y twice, main;a;x. The last lasts one interval (1 ms).
    const QList<QList<QByteArray>> stacks = {{"main", "a", "x"}, {"main", "a", "x"}, {"main", "a", "y"},
                                             {"main", "b", "y"}, {"main", "b", "y"}, {"main", "a", "x"}};
    QByteArray text;
    for (int i = 0; i < stacks.size(); ++i)
        text += record(1, i, stacks[i]);
    const auto chart = FlameChart::build(read(text));
    QCOMPARE(chart->intervalNanos(), kMs);   // the median step
    QCOMPARE(chart->gapNanos(), 10 * kMs);
    QCOMPARE(chart->lanes().size(), size_t(1));
    QCOMPARE(chart->lanes()[0].depth, uint32_t(3));
    QCOMPARE(chart->lanes()[0].name, std::string("prog 100/1"));
    const auto boxes = chart->allBoxes(0);
    QCOMPARE(describe(*chart, boxes), QStringList({"0 main 0-6", "1 a 0-3", "1 b 3-5", "1 a 5-6", "2 x 0-2", "2 y 2-3",
                                                   "2 y 3-5", "2 x 5-6"}));
    // The two y are different calls (under a, under b); the two a at depth 1 are the same call path.
    QVERIFY(boxes[5].node != boxes[6].node);
    QCOMPARE(boxes[1].node, boxes[3].node);
    QCOMPARE(chart->label(chart->parent(boxes[6].node)), std::string("b"));
    QCOMPARE(chart->nodeDepth(boxes[7].node), uint32_t(3));
    QCOMPARE(chart->endNanos(), 6 * kMs);
    // The sample under a time, and its path.
    QCOMPARE(chart->sampleAt(0, 3 * kMs + 500), int64_t(3));
    QCOMPARE(chart->label(chart->sampleNode(0, 3)), std::string("y"));
    QCOMPARE(chart->sampleAt(0, -1), int64_t(-1));
}

void tst_FlameChart::gapsBreakBoxes()
{
    // main;f at 0, 1, 2 ms, then at 30 and 31 ms; main;g at 31.5 ms.
    QByteArray text;
    for (double ms : {0.0, 1.0, 2.0, 30.0, 31.0})
        text += record(1, ms, {"main", "f"});
    text += record(1, 31.5, {"main", "g"});
    const auto profile = read(text);
    // The interval is the median step (1, 1, 28, 1, 0.5 ms: 1 ms), the gap ten times that: 28 ms breaks every box,
    // and a sample before a gap lasts one interval.
    auto chart = FlameChart::build(profile);
    QCOMPARE(chart->gapNanos(), 10 * kMs);
    QCOMPARE(describe(*chart, chart->allBoxes(0)),
             QStringList({"0 main 0-3", "0 main 30-32.5", "1 f 0-3", "1 f 30-31.5", "1 g 31.5-32.5"}));
    // A chosen gap of 30 ms bridges it: the sample at 2 ms lasts until the next.
    FlameChartOptions wide;
    wide.gapNanos = 30 * kMs;
    chart = FlameChart::build(profile, wide);
    QCOMPARE(describe(*chart, chart->allBoxes(0)), QStringList({"0 main 0-32.5", "1 f 0-31.5", "1 g 31.5-32.5"}));
    // A chosen interval of 0.4 ms and gap of 0.6 ms: every sample alone but the last two, 0.5 ms apart.
    FlameChartOptions narrow;
    narrow.gapNanos = 600000;
    narrow.intervalNanos = 400000;
    chart = FlameChart::build(profile, narrow);
    QCOMPARE(describe(*chart, chart->allBoxes(0)),
             QStringList({"0 main 0-0.4", "0 main 1-1.4", "0 main 2-2.4", "0 main 30-30.4", "0 main 31-31.9",
                          "1 f 0-0.4", "1 f 1-1.4", "1 f 2-2.4", "1 f 30-30.4", "1 f 31-31.5", "1 g 31.5-31.9"}));
}

void tst_FlameChart::threadsAreLanes()
{
    // Threads 1 and 2 interleaved every 0.5 ms, each sampled every 1 ms; thread 3 left out by the regex. Lanes
    // come busiest first, ties in the file's order.
    QByteArray text;
    for (int i = 0; i < 4; ++i) {
        text += record(1, i, {"main", i < 2 ? "p" : "q"});
        text += record(2, i + 0.5, {"worker", "run", i == 3 ? "io" : "cpu"});
        text += record(3, i + 0.25, {"other"});
    }
    FlameChartOptions options;
    options.threadRegex = "/[12]$";
    const auto chart = FlameChart::build(read(text), options);
    QCOMPARE(chart->lanes().size(), size_t(2));
    QCOMPARE(chart->lanes()[0].name, std::string("prog 100/1"));
    QCOMPARE(chart->lanes()[1].name, std::string("prog 100/2"));
    QCOMPARE(chart->lanes()[1].samples, size_t(4));
    QCOMPARE(chart->intervalNanos(), kMs);   // per thread, not between the threads' samples
    QCOMPARE(describe(*chart, chart->allBoxes(0)), QStringList({"0 main 0-4", "1 p 0-2", "1 q 2-4"}));
    QCOMPARE(describe(*chart, chart->allBoxes(1)),
             QStringList({"0 worker 0.5-4.5", "1 run 0.5-4.5", "2 cpu 0.5-3.5", "2 io 3.5-4.5"}));
    QCOMPARE(chart->lanes()[1].start, 500000);
    QCOMPARE(chart->lanes()[1].end, 4500000);
    // Without the regex, thread 3 with a fifth sample is the busiest: the first lane.
    text += record(3, 4.25, {"other"});
    const auto all = FlameChart::build(read(text));
    QCOMPARE(all->lanes().size(), size_t(3));
    QCOMPARE(all->lanes()[0].name, std::string("prog 100/3"));
    QCOMPARE(all->lanes()[1].name, std::string("prog 100/1"));
    QCOMPARE(all->lanes()[2].name, std::string("prog 100/2"));
}

void tst_FlameChart::levelsByHand()
{
    // 1 ms steps: main;long 0..9 ms, main;s1 10, main;s2 11, main;s3 15 and 16, main;s4 30. The gap is 2 ms, so
    // main is [0, 12), [15, 17), [30, 31). Level widths: 8 ms, then 32 ms (past the 31 ms recorded).
    QByteArray text;
    for (int i = 0; i < 10; ++i)
        text += record(1, i, {"main", "long"});
    text += record(1, 10, {"main", "s1"}) + record(1, 11, {"main", "s2"}) + record(1, 15, {"main", "s3"}) +
            record(1, 16, {"main", "s3"}) + record(1, 30, {"main", "s4"});
    FlameChartOptions options;
    options.intervalNanos = kMs;
    options.gapNanos = 2 * kMs;
    const auto chart = FlameChart::build(read(text), options);
    QCOMPARE(chart->levels(), size_t(2));
    QCOMPARE(chart->width(1), 8 * kMs);
    QCOMPARE(chart->width(2), 32 * kMs);
    QCOMPARE(chart->levelFor(7.9e6), size_t(0));
    QCOMPARE(chart->levelFor(8e6), size_t(1));
    QCOMPARE(chart->levelFor(1e9), size_t(2));
    QCOMPARE(queried(*chart, 0, 0, 31 * kMs, 1e5),
             QStringList({"0 main 0-12", "0 main 15-17", "0 main 30-31", "1 long 0-10", "1 s1 10-11", "1 s2 11-12",
                          "1 s3 15-17", "1 s4 30-31"}));
    // Level 1: main's first box and long are 8 ms or more; s1, s2 and s3 are less than 8 ms apart, s4 is not.
    QCOMPARE(queried(*chart, 0, 0, 31 * kMs, 8e6),
             QStringList({"0 main 0-12", "0 ~ 15-17", "0 ~ 30-31", "1 long 0-10", "1 ~ 10-17", "1 ~ 30-31"}));
    // Level 2: nothing is 32 ms, and every distance is less.
    QCOMPARE(queried(*chart, 0, 0, 31 * kMs, 5e7), QStringList({"0 ~ 0-31", "1 ~ 0-31"}));
    // Only what overlaps the range.
    QCOMPARE(queried(*chart, 0, 12 * kMs, 15 * kMs, 8e6), QStringList({"1 ~ 10-17"}));
}

void tst_FlameChart::levelsAgainstMerging()
{
    // Two threads of random stacks (a fixed seed): phases of 1 to 40 samples under one of three handlers, their
    // leaves changing every sample or staying, pauses of 3 to 60 ms between some phases.
    std::mt19937 rng(35);
    QByteArray text;
    const QList<QByteArray> handlers = {"parse", "compute", "write"}, leaves = {"hash", "copy", "alloc", "lock"};
    for (int tid = 1; tid <= 2; ++tid) {
        double ms = tid * 0.3;
        for (int phase = 0; phase < 150; ++phase) {
            const QByteArray handler = handlers[int(rng() % 3)];
            const int length = 1 + int(rng() % 40);
            const bool steady = rng() % 2;
            QByteArray leaf = leaves[int(rng() % 4)];
            for (int i = 0; i < length; ++i, ms += 1) {
                if (!steady)
                    leaf = leaves[int(rng() % 4)];
                text += record(tid, ms, rng() % 8 ? QList<QByteArray>{"main", "loop", handler, leaf}
                                                  : QList<QByteArray>{"main", "loop", handler});
            }
            if (rng() % 4 == 0)
                ms += 3 + double(rng() % 58);
        }
    }
    FlameChartOptions options;
    options.intervalNanos = kMs;
    const auto chart = FlameChart::build(read(text), options);
    QCOMPARE(chart->lanes().size(), size_t(2));
    QVERIFY(chart->levels() >= 4);
    for (size_t lane = 0; lane < 2; ++lane) {
        const std::vector<FlameBox> exact = chart->allBoxes(lane);
        QVERIFY(exact.size() > 1000);
        const int64_t end = chart->lanes()[lane].end;
        // Level 0 at half level 1's width: the boxes in view, those narrower than that merged by the same rule.
        const int64_t half = chart->width(1) / 2;
        for (const auto &[from, to] : {std::pair<int64_t, int64_t>{0, end}, {end / 4, end / 2}}) {
            std::vector<FlameBox> got, inView;
            chart->query(lane, from, to, double(half), got);
            for (const FlameBox &b : exact)
                if (b.end > from && b.start < to)
                    inView.push_back(b);
            const auto expected = mergedAt(inView, half, from, to);
            QVERIFY(expected.size() < inView.size());   // some merged
            QCOMPARE(describe(*chart, got), describe(*chart, expected));
        }
        for (size_t level = 1; level <= chart->levels(); ++level) {
            const int64_t w = chart->width(level);
            for (const auto &[from, to] : {std::pair<int64_t, int64_t>{0, end}, {end / 3, end / 3 + 50 * kMs},
                                           {end / 2 + 12345, end / 2 + 5 * w}}) {
                std::vector<FlameBox> got;
                chart->query(lane, from, to, double(w) * 1.5, got);
                const auto expected = mergedAt(exact, w, from, to);
                QCOMPARE(describe(*chart, got), describe(*chart, expected));
                QVERIFY(got == expected);
            }
        }
    }
}

void tst_FlameChart::exactQueryWindow()
{
    // The exact level in windows of every size and place equals the exact boxes that overlap them: boxes cut by
    // the samples taken around the window come whole.
    std::mt19937 rng(7);
    QByteArray text;
    double ms = 0;
    const QList<QByteArray> names = {"a", "b", "c"};
    for (int i = 0; i < 3000; ++i, ms += 1 + (rng() % 50 == 0 ? 5 : 0)) {
        QList<QByteArray> stack = {"main"};
        for (int d = 0, depth = 1 + int(rng() % 4); d < depth; ++d)
            stack << names[int(rng() % (i % 200 < 100 ? 1 : 3))];
        text += record(1, ms, stack);
    }
    FlameChartOptions options;
    options.intervalNanos = kMs;
    const auto chart = FlameChart::build(read(text), options);
    const std::vector<FlameBox> exact = chart->allBoxes(0);
    const int64_t end = chart->lanes()[0].end;
    for (int k = 0; k < 200; ++k) {
        const int64_t from = int64_t(rng() % uint64_t(end)) - 5 * kMs, to = from + 1 + int64_t(rng() % uint64_t(40 * kMs));
        std::vector<FlameBox> got, expected;
        chart->query(0, from, to, 1000.0, got);
        for (const FlameBox &b : exact)
            if (b.end > from && b.start < to)
                expected.push_back(b);
        QVERIFY2(got == expected, qPrintable(QStringLiteral("[%1, %2)").arg(from).arg(to)));
    }
}

void tst_FlameChart::filtersAndGranularity()
{
    // The flamegraph's filters: --hide drops a frame from the stacks, --focus leaves other samples out (they end
    // every box, as a sample of nothing).
    QByteArray text = record(1, 0, {"main", "a", "x"}) + record(1, 1, {"main", "a", "y"}) + record(1, 2, {"main", "b"}) +
                      record(1, 3, {"main", "a", "x"});
    FlameChartOptions hide;
    hide.intervalNanos = kMs;
    hide.build.filters.hide = "^a$";
    auto chart = FlameChart::build(read(text), hide);
    QCOMPARE(describe(*chart, chart->allBoxes(0)),
             QStringList({"0 main 0-4", "1 x 0-1", "1 y 1-2", "1 b 2-3", "1 x 3-4"}));
    FlameChartOptions focus;
    focus.intervalNanos = kMs;
    focus.build.filters.focus = "^a$";
    chart = FlameChart::build(read(text), focus);
    QCOMPARE(describe(*chart, chart->allBoxes(0)),
             QStringList({"0 main 0-2", "0 main 3-4", "1 a 0-2", "1 a 3-4", "2 x 0-1", "2 y 1-2", "2 x 3-4"}));
    // Without a timeline there is no chart.
    QVERIFY_THROWS_EXCEPTION(ProfileError, FlameChart::build(readProfile("main;f 3\n", "prog.folded")));
}

QTEST_MAIN(tst_FlameChart)
#include "tst_flamechart.moc"
