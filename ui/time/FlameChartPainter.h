// Paints a flame chart (model/time/FlameChart.h): a time axis on top, then each thread as a lane of rows, its
// boxes asked of the model at the view's resolution (never a sample visited here at a coarse zoom). One painting
// code for the widget (FlameChartView) and the benchmark (bench/flamechart_main.cpp).
#pragma once

#include "time/FlameChart.h"

#include <QColor>
#include <QPalette>
#include <QRect>

#include <memory>
#include <optional>
#include <vector>

class QPainter;

namespace qflame {

// The time shown across the width, in nanoseconds from the origin, as doubles: a microsecond of an hour is a
// thirteenth significant digit, which int64 arithmetic would make fiddly and a double keeps.
struct ChartView {
    double from = 0, to = 1;
    int scrollY = 0;   // pixels of the lanes scrolled up
};

class FlameChartPainter {
public:
    static constexpr int kAxisHeight = 20, kLaneHeader = 16, kRowHeight = 16;

    void setChart(std::shared_ptr<const FlameChart> chart);
    const FlameChart *chart() const { return m_chart.get(); }
    // Search: frames flagged in `matches` (by the chart's FrameId) keep their colour, the rest are dimmed; empty
    // clears it.
    void setMatches(std::vector<uint8_t> matches) { m_matches = std::move(matches); }
    bool hasMatches() const { return !m_matches.empty(); }
    void setColorBlindSafe(bool on);
    // The box outlined (a click), by lane and box.
    void setSelected(std::optional<std::pair<size_t, FlameBox>> selected) { m_selected = std::move(selected); }

    // The lanes' height, without the axis.
    int contentHeight() const;
    int laneTop(size_t lane) const;   // from the top of the lanes, before scrolling

    // Paints `area` of a widget whose whole width shows `view`; returns the boxes painted.
    size_t paint(QPainter &painter, const QRect &area, const ChartView &view, const QPalette &palette);

    struct Hit {
        size_t lane = 0;
        FlameBox box;
    };
    // The box under a point of the widget `area` painted with `view`, if any.
    std::optional<Hit> boxAt(QPoint point, const QRect &area, const ChartView &view) const;
    // The lane under a point, if any (its header or its rows).
    std::optional<size_t> laneAt(QPoint point, const QRect &area, const ChartView &view) const;

    // "12.5 ms" and the like, for the axis and tooltips.
    static QString formatNanos(double nanos);

private:
    QColor colorOf(uint32_t node) const;
    std::shared_ptr<const FlameChart> m_chart;
    std::vector<int> m_laneTop;
    std::vector<uint8_t> m_matches;
    mutable std::vector<QRgb> m_colors;   // by FrameId, 0 until first painted
    bool m_colorBlind = false;
    std::optional<std::pair<size_t, FlameBox>> m_selected;
    mutable std::vector<FlameBox> m_boxes;   // one query's, reused
};

}   // namespace qflame
