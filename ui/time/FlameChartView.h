// The Time tab's flame chart: the threads as lanes, time to the right, painted by FlameChartPainter from the
// model's boxes at the view's resolution. The wheel zooms around the pointer (down to a microsecond across the
// view, out to the whole recording), a drag pans (Shift+wheel scrolls the lanes), a drag along the time axis
// selects a range, a click selects a box, the pointer's box says its frame and duration; +/- zoom, the arrows pan
// and scroll, 0 shows all (keyBindings lists them for Help > Keyboard Shortcuts).
#pragma once

#include "time/FlameChartPainter.h"

#include <QWidget>

namespace qflame {

class FlameChartView : public QWidget {
    Q_OBJECT

public:
    explicit FlameChartView(QWidget *parent = nullptr);
    static QList<QPair<QString, QString>> keyBindings();
    static constexpr double kMinSpanNanos = 1000;   // a microsecond across the view

    void setChart(std::shared_ptr<const FlameChart> chart);
    const FlameChart *chart() const { return m_painter.chart(); }
    FlameChartPainter &painter() { return m_painter; }
    void setMatches(std::vector<uint8_t> matches);

    // The time across the view, [from, to) in nanoseconds from the first sample (clamped to the recording).
    void setView(double from, double to);
    double viewFrom() const { return m_view.from; }
    double viewTo() const { return m_view.to; }
    void showAll();
    // The text of the pointer's tooltip at a point (empty over nothing), for tests.
    QString describeAt(QPoint point) const;
    // Selects the box under a point as a click does (emits boxClicked); false over nothing.
    bool clickAt(QPoint point);
    QSize sizeHint() const override { return {800, 260}; }

Q_SIGNALS:
    // The user zoomed or panned: the time now across the view.
    void viewChanged(double from, double to);
    // A range dragged along the axis.
    void rangeSelected(qint64 fromNanos, qint64 toNanos);
    // A box clicked: its frame's name, and its time.
    void boxClicked(const QString &frame, qint64 fromNanos, qint64 toNanos);

protected:
    void paintEvent(QPaintEvent *) override;
    void wheelEvent(QWheelEvent *e) override;
    void keyPressEvent(QKeyEvent *e) override;
    void mousePressEvent(QMouseEvent *e) override;
    void mouseMoveEvent(QMouseEvent *e) override;
    void mouseReleaseEvent(QMouseEvent *e) override;
    void mouseDoubleClickEvent(QMouseEvent *e) override;
    void leaveEvent(QEvent *) override;
    void resizeEvent(QResizeEvent *) override;

private:
    void clampView();
    void scrollBy(int dy);
    // Zooms by `factor` keeping time `at` where it is (at `x`, a share of the width, when the span hits the floor).
    void zoomAround(double at, double factor, double x);
    double timeAt(double x) const;

    FlameChartPainter m_painter;
    ChartView m_view;
    enum class Drag { None, Pan, Range } m_drag = Drag::None;
    QPoint m_pressAt;
    ChartView m_pressView;
    bool m_moved = false;
    double m_rangeFrom = 0, m_rangeTo = 0;   // while dragging along the axis
};

}   // namespace qflame
