// The Time tab's flame chart (ui/time/FlameChartView) and how the tab's views follow each other (TimePane): the
// pointer's box and its text, a click selecting the function in the range's flamegraph, the wheel's zoom down to
// a microsecond, a heatmap range zooming the chart and a range dragged on the chart's axis selecting it in the
// heatmap, a Shift+drag's second range shown as the model's diff, the search dimming the chart. With
// QFLAME_SCREENSHOT_DIR set, a real `perf record` of a program built here is shown and saved there as
// time-tab.png and time-diff.png.
#include "RunProgram.h"
#include "compare/DiffView.h"
#include "controls/SearchBar.h"
#include "flame/FlameGraphWidget.h"
#include "flame/FlameView.h"
#include "formats/ProfileInput.h"
#include "time/FlameChartView.h"
#include "time/RangeDiff.h"
#include "time/TimeChart.h"
#include "time/Timeline.h"
#include "time/TimePane.h"
#include "tree/CallTree.h"

#include <QApplication>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>

using namespace qflame;
using qflame::test::runProgram;

class tst_FlameChartView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void boxesTextAndClick();
    void wheelZoomsToAMicrosecond();
    void viewsFollowEachOther();
    void secondRangeIsADiff();
    void realPerfRecording();
};

namespace {

// Thread 1: main;run;parse every 10 ms from 0 to 0.99 s, then main;run;write to 1.99 s; thread 2: main;idle at
// 0.5 s and 1.5 s only.
QByteArray script()
{
    QByteArray text;
    for (int i = 0; i < 200; ++i) {
        const QByteArray leaf = i < 100 ? "parse" : "write";
        text += "prog 100/1 [000] " + QByteArray::number(10.0 + i * 0.01, 'f', 6) + ": 1000 cpu-clock:\n\t1002 " + leaf +
                "+0x0 (/bin/prog)\n\t1001 run+0x0 (/bin/prog)\n\t1000 main+0x0 (/bin/prog)\n\n";
    }
    for (double t : {10.5, 11.5})
        text += "prog 100/2 [001] " + QByteArray::number(t, 'f', 6) +
                ": 1000 cpu-clock:\n\t1003 idle+0x0 (/bin/prog)\n\t1000 main+0x0 (/bin/prog)\n\n";
    return text;
}

std::shared_ptr<const Profile> read(const QByteArray &text, const char *name = "prog.perf")
{
    return readProfile(std::string_view(text.constData(), size_t(text.size())), name);
}

bool waitIdle(const TimePane &pane)
{
    return QTest::qWaitFor([&] { return !pane.busy(); }, 60000);
}

// The y of a lane's row in the chart.
int rowY(const FlameChartView &view, size_t lane, int depth)
{
    return FlameChartPainter::kAxisHeight + const_cast<FlameChartView &>(view).painter().laneTop(lane) +
           FlameChartPainter::kLaneHeader + depth * FlameChartPainter::kRowHeight + FlameChartPainter::kRowHeight / 2;
}

}   // namespace

void tst_FlameChartView::boxesTextAndClick()
{
    const auto profile = read(script());
    FlameChartView view;
    view.resize(1000, 300);
    view.setChart(FlameChart::build(profile));
    QCOMPARE(view.viewFrom(), 0.0);
    QCOMPARE(view.viewTo(), 2e9);   // thread 1's last sample at 1.99 s lasts one interval (10 ms)
    // x 250 is 0.5 s: thread 1's parse at depth 2 (0 to 1 s), thread 2's idle at depth 1 (0.5 to 0.51 s).
    const QString parse = view.describeAt(QPoint(250, rowY(view, 0, 2)));
    QVERIFY2(parse.startsWith(QStringLiteral("parse\n1 s, 0.000000 to 1.000000 s\nprog 100/1, depth 3")), qPrintable(parse));
    QVERIFY(view.describeAt(QPoint(750, rowY(view, 0, 2))).startsWith(QStringLiteral("write\n")));
    QVERIFY(view.describeAt(QPoint(250, rowY(view, 1, 1))).startsWith(QStringLiteral("idle\n10 ms, 0.500000 to 0.510000 s")));
    QVERIFY(view.describeAt(QPoint(600, rowY(view, 1, 1))).isEmpty());   // thread 2 sleeps
    QSignalSpy clicked(&view, &FlameChartView::boxClicked);
    QVERIFY(view.clickAt(QPoint(750, rowY(view, 0, 1))));
    QCOMPARE(clicked.size(), 1);
    QCOMPARE(clicked[0][0].toString(), QStringLiteral("run"));
    QCOMPARE(clicked[0][1].toLongLong(), 0);
    QCOMPARE(clicked[0][2].toLongLong(), 2000000000);
}

