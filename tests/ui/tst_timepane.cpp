// The Time tab (ui/time): a hand-made perf script's heatmap painted from the model's cells, a dragged range's
// flamegraph the model's range cut, and a profile without times saying why there is no heatmap. With
// QFLAME_SCREENSHOT_DIR set, the pane is saved there as time-pane.png to be looked at.
#include "flame/FlameGraphWidget.h"
#include "flame/FlameView.h"
#include "formats/ProfileInput.h"
#include "time/TimeChart.h"
#include "time/TimePane.h"
#include "tree/CallTree.h"

#include <QLabel>
#include <QTest>

using namespace qflame;

class tst_TimePane : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void heatmapAndRange();
    void cellUnion();
    void withoutTimes();
};

namespace {

// Thread 100 (main;f) at 0, 0.5, 1.0001 s (periods 1000, 1000, 2000), thread 101 (main;g) at 0.2499 s (3000),
// thread 200 (main;g) at 2.6 s (1000); then a busier second: f every 10 ms from 3 s to 4 s.
QByteArray perf()
{
    QByteArray text = "prog 100/100 [000] 10.000100: 1000 cpu-clock:\n\t1000 f+0x0 (/bin/prog)\n\t2000 main+0x0 (/bin/prog)\n\n"
                      "prog 100/101 [001] 10.250000: 3000 cpu-clock:\n\t1100 g+0x0 (/bin/prog)\n\t2000 main+0x0 (/bin/prog)\n\n"
                      "prog 100/100 [000] 10.500100: 1000 cpu-clock:\n\t1000 f+0x0 (/bin/prog)\n\t2000 main+0x0 (/bin/prog)\n\n"
                      "prog 100/100 [000] 11.000200: 2000 cpu-clock:\n\t1000 f+0x0 (/bin/prog)\n\t2000 main+0x0 (/bin/prog)\n\n"
                      "other 200/200 [001] 12.600100: 1000 cpu-clock:\n\t1100 g+0x0 (/bin/prog)\n\t2000 main+0x0 (/bin/prog)\n\n";
    for (int i = 0; i < 100; ++i)
        text += "prog 100/100 [000] " + QByteArray::number(13.0001 + i * 0.01, 'f', 6) +
                ": 1000 cpu-clock:\n\t1000 f+0x0 (/bin/prog)\n\t2000 main+0x0 (/bin/prog)\n\n";
    return text;
}

// The middle of a heatmap cell, where TimeChart paints it (its plot: 4 px in, 18 px at the bottom for the axis).
QPoint cellCentre(const TimeChart *chart, size_t column, uint32_t row)
{
    const QRectF p = QRectF(chart->rect()).adjusted(4, 4, -4, -18);
    const Heatmap &h = chart->heatmap();
    return QPointF(p.left() + (double(column) + 0.5) * p.width() / double(h.columns),
                   p.top() + (double(row) + 0.5) * p.height() / double(h.rows))
        .toPoint();
}

bool waitIdle(const TimePane &pane)
{
    return QTest::qWaitFor([&] { return !pane.busy(); }, 20000);
}

}   // namespace

