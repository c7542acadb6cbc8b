#include "time/TimeChart.h"

#include "time/TimeRange.h"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <utility>

namespace qflame {

TimeChart::TimeChart(QWidget *parent) : QWidget(parent)
{
    setMinimumHeight(120);
    setMinimumWidth(160);   // a column of cells stays clickable beside a wide comparison
    setMouseTracking(false);
}

QList<QPair<QString, QString>> TimeChart::keyBindings()
{
    return {{tr("Drag"), tr("Heatmap: select whole columns, their flamegraph beside it")},
            {tr("Ctrl+Click"), tr("Heatmap: add a cell to the selection, or take it out")},
            {tr("Ctrl+Drag"), tr("Heatmap: add the cells from the one pressed to the one released, in time order")},
            {tr("Shift+Drag"), tr("Heatmap: a second range, compared with the first (the diff flamegraph)")}};
}

void TimeChart::setHeatmap(Heatmap heatmap)
{
    m_heatmap = std::move(heatmap);
    m_dragFrom = -1;
    m_first.clear();
    m_second = {};
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

uint32_t TimeChart::rowAt(double y) const
{
    const QRectF p = plot();
    if (m_heatmap.rows == 0 || p.height() <= 0)
        return 0;
    const double r = (y - p.top()) / p.height() * double(m_heatmap.rows);
    return uint32_t(std::clamp(r, 0.0, double(m_heatmap.rows - 1)));
}

QList<QRectF> TimeChart::cellRects(const TimeRange &range) const
{
    const Heatmap &h = m_heatmap;
    QList<QRectF> out;
    if (h.columns == 0 || h.rows == 0 || range.toNanos <= range.fromNanos)
        return out;
    const QRectF p = plot();
    const double cw = p.width() / double(h.columns), rh = p.height() / double(h.rows);
    // The cell of a time: its column, and its row as computeHeatmap finds it.
    const auto cellOf = [&](int64_t nanos) {
        nanos = std::clamp<int64_t>(nanos, 0, int64_t(h.columns) * h.columnNanos - 1);
        const size_t c = size_t(nanos / h.columnNanos);
        const int64_t offset = nanos - int64_t(c) * h.columnNanos;
        return std::pair(c, uint32_t((__int128(offset) * h.rows) / h.columnNanos));
    };
    const auto [c0, r0] = cellOf(range.fromNanos);
    const auto [c1, r1] = cellOf(range.toNanos - 1);
    for (size_t c = c0; c <= c1; ++c) {
        const uint32_t top = c == c0 ? r0 : 0, bottom = c == c1 ? r1 : h.rows - 1;
        out << QRectF(p.left() + double(c) * cw, p.top() + double(top) * rh, std::max(cw, 2.0),
                      std::max(double(bottom - top + 1) * rh, 2.0));
    }
    return out;
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
    const Range r = columnsRange((long long)first, (long long)last);
    m_first = {TimeRange{r.from, r.to}};
    m_second = {};
    update();
    Q_EMIT rangeSelected(r.from, r.to);
}

void TimeChart::toggleCells(size_t column, uint32_t row, size_t toColumn, uint32_t toRow)
{
    if (m_heatmap.columns == 0)
        return;
    const TimeRange span = m_heatmap.cellSpan(std::min(column, m_heatmap.columns - 1), std::min(row, m_heatmap.rows - 1),
                                              std::min(toColumn, m_heatmap.columns - 1), std::min(toRow, m_heatmap.rows - 1));
    // A Ctrl+click on a cell that is selected already takes it out; anything else adds.
    const bool one = column == toColumn && row == toRow;
    const bool inside = std::any_of(m_first.begin(), m_first.end(), [&](const TimeRange &r) {
        return r.fromNanos <= span.fromNanos && span.toNanos <= r.toNanos;
    });
    if (one && inside)
        m_first = timeRangeMinus(m_first, span);
    else {
        m_first.push_back(span);
        m_first = timeRangeUnion(std::move(m_first));
    }
    m_second = {};
    update();
    Q_EMIT selectionChanged(m_first);
}

void TimeChart::selectSecondColumns(size_t first, size_t last)
{
    if (m_heatmap.columns == 0)
        return;
    m_second = columnsRange((long long)first, (long long)last);
    update();
    Q_EMIT secondRangeSelected(m_second.from, m_second.to);
}

void TimeChart::setSelection(qint64 fromNanos, qint64 toNanos)
{
    m_first = {TimeRange{fromNanos, toNanos}};
    m_second = {};
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
    // A union's cells as they are covered, column by column; a range of whole columns is one rectangle.
    const QColor colours[2] = {pal.color(QPalette::Highlight), QColor(0x8e, 0x44, 0xad)};
    TimeRanges first = m_first;
    if (m_dragging == Drag::Cells && m_dragFrom >= 0)   // the cells a Ctrl+drag adds, as it goes
        first.push_back(h.cellSpan(size_t(m_dragFrom), m_dragRowFrom, size_t(m_dragAt), m_dragRowAt));
    const TimeRanges second{TimeRange{m_second.from, m_second.to}};
    const TimeRanges *sets[2] = {&first, &second};
    for (int k = 0; k < 2; ++k) {
        QColor fill = colours[k];
        fill.setAlphaF(0.15);   // the cells' heat still readable under it
        bool labelled = false;
        for (const TimeRange &range : timeRangeUnion(*sets[k]))
            for (const QRectF &s : cellRects(range)) {
                painter.fillRect(s, fill);
                painter.setPen(QPen(colours[k], 2));
                painter.drawRect(s);
                if (!std::exchange(labelled, true))
                    painter.drawText(s.adjusted(3, 2, 0, 0), Qt::AlignLeft | Qt::AlignTop,
                                     k == 0 ? QStringLiteral("A") : QStringLiteral("B"));
            }
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
                         QString::fromStdString(secondsText(double(c) * double(h.columnNanos))) + QStringLiteral(" s"));
}

void TimeChart::mousePressEvent(QMouseEvent *e)
{
    if (e->button() != Qt::LeftButton || m_heatmap.columns == 0)
        return;
    // Ctrl: cells added to the first selection; Shift+drag: the second range, compared with the first (which a
    // plain drag selects, clearing the second).
    const bool hasFirst = !m_first.empty();
    m_dragging = e->modifiers() & Qt::ControlModifier ? Drag::Cells
                 : (e->modifiers() & Qt::ShiftModifier) && hasFirst ? Drag::Second
                                                                     : Drag::First;
    m_dragFrom = m_dragAt = (long long)columnAt(e->position().x());
    m_dragRowFrom = m_dragRowAt = rowAt(e->position().y());
    mouseMoveEvent(e);
}

void TimeChart::mouseMoveEvent(QMouseEvent *e)
{
    if (m_dragFrom < 0)
        return;
    m_dragAt = (long long)columnAt(e->position().x());
    m_dragRowAt = rowAt(e->position().y());
    const Range r = columnsRange(m_dragFrom, m_dragAt);
    if (m_dragging == Drag::First)
        m_first = {TimeRange{r.from, r.to}};
    else if (m_dragging == Drag::Second)
        m_second = r;
    update();
}

void TimeChart::mouseReleaseEvent(QMouseEvent *e)
{
    if (m_dragFrom < 0 || e->button() != Qt::LeftButton)
        return;
    mouseMoveEvent(e);
    const long long from = std::exchange(m_dragFrom, -1);
    const size_t first = size_t(std::min(from, m_dragAt)), last = size_t(std::max(from, m_dragAt));
    switch (std::exchange(m_dragging, Drag::None)) {
    case Drag::Cells:
        toggleCells(size_t(from), m_dragRowFrom, size_t(m_dragAt), m_dragRowAt);
        break;
    case Drag::Second:
        selectSecondColumns(first, last);
        break;
    default:
        selectColumns(first, last);
    }
}

}   // namespace qflame