void tst_FlameChartView::wheelZoomsToAMicrosecond()
{
    const auto profile = read(script());
    FlameChartView view;
    view.resize(1000, 300);
    view.show();
    view.setChart(FlameChart::build(profile));
    QSignalSpy changed(&view, &FlameChartView::viewChanged);
    // Zoom in around x 250 (0.5 s): the time under the pointer stays under it.
    const auto wheel = [&](int delta) {
        QWheelEvent e(QPointF(250, 100), view.mapToGlobal(QPointF(250, 100)), {}, QPoint(0, delta), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(&view, &e);
    };
    wheel(120);
    QCOMPARE(changed.size(), 1);
    QVERIFY(qAbs(view.viewFrom() + 0.25 * (view.viewTo() - view.viewFrom()) - 5e8) < 1);
    QVERIFY(qAbs(view.viewTo() - view.viewFrom() - 1.6e9) < 1);
    for (int i = 0; i < 200; ++i)
        wheel(120);
    QCOMPARE(view.viewTo() - view.viewFrom(), FlameChartView::kMinSpanNanos);
    QVERIFY(qAbs(view.viewFrom() - (5e8 - 250)) < 1);
    // Zoomed in to a microsecond, the box under the pointer is still parse.
    QVERIFY(view.describeAt(QPoint(250, rowY(view, 0, 2))).startsWith(QStringLiteral("parse\n")));
    for (int i = 0; i < 200; ++i)
        wheel(-120);
    QCOMPARE(view.viewFrom(), 0.0);
    QCOMPARE(view.viewTo(), 2e9);
    // The keys: + zooms to 0.8 of the span around the middle, Left pans by a tenth, - zooms back, 0 shows all.
    QTest::keyClick(&view, Qt::Key_Plus);
    QCOMPARE(view.viewFrom(), 2e8);
    QCOMPARE(view.viewTo(), 1.8e9);
    QTest::keyClick(&view, Qt::Key_Left);
    QVERIFY(qAbs(view.viewFrom() - 4e7) < 1);
    QVERIFY(qAbs(view.viewTo() - 1.64e9) < 1);
    QTest::keyClick(&view, Qt::Key_Minus);
    QVERIFY(qAbs(view.viewTo() - view.viewFrom() - 2e9) < 1);
    QTest::keyClick(&view, Qt::Key_Right);
    QTest::keyClick(&view, Qt::Key_0);
    QCOMPARE(view.viewFrom(), 0.0);
    QCOMPARE(view.viewTo(), 2e9);
}

void tst_FlameChartView::viewsFollowEachOther()
{
    const auto profile = read(script());
    TimePane pane;
    pane.resize(1000, 700);
    pane.show();
    pane.setInputs({profile}, profile->findSampleType("cpu-clock"), {});
    QVERIFY(waitIdle(pane));
    QVERIFY(pane.flameChart()->chart());
    // The heatmap's column 1 ([1, 2) s): the chart shows that time, the flamegraph holds only write.
    pane.chart()->selectColumns(1, 1);
    QVERIFY(waitIdle(pane));
    QCOMPARE(pane.flameChart()->viewFrom(), 1e9);
    QCOMPARE(pane.flameChart()->viewTo(), 2e9);
    const CallTree *tree = pane.flameView()->graph()->tree();
    QVERIFY(tree);
    QCOMPARE(tree->total(CallTree::kRoot), int64_t(101000));   // 100 writes and one idle, 1000 each
    // A range dragged on the chart's axis: [0.25, 0.75) s, its flamegraph parse and idle only.
    FlameChartView *chart = pane.flameChart();
    chart->setView(0, 2e9);
    const int w = chart->width();
    const int x0 = qRound(w * 0.1275), x1 = qRound(w * 0.3725);   // about 0.255 and 0.745 s
    QTest::mousePress(chart, Qt::LeftButton, {}, QPoint(x0, 5));
    QTest::mouseMove(chart, QPoint(x1, 5));
    QTest::mouseRelease(chart, Qt::LeftButton, {}, QPoint(x1, 5));
    QVERIFY(waitIdle(pane));
    tree = pane.flameView()->graph()->tree();
    QCOMPARE(tree->total(CallTree::kRoot), int64_t(50000));   // parse at 0.26 ... 0.74 s, idle at 0.5 s
    // A click on a box outlines its function in the range's flamegraph.
    QVERIFY(chart->clickAt(QPoint(w / 4, rowY(*chart, 0, 2))));
    QCOMPARE(pane.selectedFunction(), QStringLiteral("parse"));
    const FlameGraphWidget *graph = pane.flameView()->graph();
    QVERIFY(graph->tree());
    QVERIFY(!chart->clickAt(QPoint(w / 4, rowY(*chart, 1, 2))));   // below the last lane's deepest row: nothing
    QCOMPARE(pane.selectedFunction(), QStringLiteral("parse"));
    // The search dims the chart's other frames: its matches are the chart's frames named like the pattern.
    pane.setSearch(QStringLiteral("^pa"), Qt::CaseSensitive);
    QVERIFY(chart->painter().hasMatches());
    QVERIFY(!graph->matches().empty());
    pane.setSearch(QString(), Qt::CaseSensitive);
    QVERIFY(!chart->painter().hasMatches());
}

void tst_FlameChartView::secondRangeIsADiff()
{
    const auto profile = read(script());
    TimePane pane;
    pane.resize(1000, 700);
    pane.show();
    const int type = profile->findSampleType("cpu-clock");
    pane.setInputs({profile}, type, {});
    QVERIFY(waitIdle(pane));
    pane.chart()->selectColumns(0, 0);
    QVERIFY(waitIdle(pane));
    QVERIFY(!pane.showsDiff());
    pane.chart()->selectSecondColumns(1, 1);
    QVERIFY(waitIdle(pane));
    QVERIFY(pane.showsDiff());
    // The model's diff of the same two ranges, per second.
    DiffOptions options;
    options.normalization = Normalization::PerSecond;
    const auto expected = diffTimeRanges(profile, {0, 1000000000}, {1000000000, 2000000000}, size_t(type), {}, options);
    const DiffTree *shown = pane.diffView()->diff();
    QVERIFY(shown);
    QCOMPARE(shown->size(), expected->size());
    QCOMPARE(shown->before().tree->total(CallTree::kRoot), int64_t(101000));   // 100 parses, one idle
    QCOMPARE(shown->after().tree->total(CallTree::kRoot), int64_t(101000));
    // The tab's search reaches the diff: its flamegraph keeps parse's frame and dims the rest, as its own search
    // bar does; case-insensitive too; cleared with the pattern.
    const auto matched = [&] {
        const FlameView *v = pane.diffView()->diffGraph();
        const std::vector<uint8_t> &m = v->graph()->matches();
        QStringList names;
        for (FrameId f = 1; f < m.size(); ++f)
            if (m[f])
                names << QString::fromStdString(pane.diffView()->shownDiff()->frames().label(f));
        names.sort();
        return names.join(QLatin1Char(','));
    };
    pane.setSearch(QStringLiteral("^(parse|write)$"), Qt::CaseSensitive);
    QCOMPARE(matched(), QStringLiteral("parse,write"));
    QVERIFY(!pane.diffView()->searchBar()->isVisible());   // one search field: the tab's
    pane.setSearch(QStringLiteral("IDLE"), Qt::CaseInsensitive);
    QCOMPARE(matched(), QStringLiteral("idle"));
    QCOMPARE(pane.diffView()->beforeGraph()->graph()->matches().size(), pane.diffView()->shownDiff()->before().tree->frames().size());
    pane.setSearch(QString(), Qt::CaseSensitive);
    QVERIFY(pane.diffView()->diffGraph()->graph()->matches().empty());
    // A search set before the comparison applies to it when it comes.
    pane.setSearch(QStringLiteral("write"), Qt::CaseSensitive);
    pane.chart()->selectColumns(0, 0);
    QVERIFY(waitIdle(pane));
    pane.chart()->selectSecondColumns(1, 1);
    QVERIFY(waitIdle(pane));
    QCOMPARE(matched(), QStringLiteral("write"));
    pane.setSearch(QString(), Qt::CaseSensitive);
    // A new plain drag leaves the comparison.
    pane.chart()->selectColumns(1, 1);
    QVERIFY(waitIdle(pane));
    QVERIFY(!pane.showsDiff());
}

namespace {

// Three threads with phases that a flame chart tells apart and a flamegraph sums away: a parser that pauses
// every fifth record batch, a packer that hashes then compresses and sleeps once for 0.6 s, and the main
// thread's checkpoint burst in the middle.
constexpr const char *kProgram = R"(#include <atomic>
#include <chrono>
#include <pthread.h>
#include <thread>
std::atomic<long> sink;
static double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
__attribute__((noinline)) long parseRecord(long x) { for (int i = 0; i < 3000; ++i) x ^= x << 7, x ^= x >> 9; return x; }
__attribute__((noinline)) long validate(long x) { for (int i = 0; i < 3000; ++i) x = x * 31 + (x >> 3); return x; }
__attribute__((noinline)) long hashBlock(long x) { for (int i = 0; i < 3000; ++i) x ^= x << 13, x ^= x >> 7; return x; }
__attribute__((noinline)) long compressBlock(long x) { for (int i = 0; i < 3000; ++i) x = x * 6364136223846793005L + 1; return x; }
__attribute__((noinline)) void busyFor(long (*f)(long), double seconds) {
    const double end = now() + seconds; long x = 1;
    while (now() < end) x += f(x);
    sink += x;
}
__attribute__((noinline)) void ingest() { busyFor(parseRecord, 0.06); busyFor(validate, 0.025); }
__attribute__((noinline)) void pack() { busyFor(hashBlock, 0.04); busyFor(compressBlock, 0.08); }
__attribute__((noinline)) void checkpoint() { busyFor(compressBlock, 0.7); busyFor(hashBlock, 0.3); }
void parser() {
    pthread_setname_np(pthread_self(), "parser");
    for (int i = 0; i < 60; ++i) { ingest(); if (i % 5 == 4) std::this_thread::sleep_for(std::chrono::milliseconds(180)); }
}
void packer() {
    pthread_setname_np(pthread_self(), "packer");
    for (int i = 0; i < 55; ++i) { pack(); if (i == 20) std::this_thread::sleep_for(std::chrono::milliseconds(600)); }
}
int main() {
    std::thread a(parser), b(packer);
    std::this_thread::sleep_for(std::chrono::milliseconds(3000));
    checkpoint();
    a.join(); b.join();
}
)";

}   // namespace

