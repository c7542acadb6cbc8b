// The Time tab's heatmap (model/time/Heatmap.h) painted as FlameScope paints it: time to the right in columns,
// each column's subsecond rows downwards, a cell's colour its share of the fullest cell. Dragging across it
// selects whole columns: a time range, which the pane turns into a flamegraph; Ctrl+drag adds the cells from the
// one pressed to the one released, in time order (FlameScope's start and end cell), and Ctrl+click one cell (or
// takes it out again): the flamegraph is then the union's. Shift+drag selects a second range to compare with the
// first. The flame chart's view shows as a bracket under the columns.
#pragma once

#include "time/Heatmap.h"

#include <QWidget>

namespace qflame {

class TimeChart : public QWidget {
    Q_OBJECT

public:
    explicit TimeChart(QWidget *parent = nullptr);
    // Its mouse gestures, for Help > Keyboard Shortcuts.
    static QList<QPair<QString, QString>> keyBindings();
    void setHeatmap(Heatmap heatmap);
    const Heatmap &heatmap() const { return m_heatmap; }
    // Selects the columns [first, last] as a drag would, and emits rangeSelected (the second range is cleared).
    void selectColumns(size_t first, size_t last);
    // Adds the cells from one to another (in time order, both included) to the first selection as a Ctrl+drag
    // would (or, for one cell wholly selected already, takes it out as a Ctrl+click does), and emits
    // selectionChanged (the second range is cleared).
    void toggleCells(size_t column, uint32_t row, size_t toColumn, uint32_t toRow);
    // The first selection: one range, or the union Ctrl added to it.
    const TimeRanges &selection() const { return m_first; }
    // Selects the second range as a Shift+drag would, and emits secondRangeSelected.
    void selectSecondColumns(size_t first, size_t last);
    // Shows a range selected elsewhere (the flame chart's axis) as the first, without a signal; clears the second.
    void setSelection(qint64 fromNanos, qint64 toNanos);
    // The flame chart's view, marked under the columns.
    void setViewMarker(double fromNanos, double toNanos);
    bool hasSecondRange() const { return m_second.to > m_second.from; }
    QSize sizeHint() const override { return {600, 220}; }

Q_SIGNALS:
    // [fromNanos, toNanos) from the first sample.
    void rangeSelected(qint64 fromNanos, qint64 toNanos);
    // The first selection after a Ctrl+drag or Ctrl+click: a union of ranges (possibly empty).
    void selectionChanged(const qflame::TimeRanges &ranges);
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
    enum class Drag { None, First, Second, Cells };
    size_t columnAt(double x) const;
    uint32_t rowAt(double y) const;
    double xOf(double nanos) const;
    QRectF plot() const;
    Range columnsRange(long long a, long long b) const;
    // The cells a time range covers, one rectangle per column (whole columns for a column range).
    QList<QRectF> cellRects(const TimeRange &range) const;
    Heatmap m_heatmap;
    long long m_dragFrom = -1, m_dragAt = -1;   // columns (a Ctrl+drag's: the cells' below)
    uint32_t m_dragRowFrom = 0, m_dragRowAt = 0;
    Drag m_dragging = Drag::None;
    TimeRanges m_first;   // the first selection
    Range m_second;
    double m_viewFrom = 0, m_viewTo = 0;
};

}   // namespace qflame
