#include "time/TimeChart.h"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>

namespace qflame {

TimeChart::TimeChart(QWidget *parent) : QWidget(parent)
{
    setMinimumHeight(120);
    setMouseTracking(false);
}

void TimeChart::setHeatmap(Heatmap heatmap)
{
    m_heatmap = std::move(heatmap);
    m_selFirst = m_selLast = m_dragFrom = -1;
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

void TimeChart::selectColumns(size_t first, size_t last)
{
    if (m_heatmap.columns == 0)
        return;
    m_selFirst = (long long)std::min(first, last);
    m_selLast = (long long)std::min(std::max(first, last), m_heatmap.columns - 1);
    update();
    Q_EMIT rangeSelected(qint64(m_selFirst) * m_heatmap.columnNanos, qint64(m_selLast + 1) * m_heatmap.columnNanos);
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
    if (m_selFirst >= 0) {
        QColor sel = pal.color(QPalette::Highlight);
        sel.setAlphaF(0.3);
        const QRectF s(p.left() + double(m_selFirst) * cw, p.top(), double(m_selLast - m_selFirst + 1) * cw, p.height());
        painter.fillRect(s, sel);
        painter.setPen(pal.color(QPalette::Highlight));
        painter.drawRect(s);
    }
    // Seconds along the bottom, every tenth of the columns.
    painter.setPen(pal.color(QPalette::Text));
    const size_t step = std::max<size_t>(1, h.columns / 10);
    for (size_t c = 0; c < h.columns; c += step)
        painter.drawText(QPointF(p.left() + double(c) * cw + 2, p.bottom() + 14),
                         QString::number(double(c) * double(h.columnNanos) / 1e9) + QStringLiteral(" s"));
}

void TimeChart::mousePressEvent(QMouseEvent *e)
{
    if (e->button() != Qt::LeftButton || m_heatmap.columns == 0)
        return;
    m_dragFrom = (long long)columnAt(e->position().x());
    m_selFirst = m_selLast = m_dragFrom;
    update();
}

void TimeChart::mouseMoveEvent(QMouseEvent *e)
{
    if (m_dragFrom < 0)
        return;
    const long long at = (long long)columnAt(e->position().x());
    m_selFirst = std::min(m_dragFrom, at), m_selLast = std::max(m_dragFrom, at);
    update();
}

void TimeChart::mouseReleaseEvent(QMouseEvent *e)
{
    if (m_dragFrom < 0 || e->button() != Qt::LeftButton)
        return;
    mouseMoveEvent(e);
    m_dragFrom = -1;
    selectColumns(size_t(m_selFirst), size_t(m_selLast));
}

}   // namespace qflame
