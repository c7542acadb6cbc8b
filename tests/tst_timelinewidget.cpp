// The explorer's timeline: where points and brushes land, what a drag chooses, and the step for each preset.
#include "explorer/QrynExplorer.h"
#include "explorer/TimelineWidget.h"

#include <QSignalSpy>
#include <QTest>

using namespace qflame::qryn;

class tst_TimelineWidget : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void steps();
    void axis();
    void dragBaseline();
    void dragComparison();
    void clickClears();
    void legendNames();
    void paintsBars();
};

void tst_TimelineWidget::steps()
{
    QCOMPARE(timelineStepSeconds(15 * 60'000), qint64(10));
    QCOMPARE(timelineStepSeconds(3'600'000), qint64(30));
    QCOMPARE(timelineStepSeconds(6 * 3'600'000), qint64(300));
    QCOMPARE(timelineStepSeconds(24 * 3'600'000), qint64(900));
    QCOMPARE(timelineStepSeconds(7 * 24 * 3'600'000LL), qint64(10800));
    QCOMPARE(timelineStepSeconds(1000), qint64(1));
    QCOMPARE(timelineStepSeconds(400LL * 24 * 3'600'000), qint64(86400));
}

void tst_TimelineWidget::axis()
{
    TimelineWidget w;
    w.resize(408, 120);   // plot is 400 px wide (4 px margins)
    w.setWindow({1'000'000, 1'400'000});
    QCOMPARE(w.xAt(1'000'000), 4);
    QCOMPARE(w.xAt(1'200'000), 204);
    QCOMPARE(w.timeAt(104), qint64(1'100'000));
    QCOMPARE(w.timeAt(0), qint64(1'000'000));      // clamped to the window
    QCOMPARE(w.timeAt(1000), qint64(1'400'000));
}

void tst_TimelineWidget::dragBaseline()
{
    TimelineWidget w;
    w.resize(408, 120);
    w.setWindow({1'000'000, 1'400'000});
    QSignalSpy spy(&w, &TimelineWidget::brushed);
    QTest::mousePress(&w, Qt::LeftButton, {}, QPoint(304, 50));
    QTest::mouseMove(&w, QPoint(104, 50));
    QTest::mouseRelease(&w, Qt::LeftButton, {}, QPoint(104, 50));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy[0][0].toInt(), int(TimelineWidget::Baseline));
    const TimeRange r = spy[0][1].value<TimeRange>();
    QCOMPARE(r.startMs, qint64(1'100'000));
    QCOMPARE(r.endMs, qint64(1'300'000));
    QVERIFY(w.brush(TimelineWidget::Baseline));
    QVERIFY(!w.brush(TimelineWidget::Comparison));
}

void tst_TimelineWidget::dragComparison()
{
    TimelineWidget w;
    w.resize(408, 120);
    w.setWindow({1'000'000, 1'400'000});
    QSignalSpy spy(&w, &TimelineWidget::brushed);
    QTest::mousePress(&w, Qt::LeftButton, Qt::ShiftModifier, QPoint(4, 50));
    QTest::mouseRelease(&w, Qt::LeftButton, Qt::ShiftModifier, QPoint(204, 50));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy[0][0].toInt(), int(TimelineWidget::Comparison));
    QCOMPARE(w.brush(TimelineWidget::Comparison)->startMs, qint64(1'000'000));
    QCOMPARE(w.brush(TimelineWidget::Comparison)->endMs, qint64(1'200'000));
}

void tst_TimelineWidget::clickClears()
{
    TimelineWidget w;
    w.resize(408, 120);
    w.setWindow({1'000'000, 1'400'000});
    w.setBrush(TimelineWidget::Baseline, TimeRange{1'000'000, 1'100'000});
    QSignalSpy spy(&w, &TimelineWidget::brushed);
    QTest::mouseClick(&w, Qt::LeftButton, {}, QPoint(150, 50));
    QCOMPARE(spy.count(), 0);
    QVERIFY(!w.brush(TimelineWidget::Baseline));
}

void tst_TimelineWidget::legendNames()
{
    Series s;
    QCOMPARE(TimelineWidget::seriesName(s), QStringLiteral("all"));
    s.labels = {{QStringLiteral("service_name"), QStringLiteral("svc-base")}, {QStringLiteral("env"), QStringLiteral("ci")}};
    QCOMPARE(TimelineWidget::seriesName(s), QStringLiteral("service_name=svc-base, env=ci"));
}

void tst_TimelineWidget::paintsBars()
{
    TimelineWidget w;
    w.resize(408, 120);
    w.setWindow({0, 400'000});
    Series s;
    s.points = {{100'000, 5}, {200'000, 10}};
    w.setSeries({s}, 100'000);
    const QImage img = w.grab().toImage();
    const QRgb bar = TimelineWidget::seriesColor(0).rgb();
    // The 10 fills the plot's height at x 204..303; the 5 half of it at 104..203; nothing at 4..103.
    const int bottom = 120 - (w.fontMetrics().height() + 6) - 2;
    QCOMPARE(img.pixel(250, bottom), bar);
    QCOMPARE(img.pixel(250, 10), bar);
    QCOMPARE(img.pixel(150, bottom), bar);
    QVERIFY(img.pixel(150, 10) != bar);
    QVERIFY(img.pixel(50, bottom) != bar);
}

QTEST_MAIN(tst_TimelineWidget)
#include "tst_timelinewidget.moc"
