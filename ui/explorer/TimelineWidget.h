// The timeline of the explorer: SelectSeries points painted as stacked bars over the query window, and two
// ranges brushed on it, the baseline (drag) and the comparison (Shift+drag or right-drag), in two colours.
#pragma once

#include "qryn/QrynTypes.h"

#include <QWidget>

#include <optional>

namespace qflame::qryn {

class TimelineWidget : public QWidget {
    Q_OBJECT

public:
    enum Brush { Baseline = 0, Comparison = 1 };

    explicit TimelineWidget(QWidget *parent = nullptr);

    // The time axis: what the bars are drawn over. Points outside it are not painted.
    void setWindow(const TimeRange &window);
    TimeRange window() const { return m_window; }
    // The series of the window, each point a bucket of stepMs starting at its timestamp.
    void setSeries(const QList<Series> &series, qint64 stepMs);
    const QList<Series> &series() const { return m_series; }
    qint64 stepMs() const { return m_stepMs; }

    std::optional<TimeRange> brush(Brush which) const { return m_brush[which]; }
    void setBrush(Brush which, std::optional<TimeRange> range);
    void clearBrushes();

    // The colour of each series (by index), and of each brush: the legend and tests read them.
    static QColor seriesColor(int index);
    static QColor brushColor(Brush which);
    // A series' name in the legend: its labels as name=value, or "all" for a series without labels.
    static QString seriesName(const Series &series);
    // The time under x, for the widget's current width.
    qint64 timeAt(int x) const;
    int xAt(qint64 ms) const;

    QSize sizeHint() const override { return {600, 120}; }
    QSize minimumSizeHint() const override { return {200, 80}; }

Q_SIGNALS:
    // A drag ended: the range chosen for `which`.
    void brushed(int which, const TimeRange &range);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;

private:
    QRect plotRect() const;

    TimeRange m_window;
    QList<Series> m_series;
    qint64 m_stepMs = 60'000;
    std::optional<TimeRange> m_brush[2];
    int m_dragging = -1;      // the brush being dragged, -1 when none
    qint64 m_dragStartMs = 0;
};

}   // namespace qflame::qryn
