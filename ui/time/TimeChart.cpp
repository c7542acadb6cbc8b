#include "time/TimeChart.h"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <utility>

namespace qflame {

TimeChart::TimeChart(QWidget *parent) : QWidget(parent)
{
    setMinimumHeight(120);
    setMouseTracking(false);
}

void TimeChart::setHeatmap(Heatmap heatmap)
{
    m_heatmap = std::move(heatmap);
    m_dragFrom = -1;
    m_sel[0] = m_sel[1] = {};
    m_viewFrom = m_viewTo = 0;
    update();
}

QRectF TimeChart::plot() const
{
    return QRectF(rect()).adjusted(4, 4, -4, -18);
}

size_t TimeChart::columnAt(double x) const
{
    const QRectF p = plot();
    if (m_heatmap.columns == 0 || p.width() <= 0)
        return 0;
    const double c = (x - p.left()) / p.width() * double(m_heatmap.columns);
    return size_t(std::clamp(c, 0.0, double(m_heatmap.columns - 1)));
}

double TimeChart::xOf(double nanos) const
{
    const QRectF p = plot();
    const double span = double(m_heatmap.columns) * double(m_heatmap.columnNanos);
    return span > 0 ? p.left() + nanos / span * p.width() : p.left();
}

TimeChart::Range TimeChart::columnsRange(long long a, long long b) const
{
    const long long first = std::min(a, b), last = std::min<long long>(std::max(a, b), (long long)m_heatmap.columns - 1);
    return {qint64(first) * m_heatmap.columnNanos, qint64(last + 1) * m_heatmap.columnNanos};
}

void TimeChart::selectColumns(size_t first, size_t last)
{
    if (m_heatmap.columns == 0)
        return;
    m_sel[0] = columnsRange((long long)first, (long long)last);
    m_sel[1] = {};
    update();
    Q_EMIT rangeSelected(m_sel[0].from, m_sel[0].to);
}

void TimeChart::selectSecondColumns(size_t first, size_t last)
{
    if (m_heatmap.columns == 0)
        return;
    m_sel[1] = columnsRange((long long)first, (long long)last);
    update();
    Q_EMIT secondRangeSelected(m_sel[1].from, m_sel[1].to);
}

void TimeChart::setSelection(qint64 fromNanos, qint64 toNanos)
{
    m_sel[0] = {fromNanos, toNanos};
    m_sel[1] = {};
    update();
}

void TimeChart::setViewMarker(double fromNanos, double toNanos)
{
    m_viewFrom = fromNanos, m_viewTo = toNanos;
    update();
}

void TimeChart::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    const QPalette &pal = palette();
    painter.fillRect(rect(), pal.color(QPalette::Base));
    const QRectF p = plot();
    const Heatmap &h = m_heatmap;
    if (h.columns == 0 || h.rows == 0)
        return;
    const double cw = p.width() / double(h.columns), rh = p.height() / double(h.rows);
    for (size_t c = 0; c < h.columns; ++c)
        for (uint32_t r = 0; r < h.rows; ++r) {
            const int64_t v = h.value(c, r);
            if (v <= 0 || h.maxValue <= 0)
                continue;
            // FlameScope's ramp: pale yellow to deep red by the share of the fullest cell.
            const double share = std::clamp(double(v) / double(h.maxValue), 0.0, 1.0);
            const QColor colour = QColor::fromHsvF(0.16 * (1 - share), 0.25 + 0.75 * share, 1.0 - 0.25 * share);
            painter.fillRect(QRectF(p.left() + double(c) * cw, p.top() + double(r) * rh, std::max(cw, 1.0), std::max(rh, 1.0)),
                             colour);
        }
    painter.setPen(pal.color(QPalette::Mid));
    painter.drawRect(p);
    // The first range in the highlight colour, the second (compared with it) in a violet of its own.
    const QColor colours[2] = {pal.color(QPalette::Highlight), QColor(0x8e, 0x44, 0xad)};
    for (int k = 0; k < 2; ++k) {
        if (m_sel[k].to <= m_sel[k].from)
            continue;
        QColor fill = colours[k];
        fill.setAlphaF(0.15);   // the cells' heat still readable under it
        const double x0 = xOf(double(m_sel[k].from)), x1 = xOf(double(m_sel[k].to));
        const QRectF s(x0, p.top(), std::max(x1 - x0, 2.0), p.height());
        painter.fillRect(s, fill);
        painter.setPen(QPen(colours[k], 2));
        painter.drawRect(s);
        painter.drawText(s.adjusted(3, 2, 0, 0), Qt::AlignLeft | Qt::AlignTop, k == 0 ? QStringLiteral("A") : QStringLiteral("B"));
    }
    if (m_viewTo > m_viewFrom) {
        // The flame chart's view: a bracket just under the columns.
        const double x0 = xOf(m_viewFrom), x1 = std::max(xOf(m_viewTo), x0 + 1);
        painter.setPen(QPen(pal.color(QPalette::Text), 2));
        const double y = p.bottom() + 2;
        painter.drawLine(QPointF(x0, y), QPointF(x1, y));
        painter.drawLine(QPointF(x0, y - 4), QPointF(x0, y));
        painter.drawLine(QPointF(x1, y - 4), QPointF(x1, y));
    }
    // Seconds along the bottom, every tenth of the columns.
    painter.setPen(pal.color(QPalette::Text));
    const size_t step = std::max<size_t>(1, h.columns / 10);
    for (size_t c = 0; c < h.columns; c += step)
        painter.drawText(QPointF(p.left() + double(c) * cw + 2, p.bottom() + 15),
                         QString::number(double(c) * double(h.columnNanos) / 1e9) + QStringLiteral(" s"));
}

void TimeChart::mousePressEvent(QMouseEvent *e)
{
    if (e->button() != Qt::LeftButton || m_heatmap.columns == 0)
        return;
    // Shift+drag: the second range, compared with the first (which a plain drag selects, clearing the second).
    m_dragging = (e->modifiers() & Qt::ShiftModifier) && m_sel[0].to > m_sel[0].from ? 1 : 0;
    m_dragFrom = m_dragAt = (long long)columnAt(e->position().x());
    m_sel[m_dragging] = columnsRange(m_dragFrom, m_dragAt);
    update();
}

void TimeChart::mouseMoveEvent(QMouseEvent *e)
{
    if (m_dragFrom < 0)
        return;
    m_dragAt = (long long)columnAt(e->position().x());
    m_sel[m_dragging] = columnsRange(m_dragFrom, m_dragAt);
    update();
}

void TimeChart::mouseReleaseEvent(QMouseEvent *e)
{
    if (m_dragFrom < 0 || e->button() != Qt::LeftButton)
        return;
    mouseMoveEvent(e);
    const long long from = std::exchange(m_dragFrom, -1);
    if (m_dragging == 1)
        selectSecondColumns(size_t(std::min(from, m_dragAt)), size_t(std::max(from, m_dragAt)));
    else
        selectColumns(size_t(std::min(from, m_dragAt)), size_t(std::max(from, m_dragAt)));
}

}   // namespace qflame
