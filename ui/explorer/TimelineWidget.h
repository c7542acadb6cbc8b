// The timeline of the explorer: a chart of the query's series per step (qryn/TimelineSteps.h), with a value axis
// in the type's unit (cores, MiB/s, goroutines), a time axis, the series overlaid (lines) or stacked (areas), a
// readout of every series at the hovered step, and a legend of the labels that tell the series apart, in full.
// Two ranges are brushed on it, the baseline (drag) and the comparison (Shift+drag or right-drag), snapped to the
// steps; each shows its average per step ± SE (the rounds model's, from the model) as a line with a band.
// Colours follow the application palette, light or dark.
#pragma once

#include "layout/ChartAxes.h"
#include "qryn/TimelineSteps.h"

#include <QWidget>

#include <optional>

namespace qflame::qryn {

class TimelineWidget : public QWidget {
    Q_OBJECT

public:
    enum Brush { Baseline = 0, Comparison = 1 };

    explicit TimelineWidget(QWidget *parent = nullptr);

    // The time axis: what the chart is drawn over. Steps outside it are not painted.
    void setWindow(const TimeRange &window);
    TimeRange window() const { return m_window; }
    // The steps and series of the window.
    void setTimeline(StepTimeline timeline);
    const StepTimeline &timeline() const { return m_timeline; }
    qint64 stepMs() const { return m_timeline.stepMs(); }

    // Overlaid (lines, the default) or stacked (areas summing to the total).
    void setStacked(bool stacked);
    bool stacked() const { return m_stacked; }

    std::optional<TimeRange> brush(Brush which) const { return m_brush[which]; }
    void setBrush(Brush which, std::optional<TimeRange> range);
    void clearBrushes();
    // The brushed range's average over its steps, from the model; nullopt without a brush or a timeline.
    std::optional<RateEstimate> rangeEstimate(Brush which) const;
    // "baseline 4.938 ± 0.031 cores (30 steps)", as drawn on the chart; empty without an estimate.
    QString rangeText(Brush which) const;

    // Each series' legend text: the label pairs whose values differ between the series, "name=value, ..." in full
    // (a label some series lack differs too; those show "(no name)"); a single series shows all its labels; "all"
    // for none.
    static QStringList legendTexts(const std::vector<StepSeries> &series);
    // What the hover readout shows at a step: its time span, each series' value in the unit, the total when there
    // are several. Empty for a step outside the timeline.
    QString readoutText(int step) const;
    int hoveredStep() const { return m_hoverStep; }

    // The value axis and its unit as painted at the current size.
    ValueAxis valueAxisNow() const;
    QString unitText() const;

    // Colours, for the palette of the widget (light or dark) and for the legend and tests.
    bool dark() const;
    QColor seriesColor(int index) const;
    QColor brushColor(Brush which) const;

    QRect plotRect() const;
    // The time under x (clamped to the window), and the x of a time, for the current geometry.
    qint64 timeAt(int x) const;
    int xAt(qint64 ms) const;

    QSize sizeHint() const override { return {600, 220}; }
    QSize minimumSizeHint() const override { return {240, 110}; }

Q_SIGNALS:
    // A drag ended: the range chosen for `which`, snapped to the steps.
    void brushed(int which, const TimeRange &range);
    // A brush or the timeline changed: the range averages are new.
    void rangesChanged();

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    struct LegendItem {
        QRect rect;   // swatch and text
        QString text;
        int series = 0;
        int flags = 0;   // how the text wraps
    };
    struct Scale {
        double divisor = 1;   // shown value = model value / divisor
        QString unit;
        ValueAxis axis;
    };
    void layoutLegend();
    Scale scaleFor(int plotHeight) const;
    double maxShown() const;   // the largest value the chart shows, in the model's unit
    int yAt(double value, const QRect &plot, const Scale &scale) const;
    TimeRange dragRange(qint64 a, qint64 b) const;
    void paintSeries(QPainter &p, const QRect &plot, const Scale &scale);
    void paintBrushes(QPainter &p, const QRect &plot, const Scale &scale);
    void paintRangeLabels(QPainter &p, int left);
    void paintReadout(QPainter &p, const QRect &plot);

    TimeRange m_window;
    StepTimeline m_timeline;
    QStringList m_legendTexts;
    QList<LegendItem> m_legend;   // laid out for the current width
    int m_legendHidden = 0;       // series whose legend did not fit
    int m_legendHeight = 0;
    bool m_stacked = false;
    std::optional<TimeRange> m_brush[2];
    int m_dragging = -1;          // the brush being dragged, -1 when none
    qint64 m_dragStartMs = 0;
    int m_dragStartX = 0;
    int m_hoverStep = -1;
    int m_hoverX = 0;
};

}   // namespace qflame::qryn
