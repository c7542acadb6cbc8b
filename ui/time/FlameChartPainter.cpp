#include "time/FlameChartPainter.h"

#include "flame/FramePalette.h"
#include "layout/ChartAxes.h"
#include "pprof/Units.h"
#include "time/TimeRange.h"

#include <QFontMetrics>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace qflame {

void FlameChartPainter::setChart(std::shared_ptr<const FlameChart> chart)
{
    m_chart = std::move(chart);
    m_matches.clear();
    m_selected.reset();
    m_colors.assign(m_chart ? m_chart->frames().size() : 0, 0);
    m_laneTop.clear();
    int y = 0;
    if (m_chart)
        for (const FlameChart::Lane &l : m_chart->lanes()) {
            m_laneTop.push_back(y);
            y += kLaneHeader + int(l.depth) * kRowHeight + 4;
        }
    m_laneTop.push_back(y);
}

void FlameChartPainter::setColorBlindSafe(bool on)
{
    m_colorBlind = on;
    std::fill(m_colors.begin(), m_colors.end(), 0);
}

int FlameChartPainter::contentHeight() const
{
    return m_laneTop.empty() ? 0 : m_laneTop.back();
}

int FlameChartPainter::laneTop(size_t lane) const
{
    return m_laneTop[lane];
}

QString FlameChartPainter::formatNanos(double nanos)
{
    return QString::fromStdString(formatValue(nanos, "nanoseconds"));
}

QColor FlameChartPainter::colorOf(uint32_t node) const
{
    const FrameId f = m_chart->frame(node);
    if (!m_colors[f]) {
        const QString label = QString::fromStdString(m_chart->frames().label(f));
        m_colors[f] = colorForKey(packageOf(label), m_colorBlind).rgb() | 0xff000000u;
    }
    return QColor::fromRgb(m_colors[f]);
}