void tst_TimePane::heatmapAndRange()
{
    const QByteArray bytes = perf();
    const auto profile = readProfile(std::string_view(bytes.constData(), size_t(bytes.size())), "prog.perf");
    TimePane pane;
    pane.resize(800, 500);
    pane.show();
    pane.setInputs({profile}, profile->findSampleType("cpu-clock"), {});
    QVERIFY(waitIdle(pane));
    const Heatmap &h = pane.chart()->heatmap();
    QCOMPARE(h.columns, size_t(4));
    QCOMPARE(h.value(0, 12), int64_t(3000));   // thread 101's g at 0.2499 s
    QCOMPARE(h.maxValue, int64_t(3000));
    // Columns 0 and 1 ([0, 2 s)): f 1000 + 1000 + 2000, g 3000.
    pane.chart()->selectColumns(0, 1);
    QVERIFY(waitIdle(pane));
    const CallTree *tree = pane.flameView()->graph()->tree();
    QVERIFY(tree);
    QCOMPARE(tree->total(CallTree::kRoot), int64_t(7000));
    if (const QByteArray dir = qgetenv("QFLAME_SCREENSHOT_DIR"); !dir.isEmpty()) {
        pane.chart()->selectColumns(3, 3);
        QVERIFY(waitIdle(pane));
        QVERIFY(pane.grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/time-pane.png")));
    }
}

void tst_TimePane::cellUnion()
{
    const QByteArray bytes = perf();
    const auto profile = readProfile(std::string_view(bytes.constData(), size_t(bytes.size())), "prog.perf");
    TimePane pane;
    pane.resize(1000, 700);
    pane.show();
    pane.setInputs({profile}, profile->findSampleType("cpu-clock"), {});
    QVERIFY(waitIdle(pane));
    TimeChart *chart = pane.chart();
    const auto total = [&] {
        const CallTree *tree = pane.flameView()->graph()->tree();
        return tree ? tree->total(CallTree::kRoot) : int64_t(-1);
    };
    // Cells of 20 ms. Ctrl+click 0:12 (thread 101's g, 3000) and 1:0 (f at 1.0001 s, 2000).
    QTest::mouseClick(chart, Qt::LeftButton, Qt::ControlModifier, cellCentre(chart, 0, 12));
    QVERIFY(waitIdle(pane));
    QCOMPARE(total(), int64_t(3000));
    QTest::mouseClick(chart, Qt::LeftButton, Qt::ControlModifier, cellCentre(chart, 1, 0));
    QVERIFY(waitIdle(pane));
    QCOMPARE(total(), int64_t(5000));
    QCOMPARE(chart->selection().size(), size_t(2));
    // Ctrl+drag from 3:0 to 3:4: the 100 ms from 3 s, f every 10 ms, ten records of 1000.
    QTest::mousePress(chart, Qt::LeftButton, Qt::ControlModifier, cellCentre(chart, 3, 0));
    QTest::mouseMove(chart, cellCentre(chart, 3, 4));
    QTest::mouseRelease(chart, Qt::LeftButton, Qt::ControlModifier, cellCentre(chart, 3, 4));
    QVERIFY(waitIdle(pane));
    QCOMPARE(total(), int64_t(15000));
    QVERIFY(pane.statusText().contains(QStringLiteral("3 ranges")));
    if (const QByteArray dir = qgetenv("QFLAME_SCREENSHOT_DIR"); !dir.isEmpty())
        QVERIFY(pane.grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/time-cells.png")));
    // Ctrl+click 0:12 again takes g out.
    QTest::mouseClick(chart, Qt::LeftButton, Qt::ControlModifier, cellCentre(chart, 0, 12));
    QVERIFY(waitIdle(pane));
    QCOMPARE(total(), int64_t(12000));
    // Shift+drag column 2 (other's g, 1000) compares it with the union.
    QTest::mousePress(chart, Qt::LeftButton, Qt::ShiftModifier, cellCentre(chart, 2, 10));
    QTest::mouseRelease(chart, Qt::LeftButton, Qt::ShiftModifier, cellCentre(chart, 2, 10));
    QVERIFY(waitIdle(pane));
    QVERIFY(pane.showsDiff());
    // A plain drag is one range again: columns 0 to 1, f 4000 and g 3000.
    QVERIFY(chart->width() >= 160);   // the comparison's bar does not squeeze the heatmap out
    QTest::mousePress(chart, Qt::LeftButton, Qt::NoModifier, cellCentre(chart, 0, 5));
    QTest::mouseMove(chart, cellCentre(chart, 1, 5));
    QTest::mouseRelease(chart, Qt::LeftButton, Qt::NoModifier, cellCentre(chart, 1, 5));
    QVERIFY(waitIdle(pane));
    QCOMPARE(chart->selection(), (TimeRanges{{0, 2000000000}}));
    QVERIFY(!pane.showsDiff());
    QCOMPARE(total(), int64_t(7000));
}

void tst_TimePane::withoutTimes()
{
    const auto profile = readProfile("main;f 3\nmain;g 1\n", "prog.folded");
    TimePane pane;
    pane.setInputs({profile}, 0, {});
    QCOMPARE(pane.chart()->heatmap().columns, size_t(0));
    QVERIFY(pane.findChild<QLabel *>()->text().contains(QStringLiteral("no sample times")));
}

QTEST_MAIN(tst_TimePane)
#include "tst_timepane.moc"
