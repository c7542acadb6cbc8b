// The Time tab's heatmap (model/time/Heatmap.h) painted as FlameScope paints it: time to the right in columns,
// each column's subsecond rows downwards, a cell's colour its share of the fullest cell. Dragging across it
// selects whole columns: a time range, which the pane turns into a flamegraph.
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
    // Selects the columns [first, last] as a drag would, and emits rangeSelected.
    void selectColumns(size_t first, size_t last);
    QSize sizeHint() const override { return {600, 220}; }

Q_SIGNALS:
    // [fromNanos, toNanos) from the first sample.
    void rangeSelected(qint64 fromNanos, qint64 toNanos);

protected:
    void paintEvent(QPaintEvent *) override;
    void mousePressEvent(QMouseEvent *e) override;
    void mouseMoveEvent(QMouseEvent *e) override;
    void mouseReleaseEvent(QMouseEvent *e) override;

private:
    size_t columnAt(double x) const;
    QRectF plot() const;
    Heatmap m_heatmap;
    long long m_dragFrom = -1, m_selFirst = -1, m_selLast = -1;
};

}   // namespace qflame
