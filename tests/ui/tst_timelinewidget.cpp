// The explorer's timeline, offscreen: its axes' ticks and labels, the unit per sample type, the legend of the labels
// that differ, the hover readout, brushing by mouse (snapped to steps) and the ranges' averages ± SE and the summary
// line, stacked and overlaid painting, the dark palette. Numbers by hand in the comments.
#include "layout/ChartAxes.h"
#include "explorer/TimelineView.h"
#include "explorer/TimelineWidget.h"

#include <QCheckBox>
#include <QComboBox>
#include <QSignalSpy>
#include <QTest>

using namespace qflame;
using namespace qflame::qryn;

namespace {

constexpr qint64 kT0 = 1'700'000'000'000;   // a multiple of 10 s since the epoch
const char *const kCpu = "process_cpu:cpu:nanoseconds:cpu:nanoseconds";

LabelSet labels(const QString &text)   // "a=1,b=2"
{
    LabelSet out;
    for (const QString &pair : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
        out.push_back({pair.section(QLatin1Char('='), 0, 0), pair.section(QLatin1Char('='), 1)});
    return out;
}

// A timeline of `typeId` over six 10 s steps from kT0, one series per entry: its labels and its points' values per
// step (a negative value: no point in that step), the points at the steps' starts (gauges: 1 s in).
StepTimeline timeline(const char *typeId, const QList<QPair<QString, QList<double>>> &spec, int steps = 6)
{
    ProfileType type;
    ProfileType::parse(QString::fromLatin1(typeId), &type);
    const TimelinePlan plan =
        planTimeline({type.id, QStringLiteral("{}"), {kT0, kT0 + steps * 10'000}}, type, 10, QString());
    const qint64 offset = plan.unit.kind == ValueKind::Gauge ? 1'000 : 0;
    QList<Series> answer;
    for (const auto &[text, values] : spec) {
        Series s{labels(text), {}};
        for (int i = 0; i < values.size(); ++i)
            if (values[i] >= 0)
                s.points.push_back({kT0 + i * 10'000 + offset, values[i]});
        answer.push_back(s);
    }
    return stepTimeline(answer, plan);
}

// CPU seconds per 10 s step: a = 20, 25, -, 30, 20, 25 s; b = 4 s each (0.4 cores).
StepTimeline twoServices()
{
    return timeline(kCpu, {{QStringLiteral("service_name=a"), {20e9, 25e9, -1, 30e9, 20e9, 25e9}},
                           {QStringLiteral("service_name=b"), {4e9, 4e9, 4e9, 4e9, 4e9, 4e9}}});
}

void show(TimelineWidget &w, StepTimeline t, int width = 600, int height = 400)
{
    w.resize(width, height);
    w.setWindow({kT0, kT0 + qint64(t.steps.size()) * 10'000});
    w.setTimeline(std::move(t));
}

QStringList tickLabels(const ValueAxis &a)
{
    QStringList out;
    for (const ValueTick &t : a.ticks)
        out << t.label;
    return out;
}

int distance(QColor a, QColor b)
{
    return std::max({std::abs(a.red() - b.red()), std::abs(a.green() - b.green()), std::abs(a.blue() - b.blue())});
}

// What a colour of alpha `alpha` over `under` looks like.
QColor over(QColor c, int alpha, QColor under)
{
    auto mix = [alpha](int x, int y) { return (x * alpha + y * (255 - alpha)) / 255; };
    return QColor(mix(c.red(), under.red()), mix(c.green(), under.green()), mix(c.blue(), under.blue()));
}

}   // namespace

class tst_TimelineWidget : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void valueTicks_data();
    void valueTicks();
    void timeTicks_data();
    void timeTicks();
    void durations();
    void unitText_data();
    void unitText();
    void stackedAxis();
    void legend_data();
    void legend();
    void legendWraps();
    void geometry();
    void readout();
    void hover();
    void brushByMouse();
    void clickClears();
    void summaryLine();
    void stepBox();
    void paintsStacked();
    void darkPalette();
};

void tst_TimelineWidget::valueTicks_data()
{
    QTest::addColumn<double>("max");
    QTest::addColumn<int>("intervals");
    QTest::addColumn<double>("top");
    QTest::addColumn<QString>("labels");
    // The smallest 1/2/5 × 10^n step with at most `intervals` intervals up to the first tick at or above max.
    QTest::newRow("4.94 cores") << 4.94 << 5 << 5.0 << "0,1,2,3,4,5";
    QTest::newRow("tenths") << 0.37 << 4 << 0.4 << "0.0,0.1,0.2,0.3,0.4";
    QTest::newRow("halves") << 3.0 << 6 << 3.0 << "0.0,0.5,1.0,1.5,2.0,2.5,3.0";
    QTest::newRow("fives") << 7.0 << 3 << 10.0 << "0,5,10";
    QTest::newRow("hundreds") << 1234.0 << 5 << 1500.0 << "0,500,1000,1500";
    QTest::newRow("twenties") << 100.0 << 5 << 100.0 << "0,20,40,60,80,100";
    QTest::newRow("hundredths") << 0.042 << 5 << 0.05 << "0.00,0.01,0.02,0.03,0.04,0.05";
    QTest::newRow("empty") << 0.0 << 5 << 1.0 << "0.0,0.2,0.4,0.6,0.8,1.0";
}

void tst_TimelineWidget::valueTicks()
{
    QFETCH(double, max);
    QFETCH(int, intervals);
    const ValueAxis a = valueAxis(max, intervals);
    QTEST(a.top, "top");
    QTEST(tickLabels(a).join(QLatin1Char(',')), "labels");
}

void tst_TimelineWidget::timeTicks_data()
{
    QTest::addColumn<qint64>("start");
    QTest::addColumn<qint64>("end");
    QTest::addColumn<int>("maxTicks");
    QTest::addColumn<int>("offsetSeconds");
    QTest::addColumn<QString>("labels");
    const qint64 day = 1'704'067'200'000;   // 2024-01-01 00:00:00 UTC
    const qint64 h = 3'600'000, m = 60'000, s = 1'000;
    // 20 min from 12:00:05 with 5 ticks: 5 min steps (4 min would need 6); the first at 12:05.
    QTest::newRow("5 min") << day + 12 * h + 5 * s << day + 12 * h + 20 * m + 5 * s << 5 << 0
                           << "12:05,12:10,12:15,12:20";
    QTest::newRow("10 s") << day + 12 * h << day + 12 * h + m << 7 << 0
                          << "12:00:00,12:00:10,12:00:20,12:00:30,12:00:40,12:00:50,12:01:00";
    QTest::newRow("30 s") << day + 12 * h + 10 * s << day + 12 * h + 2 * m + 10 * s << 5 << 0
                          << "12:00:30,12:01:00,12:01:30,12:02:00";
    QTest::newRow("midnight") << day - h << day + h << 5 << 0 << "23:00,23:30,01-01,00:30,01:00";
    QTest::newRow("days") << day << day + 7 * 24 * h << 8 << 0 << "01-01,01-02,01-03,01-04,01-05,01-06,01-07,01-08";
    // Hours of the local clock: 10:00-14:00 UTC is 15:30-19:30 at UTC+05:30, whose whole hours are half past in UTC.
    QTest::newRow("UTC+05:30") << day + 10 * h << day + 14 * h << 5 << 19800 << "16:00,17:00,18:00,19:00";
    QTest::newRow("empty") << day << day << 5 << 0 << "";
}

void tst_TimelineWidget::timeTicks()
{
    QFETCH(qint64, start);
    QFETCH(qint64, end);
    QFETCH(int, maxTicks);
    QFETCH(int, offsetSeconds);
    QStringList labels;
    const QList<TimeTick> ticks = qflame::timeTicks(start, end, maxTicks, QTimeZone(offsetSeconds));
    for (const TimeTick &t : ticks) {
        labels << t.label;
        QVERIFY(t.ms >= start && t.ms <= end);
    }
    QTEST(labels.join(QLatin1Char(',')), "labels");
}

void tst_TimelineWidget::durations()
{
    QCOMPARE(durationText(10), QStringLiteral("10 s"));
    QCOMPARE(durationText(60), QStringLiteral("1 min"));
    QCOMPARE(durationText(90), QStringLiteral("1 min 30 s"));
    QCOMPARE(durationText(7200), QStringLiteral("2 h"));
    QCOMPARE(durationText(86400), QStringLiteral("1 d"));
}

void tst_TimelineWidget::unitText_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<double>("perStep");   // one point per 10 s step (gauges: one profile)
    QTest::addColumn<QString>("unit");
    QTest::addColumn<QString>("labels");
    // 30 s of CPU per 10 s: 3 cores.
    QTest::newRow("cpu") << kCpu << 30e9 << "cores" << "0.0,0.5,1.0,1.5,2.0,2.5,3.0";
    // 30 MiB per 10 s: 3 MiB/s.
    QTest::newRow("alloc_space") << "memory:alloc_space:bytes:space:bytes" << 30.0 * 1048576 << "MiB/s"
                                 << "0.0,0.5,1.0,1.5,2.0,2.5,3.0";
    QTest::newRow("alloc_objects") << "memory:alloc_objects:count:space:bytes" << 5000.0 << "objects/s"
                                   << "0,100,200,300,400,500";
    // Gauges show the profile's value, not a rate: 50 MiB in use, 250 goroutines.
    QTest::newRow("inuse_space") << "memory:inuse_space:bytes:space:bytes" << 50.0 * 1048576 << "MiB"
                                 << "0,10,20,30,40,50";
    QTest::newRow("goroutines") << "goroutines:goroutine:count:goroutine:count" << 250.0 << "goroutines"
                                << "0,50,100,150,200,250";
}

void tst_TimelineWidget::unitText()
{
    QFETCH(QString, type);
    QFETCH(double, perStep);
    TimelineWidget w;
    show(w, timeline(type.toLatin1().constData(), {{QStringLiteral("service_name=a"), QList<double>(6, perStep)}}));
    QTEST(w.unitText(), "unit");
    QTEST(tickLabels(w.valueAxisNow()).join(QLatin1Char(',')), "labels");   // 6 intervals at most
}

void tst_TimelineWidget::stackedAxis()
{
    // Overlaid, the axis reaches the largest series (a: 3 cores at step 3); stacked, the largest total (3.4).
    TimelineWidget w;
    show(w, twoServices());
    QCOMPARE(tickLabels(w.valueAxisNow()).join(QLatin1Char(',')), QStringLiteral("0.0,0.5,1.0,1.5,2.0,2.5,3.0"));
    w.setStacked(true);
    QCOMPARE(tickLabels(w.valueAxisNow()).join(QLatin1Char(',')), QStringLiteral("0,1,2,3,4"));
}

void tst_TimelineWidget::legend_data()
{
    QTest::addColumn<QStringList>("series");   // label sets as "a=1,b=2"
    QTest::addColumn<QStringList>("legend");
    QTest::newRow("one pair differs")
        << QStringList{"env=bench,round=r0,service_name=otel-collector", "env=bench,round=r1,service_name=otel-collector",
                       "env=bench,round=r2,service_name=otel-collector"}
        << QStringList{"round=r0", "round=r1", "round=r2"};
    QTest::newRow("two pairs differ") << QStringList{"env=bench,host=h1,round=r0", "env=bench,host=h2,round=r1"}
                                      << QStringList{"host=h1, round=r0", "host=h2, round=r1"};
    QTest::newRow("a label missing") << QStringList{"env=bench,round=r0", "env=bench"}
                                     << QStringList{"round=r0", "(no round)"};
    QTest::newRow("single series, in full")
        << QStringList{"env=bench,round=r0,service_name=otel-collector-with-a-long-name"}
        << QStringList{"env=bench, round=r0, service_name=otel-collector-with-a-long-name"};
    QTest::newRow("no labels") << QStringList{""} << QStringList{"all"};
}

void tst_TimelineWidget::legend()
{
    QFETCH(QStringList, series);
    std::vector<StepSeries> s;
    for (const QString &text : series)
        s.push_back({labels(text), {}, {}});
    QTEST(TimelineWidget::legendTexts(s), "legend");
}

void tst_TimelineWidget::legendWraps()
{
    // Three long label sets in 420 px: each entry wraps between its pairs onto a second line, none is elided, so
    // the legend takes six lines where three short entries take one, and the plot gives up those five lines.
    auto longOnes = timeline(kCpu, {{QStringLiteral("pod=otel-collector-7f9c8d6b5-abcde,region=europe-west4-a,round=r0"), {1e9}},
                                    {QStringLiteral("pod=otel-collector-7f9c8d6b5-fghij,region=europe-west4-b,round=r1"), {1e9}},
                                    {QStringLiteral("pod=otel-collector-7f9c8d6b5-klmno,region=europe-west4-c,round=r2"), {1e9}}},
                         1);
    auto shortOnes = timeline(kCpu, {{QStringLiteral("round=r0"), {1e9}}, {QStringLiteral("round=r1"), {1e9}},
                                     {QStringLiteral("round=r2"), {1e9}}},
                              1);
    TimelineWidget a, b;
    show(a, longOnes, 420, 300);
    show(b, shortOnes, 420, 300);
    const int line = a.fontMetrics().height();
    QCOMPARE(b.plotRect().height() - a.plotRect().height(), 5 * line + 2 * 2);   // 2 px between rows
}

void tst_TimelineWidget::geometry()
{
    TimelineWidget w;
    show(w, twoServices());
    const QRect r = w.plotRect();
    QVERIFY(r.width() > 400 && r.height() > 200);
    QCOMPARE(w.xAt(kT0), r.left());
    QCOMPARE(w.xAt(kT0 + 60'000), r.left() + r.width());
    QCOMPARE(w.xAt(kT0 + 30'000), r.left() + int(std::lround(r.width() / 2.0)));
    QVERIFY(std::abs(w.timeAt(r.left() + r.width() / 4) - (kT0 + 15'000)) <= 60'000 / r.width());
    QCOMPARE(w.timeAt(0), kT0);   // clamped to the window
    QCOMPARE(w.timeAt(10'000), kT0 + 60'000);
}

void tst_TimelineWidget::readout()
{
    TimelineWidget w;
    show(w, twoServices());
    auto hhmmss = [](qint64 ms) { return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("HH:mm:ss")); };
    // Step 1: a 25 s and b 4 s of CPU in 10 s; step 2: a has no point (0).
    QCOMPARE(w.readoutText(1), QStringLiteral("%1 – %2\nservice_name=a: 2.5 cores\nservice_name=b: 0.4 cores\n"
                                              "total: 2.9 cores")
                                   .arg(hhmmss(kT0 + 10'000), hhmmss(kT0 + 20'000)));
    QCOMPARE(w.readoutText(2), QStringLiteral("%1 – %2\nservice_name=a: 0 cores\nservice_name=b: 0.4 cores\n"
                                              "total: 0.4 cores")
                                   .arg(hhmmss(kT0 + 20'000), hhmmss(kT0 + 30'000)));
    QCOMPARE(w.readoutText(6), QString());
    // One series: no total line.
    TimelineWidget one;
    show(one, timeline(kCpu, {{QStringLiteral("service_name=a"), {5e9, 5e9, 5e9, 5e9, 5e9, 5e9}}}));
    QCOMPARE(one.readoutText(0).split(QLatin1Char('\n')).mid(1),
             QStringList{QStringLiteral("service_name=a: 0.5 cores")});
}

void tst_TimelineWidget::hover()
{
    TimelineWidget w;
    show(w, twoServices());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const int y = w.plotRect().center().y();
    QTest::mouseMove(&w, QPoint(w.xAt(kT0 + 35'000), y));
    QCOMPARE(w.hoveredStep(), 3);
    QTest::mouseMove(&w, QPoint(w.xAt(kT0 + 5'000), y));
    QCOMPARE(w.hoveredStep(), 0);
    QTest::mouseMove(&w, QPoint(w.xAt(kT0 + 5'000), w.plotRect().bottom() + 30));   // below the plot
    QCOMPARE(w.hoveredStep(), -1);
}

void tst_TimelineWidget::brushByMouse()
{
    TimelineWidget w;
    show(w, twoServices());
    QSignalSpy spy(&w, &TimelineWidget::brushed);
    const int y = w.plotRect().center().y();
    // From 15 s to 38 s: snapped to the steps, 10 s to 40 s.
    QTest::mousePress(&w, Qt::LeftButton, {}, QPoint(w.xAt(kT0 + 15'000), y));
    QTest::mouseMove(&w, QPoint(w.xAt(kT0 + 30'000), y));
    QTest::mouseRelease(&w, Qt::LeftButton, {}, QPoint(w.xAt(kT0 + 38'000), y));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy[0][0].toInt(), int(TimelineWidget::Baseline));
    QCOMPARE(spy[0][1].value<TimeRange>().startMs, kT0 + 10'000);
    QCOMPARE(spy[0][1].value<TimeRange>().endMs, kT0 + 40'000);
    QVERIFY(!w.brush(TimelineWidget::Comparison));
    // Steps 1..3 hold 29, 4 and 34 s of CPU in 10 s each: R = 67 / 30 cores, residuals 6.67, -18.33, 11.67 s,
    // SE = sqrt(3/2 · 516.67) / 30 = 0.928 cores.
    const auto e = w.rangeEstimate(TimelineWidget::Baseline);
    QVERIFY(e);
    QCOMPARE(e->k, size_t(3));
    QCOMPARE(e->total, int64_t(67'000'000'000));
    QVERIFY(std::fabs(e->rate - 67e9 / 30) < 1);
    QVERIFY(std::fabs(e->standardError - std::sqrt(1.5 * 4650.0 / 9) / 30 * 1e9) < 1);
    QCOMPARE(w.rangeText(TimelineWidget::Baseline), QStringLiteral("baseline 2.23 ± 0.93 cores (3 steps)"));

    // The comparison: Shift+drag, right to left, within steps 4 and 5.
    QTest::mousePress(&w, Qt::LeftButton, Qt::ShiftModifier, QPoint(w.xAt(kT0 + 58'000), y));
    QTest::mouseRelease(&w, Qt::LeftButton, Qt::ShiftModifier, QPoint(w.xAt(kT0 + 41'000), y));
    QCOMPARE(spy.count(), 2);
    QCOMPARE(spy[1][0].toInt(), int(TimelineWidget::Comparison));
    QCOMPARE(w.brush(TimelineWidget::Comparison)->startMs, kT0 + 40'000);
    QCOMPARE(w.brush(TimelineWidget::Comparison)->endMs, kT0 + 60'000);
    // 24 and 29 s: 2.65 cores, residuals ±2.5 s, SE = sqrt(2 · 12.5) / 20 = 0.25 cores.
    QCOMPARE(w.rangeText(TimelineWidget::Comparison), QStringLiteral("comparison 2.65 ± 0.25 cores (2 steps)"));
    // A right-drag is the comparison too.
    QTest::mousePress(&w, Qt::RightButton, {}, QPoint(w.xAt(kT0 + 1'000), y));
    QTest::mouseRelease(&w, Qt::RightButton, {}, QPoint(w.xAt(kT0 + 9'000), y));
    QCOMPARE(w.brush(TimelineWidget::Comparison)->startMs, kT0);
    QCOMPARE(w.brush(TimelineWidget::Comparison)->endMs, kT0 + 10'000);
}

void tst_TimelineWidget::clickClears()
{
    TimelineWidget w;
    show(w, twoServices());
    w.setBrush(TimelineWidget::Baseline, TimeRange{kT0, kT0 + 20'000});
    QSignalSpy spy(&w, &TimelineWidget::brushed);
    QTest::mouseClick(&w, Qt::LeftButton, {}, QPoint(w.xAt(kT0 + 25'000), w.plotRect().center().y()));
    QCOMPARE(spy.count(), 0);
    QVERIFY(!w.brush(TimelineWidget::Baseline));
    QVERIFY(!w.rangeEstimate(TimelineWidget::Baseline));
}

void tst_TimelineWidget::summaryLine()
{
    TimelineView view;
    view.resize(900, 300);
    TimelineWidget *w = view.chart();
    w->setWindow({kT0, kT0 + 60'000});
    w->setTimeline(twoServices());
    QVERIFY(view.summaryText().startsWith(QStringLiteral("Drag for a baseline range")));
    w->setBrush(TimelineWidget::Baseline, TimeRange{kT0 + 10'000, kT0 + 40'000});
    QCOMPARE(view.summaryText(), QStringLiteral("baseline 2.23 ± 0.93 cores (3 steps)"));
    w->setBrush(TimelineWidget::Comparison, TimeRange{kT0 + 40'000, kT0 + 60'000});
    // delta 2.65 - 2.233 = +0.417 cores, +18.66 %; SE sqrt(0.928² + 0.25²) = 0.961: within 2 SE.
    QCOMPARE(view.summaryText(),
             QStringLiteral("baseline 2.23 ± 0.93 cores (3 steps) · comparison 2.65 ± 0.25 cores (2 steps) · "
                            "change +18.66% (+0.42 ± 0.96 cores), noise: within 2 SE"));
    // Steps 0..2 (24, 29, 4 s) against steps 3..5 (34, 24, 29 s): equal lengths.
    w->setBrush(TimelineWidget::Baseline, TimeRange{kT0, kT0 + 30'000});
    w->setBrush(TimelineWidget::Comparison, TimeRange{kT0 + 30'000, kT0 + 60'000});
    QVERIFY2(view.summaryText().endsWith(QStringLiteral("noise: within 2 SE")), qPrintable(view.summaryText()));
    // A steady service: 5.0, 5.1, 4.9 s per step, then 6.0, 6.1, 5.9 s: each 0.5 (0.6) cores, residuals 0 and
    // ±0.1 s, SE = sqrt(3/2 · 0.02) / 30 = 0.0058 cores; delta 0.1 ± 0.0082 cores, a real change.
    w->setTimeline(timeline(kCpu, {{QStringLiteral("service_name=a"), {5.0e9, 5.1e9, 4.9e9, 6.0e9, 6.1e9, 5.9e9}}}));
    QCOMPARE(view.summaryText(), QStringLiteral("baseline 0.5000 ± 0.0058 cores (3 steps) · comparison 0.6000 ± "
                                                "0.0058 cores (3 steps) · change +20.00% (+0.1000 ± 0.0082 cores), "
                                                "slower: beyond 2 SE"));
}

void tst_TimelineWidget::stepBox()
{
    TimelineView view;
    QCOMPARE(view.chosenStepSeconds(), qint64(0));
    QSignalSpy spy(&view, &TimelineView::stepChanged);
    view.setChosenStepSeconds(300);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(view.stepBox()->currentText(), QStringLiteral("5 min"));
    view.setChosenStepSeconds(0);
    view.chart()->setTimeline(twoServices());
    QCOMPARE(view.stepBox()->itemText(0), QStringLiteral("Auto (10 s)"));   // Auto says what it chose
    view.setChosenStepSeconds(45);   // not listed: added
    QCOMPARE(view.chosenStepSeconds(), qint64(45));
    QCOMPARE(view.stepBox()->currentText(), QStringLiteral("45 s"));
    view.stackedBox()->setChecked(true);
    QVERIFY(view.chart()->stacked());
}

void tst_TimelineWidget::paintsStacked()
{
    TimelineWidget w;
    show(w, twoServices());
    w.setStacked(true);
    const QImage img = w.grab().toImage();
    const QRect r = w.plotRect();
    const QColor base = w.palette().color(QPalette::Base);
    const QColor a = over(w.seriesColor(0), 210, base), b = over(w.seriesColor(1), 210, base);
    // Axis 0..4 cores over the plot's height but 4 px of headroom: a's 3 cores of step 3 from the bottom, b's 0.4 on top of it;
    // step 2 has b alone at the bottom; nothing above the total.
    auto yOf = [&](double cores) { return r.bottom() - int(std::lround(cores / 4 * (r.height() - 5))); };
    const int x3 = w.xAt(kT0 + 35'000), x2 = w.xAt(kT0 + 25'000);
    QVERIFY(distance(img.pixelColor(x3, yOf(1.5)), a) <= 2);
    QVERIFY(distance(img.pixelColor(x3, yOf(3.2)), b) <= 2);
    QVERIFY(distance(img.pixelColor(x3, yOf(3.7)), base) <= 2);
    QVERIFY(distance(img.pixelColor(x2, yOf(0.2)), b) <= 2);
    QVERIFY(distance(img.pixelColor(x2, yOf(1.5)), base) <= 2);
}

void tst_TimelineWidget::darkPalette()
{
    TimelineWidget light, dark;
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    p.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    p.setColor(QPalette::Text, Qt::white);
    dark.setPalette(p);
    QPalette l;
    l.setColor(QPalette::Window, QColor(0xef, 0xef, 0xef));
    l.setColor(QPalette::Base, Qt::white);
    light.setPalette(l);
    QVERIFY(dark.dark());
    QVERIFY(!light.dark());
    QVERIFY(dark.seriesColor(0) != light.seriesColor(0));
    QVERIFY(dark.seriesColor(0).lightness() > light.seriesColor(0).lightness());   // brighter on dark
    show(dark, twoServices());
    const QImage img = dark.grab().toImage();
    QCOMPARE(img.pixelColor(1, 1), QColor(0x1e, 0x1e, 0x1e));
}

QTEST_MAIN(tst_TimelineWidget)
#include "tst_timelinewidget.moc"
