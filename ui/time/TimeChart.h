// The Time tab's heatmap (model/time/Heatmap.h) painted as FlameScope paints it: time to the right in columns,
// each column's subsecond rows downwards, a cell's colour its share of the fullest cell. Dragging across it
// selects whole columns: a time range, which the pane turns into a flamegraph; Shift+drag selects a second range
// to compare with the first. The flame chart's view shows as a bracket under the columns.
#pragma once

#include "time/Heatmap.h"

#include <QWidget>

namespace qflame {

class TimeChart : public QWidget {
    Q_OBJECT

public:
    explicit TimeChart(QWidget *parent = nullptr);
    void setHeatmap(Heatmap heatmap);
    const Heatmap &heatmap() const { return m_heatmap; }
    // Selects the columns [first, last] as a drag would, and emits rangeSelected (the second range is cleared).
    void selectColumns(size_t first, size_t last);
    // Selects the second range as a Shift+drag would, and emits secondRangeSelected.
    void selectSecondColumns(size_t first, size_t last);
    // Shows a range selected elsewhere (the flame chart's axis) as the first, without a signal; clears the second.
    void setSelection(qint64 fromNanos, qint64 toNanos);
    // The flame chart's view, marked under the columns.
    void setViewMarker(double fromNanos, double toNanos);
    bool hasSecondRange() const { return m_sel[1].to > m_sel[1].from; }
    QSize sizeHint() const override { return {600, 220}; }

Q_SIGNALS:
    // [fromNanos, toNanos) from the first sample.
    void rangeSelected(qint64 fromNanos, qint64 toNanos);
    void secondRangeSelected(qint64 fromNanos, qint64 toNanos);

protected:
    void paintEvent(QPaintEvent *) override;
    void mousePressEvent(QMouseEvent *e) override;
    void mouseMoveEvent(QMouseEvent *e) override;
    void mouseReleaseEvent(QMouseEvent *e) override;

private:
    struct Range {
        qint64 from = 0, to = 0;
    };
    size_t columnAt(double x) const;
    double xOf(double nanos) const;
    QRectF plot() const;
    Range columnsRange(long long a, long long b) const;
    Heatmap m_heatmap;
    long long m_dragFrom = -1, m_dragAt = -1;
    int m_dragging = 0;   // which range a drag selects
    Range m_sel[2];
    double m_viewFrom = 0, m_viewTo = 0;
};

}   // namespace qflame