size_t FlameChartPainter::paint(QPainter &painter, const QRect &area, const ChartView &view, const QPalette &palette)
{
    const QColor base = palette.color(QPalette::Base), text = palette.color(QPalette::Text);
    painter.fillRect(area, base);
    if (!m_chart || area.width() <= 0 || view.to <= view.from)
        return 0;
    const double npp = (view.to - view.from) / double(area.width());
    const auto xOf = [&](double t) { return double(area.left()) + (t - view.from) / npp; };

    // The axis: ticks at 1, 2 or 5 x 10^n nanoseconds, labelled in seconds with the step's decimals.
    painter.setPen(palette.color(QPalette::Mid));
    painter.drawLine(area.left(), area.top() + kAxisHeight - 1, area.right(), area.top() + kAxisHeight - 1);
    const double step = niceStep((view.to - view.from) / std::max(1.0, double(area.width()) / 110.0));
    const int decimals = secondsDecimals(step);
    painter.setPen(text);
    for (double t = std::ceil(view.from / step) * step; t <= view.to; t += step) {
        const double x = xOf(t);
        painter.drawLine(QPointF(x, area.top() + kAxisHeight - 5), QPointF(x, area.top() + kAxisHeight - 1));
        painter.drawText(QPointF(x + 2, area.top() + kAxisHeight - 7), QString::fromStdString(secondsText(t, decimals)) + QStringLiteral(" s"));
    }

    const QFontMetrics fm(painter.font());
    const double charWidth = std::max(1, fm.averageCharWidth());
    const QColor merged = palette.color(QPalette::Mid);
    const bool searching = !m_matches.empty();
    const int top = area.top() + kAxisHeight;
    painter.save();
    painter.setClipRect(QRect(area.left(), top, area.width(), area.height() - kAxisHeight));
    size_t painted = 0;
    const int64_t from = int64_t(std::floor(view.from)), to = int64_t(std::ceil(view.to)) + 1;
    for (size_t lane = 0; lane < m_chart->lanes().size(); ++lane) {
        const int y0 = top + m_laneTop[lane] - view.scrollY;
        if (y0 > area.bottom() || top + m_laneTop[lane + 1] - view.scrollY < top)
            continue;
        const FlameChart::Lane &l = m_chart->lanes()[lane];
        painter.setPen(palette.color(QPalette::Mid));
        painter.drawLine(area.left(), y0, area.right(), y0);
        painter.setPen(text);
        painter.drawText(QRect(area.left() + 4, y0, area.width() - 8, kLaneHeader), Qt::AlignVCenter | Qt::AlignLeft,
                         QString::fromStdString(l.name) + QStringLiteral("  (%1 samples)").arg(l.samples));
        m_boxes.clear();
        m_chart->query(lane, from, to, npp, m_boxes);
        const int rowsTop = y0 + kLaneHeader;
        for (const FlameBox &b : m_boxes) {
            const int y = rowsTop + int(b.depth) * kRowHeight;
            if (y > area.bottom() || y + kRowHeight < top)
                continue;
            const double x0 = std::max(xOf(double(b.start)), double(area.left()) - 1);
            const double x1 = std::min(xOf(double(b.end)), double(area.right()) + 2);
            const double w = std::max(x1 - x0, 1.0);
            const bool isMerged = b.node == FlameChart::kMerged;
            QColor fill = isMerged ? merged : colorOf(b.node);
            if (searching && (isMerged || !m_matches[m_chart->frame(b.node)]))
                fill = dimmed(fill, base);
            const QRectF r(x0, y, w, kRowHeight - 1);
            painter.fillRect(r, fill);
            ++painted;
            // Names where they fit a few characters; cut by the average character width, which costs no layout.
            if (!isMerged && w >= 3 * charWidth + 6) {
                const std::string &name = m_chart->label(b.node);
                const size_t fits = size_t((w - 6) / charWidth);
                QString shown = QString::fromUtf8(name.data(), qsizetype(std::min(name.size(), fits + 1)));
                if (shown.size() > qsizetype(fits))
                    shown = shown.left(qsizetype(fits) - 1) + QChar(0x2026);
                painter.setPen(searching && !m_matches[m_chart->frame(b.node)] ? palette.color(QPalette::Mid)
                                                                               : QColor(Qt::black));
                painter.drawText(r.adjusted(3, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft, shown);
            }
        }
        if (m_selected && m_selected->first == lane) {
            const FlameBox &b = m_selected->second;
            const double x0 = xOf(double(b.start)), x1 = xOf(double(b.end));
            painter.setPen(QPen(palette.color(QPalette::Highlight), 2));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(QRectF(x0, rowsTop + int(b.depth) * kRowHeight, std::max(x1 - x0, 2.0), kRowHeight - 1));
        }
    }
    painter.restore();
    return painted;
}

std::optional<size_t> FlameChartPainter::laneAt(QPoint point, const QRect &area, const ChartView &view) const
{
    if (!m_chart || point.y() < area.top() + kAxisHeight)
        return std::nullopt;
    const int y = point.y() - area.top() - kAxisHeight + view.scrollY;
    for (size_t lane = 0; lane + 1 < m_laneTop.size(); ++lane)
        if (y >= m_laneTop[lane] && y < m_laneTop[lane + 1])
            return lane;
    return std::nullopt;
}

std::optional<FlameChartPainter::Hit> FlameChartPainter::boxAt(QPoint point, const QRect &area, const ChartView &view) const
{
    const std::optional<size_t> lane = laneAt(point, area, view);
    if (!lane || area.width() <= 0)
        return std::nullopt;
    const int y = point.y() - area.top() - kAxisHeight + view.scrollY - m_laneTop[*lane] - kLaneHeader;
    if (y < 0)
        return std::nullopt;
    const uint32_t depth = uint32_t(y / kRowHeight);
    const double npp = (view.to - view.from) / double(area.width());
    const double t = view.from + double(point.x() - area.left()) * npp;
    // A pixel's time, widened by a pixel each side: a box painted 1 px wide is hit where it is seen.
    std::vector<FlameBox> boxes;
    m_chart->query(*lane, int64_t(t - npp), int64_t(t + npp) + 1, npp, boxes);
    std::optional<Hit> best;
    for (const FlameBox &b : boxes)
        if (b.depth == depth) {
            const double distance = double(b.start) > t ? double(b.start) - t : double(b.end) < t ? t - double(b.end) : 0;
            if (!best || distance == 0)
                best = Hit{*lane, b};
            if (distance == 0)
                break;
        }
    return best;
}

}   // namespace qflame