void tst_FlameChartView::realPerfRecording()
{
    const QString perf = QStandardPaths::findExecutable(QStringLiteral("perf"));
    const QString gxx = QStandardPaths::findExecutable(QStringLiteral("g++"));
    if (perf.isEmpty() || gxx.isEmpty())
        QSKIP("perf (linux-perf) or g++ is not installed");
    QTemporaryDir dir;
    QFile src(dir.filePath(QStringLiteral("prog.cpp")));
    QVERIFY(src.open(QIODevice::WriteOnly) && src.write(kProgram) > 0);
    src.close();
    int code = 0;
    QString errors;
    runProgram(gxx, {"-O1", "-fno-omit-frame-pointer", "-pthread", "-o", "prog", "prog.cpp"}, dir.path(), &code, &errors);
    QVERIFY2(code == 0, qPrintable(errors));
    runProgram(perf, {"record", "--call-graph", "fp", "-F", "999", "-o", "perf.data", "./prog"}, dir.path(), &code, &errors);
    if (code != 0 && (errors.contains(QLatin1String("perf_event_paranoid")) || errors.contains(QLatin1String("ermission")) ||
                      errors.contains(QLatin1String("not permitted"))))
        QSKIP(qPrintable(QStringLiteral("perf events are not permitted here: ") + errors.left(200)));
    QVERIFY2(code == 0, qPrintable(errors));
    const QByteArray text = runProgram(perf, {"script", "-i", "perf.data"}, dir.path(), &code).toUtf8();
    QCOMPARE(code, 0);
    const auto profile = read(text, "prog.perf");
    QVERIFY(profile->timeline);
    const auto built = FlameChart::build(profile);
    // The three threads are lanes, and every sample of the recording is in one.
    QStringList lanes;
    size_t samples = 0;
    for (const FlameChart::Lane &l : built->lanes())
        lanes << QString::fromStdString(l.name), samples += l.samples;
    QVERIFY2(lanes.filter(QStringLiteral("parser")).size() == 1 && lanes.filter(QStringLiteral("packer")).size() == 1,
             qPrintable(lanes.join(QLatin1Char(','))));
    QCOMPARE(samples, profile->timeline->size());

    TimePane pane;
    pane.resize(1400, 1000);
    pane.show();
    pane.setInputs({profile}, profile->findSampleType("cpu-clock"), {});
    QVERIFY(waitIdle(pane));
    pane.chart()->selectColumns(2, 3);
    QVERIFY(waitIdle(pane));
    QCOMPARE(pane.flameChart()->viewFrom(), 2e9);
    // The chart zoomed into the range's first half second, as a wheel would, marked under the heatmap.
    pane.flameChart()->setView(2.9e9, 3.4e9);
    pane.chart()->setViewMarker(2.9e9, 3.4e9);
    const QByteArray out = qgetenv("QFLAME_SCREENSHOT_DIR");
    if (!out.isEmpty())
        QVERIFY(pane.grab().save(QString::fromLocal8Bit(out) + QStringLiteral("/time-tab.png")));
    pane.chart()->selectSecondColumns(5, 6);
    QVERIFY(waitIdle(pane));
    QVERIFY(pane.showsDiff());
    if (!out.isEmpty())
        QVERIFY(pane.grab().save(QString::fromLocal8Bit(out) + QStringLiteral("/time-diff.png")));
}

QTEST_MAIN(tst_FlameChartView)
#include "tst_flamechartview.moc"
