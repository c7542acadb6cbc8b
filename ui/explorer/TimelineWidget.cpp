#include "explorer/TimelineWidget.h"

#include <QDateTime>
#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <map>

namespace qflame::qryn {

TimelineWidget::TimelineWidget(QWidget *parent) : QWidget(parent)
{
    setMouseTracking(false);
    setToolTip(tr("Drag to choose the range; Shift+drag or right-drag for the comparison range"));
}

void TimelineWidget::setWindow(const TimeRange &window)
{
    m_window = window;
    update();
}

void TimelineWidget::setSeries(const QList<Series> &series, qint64 stepMs)
{
    m_series = series;
    m_stepMs = std::max<qint64>(stepMs, 1);
    update();
}

void TimelineWidget::setBrush(Brush which, std::optional<TimeRange> range)
{
    m_brush[which] = range;
    update();
}

void TimelineWidget::clearBrushes()
{
    m_brush[0].reset();
    m_brush[1].reset();
    update();
}

QColor TimelineWidget::seriesColor(int index)
{
    // Muted, distinguishable hues: the bars are context, the brushes on top must stay readable.
    static const QColor colors[] = {QColor(0x4e, 0x79, 0xa7), QColor(0x59, 0xa1, 0x4f), QColor(0xb0, 0x7a, 0xa1),
                                    QColor(0x76, 0xb7, 0xb2), QColor(0xed, 0xc9, 0x48), QColor(0x9c, 0x75, 0x5f)};
    return colors[index % int(std::size(colors))];
}

QColor TimelineWidget::brushColor(Brush which)
{
    return which == Baseline ? QColor(30, 110, 230, 70) : QColor(240, 120, 20, 80);
}

QString TimelineWidget::seriesName(const Series &series)
{
    QStringList parts;
    for (const LabelPair &l : series.labels)
        parts << l.name + QLatin1Char('=') + l.value;
    return parts.isEmpty() ? tr("all") : parts.join(QStringLiteral(", "));
}

QRect TimelineWidget::plotRect() const
{
    const int textH = fontMetrics().height();
    return rect().adjusted(4, 4, -4, -(textH + 6));
}

qint64 TimelineWidget::timeAt(int x) const
{
    const QRect r = plotRect();
    const double f = std::clamp(double(x - r.left()) / std::max(1, r.width()), 0.0, 1.0);
    return m_window.startMs + qint64(f * double(m_window.lengthMs()));
}

int TimelineWidget::xAt(qint64 ms) const
{
    const QRect r = plotRect();
    if (m_window.lengthMs() <= 0)
        return r.left();
    return r.left() + int(double(ms - m_window.startMs) / double(m_window.lengthMs()) * r.width());
}

void TimelineWidget::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    const QRect r = plotRect();
    p.setPen(palette().mid().color());
    p.drawRect(r.adjusted(0, 0, -1, -1));

    // Stacked bars: each bucket's height is the sum of its series' values, so the y scale is the largest sum.
    std::map<qint64, double> stacked;
    for (const Series &s : m_series)
        for (const SeriesPoint &pt : s.points)
            stacked[pt.timestampMs] += pt.value;
    double maxSum = 0;
    for (const auto &[ts, v] : stacked)
        maxSum = std::max(maxSum, v);
    if (maxSum > 0 && m_window.lengthMs() > 0) {
        std::map<qint64, double> base;
        for (int i = 0; i < m_series.size(); ++i) {
            p.setPen(Qt::NoPen);
            p.setBrush(seriesColor(i));
            for (const SeriesPoint &pt : m_series[i].points) {
                const int x0 = xAt(pt.timestampMs);
                // A bucket is at least 3 px wide, so a single point in a week stays visible.
                const int x1 = std::max(xAt(pt.timestampMs + m_stepMs), x0 + 3);
                const double below = base[pt.timestampMs];
                const int yTop = r.bottom() - int((below + pt.value) / maxSum * (r.height() - 2));
                const int yBottom = r.bottom() - int(below / maxSum * (r.height() - 2));
                p.drawRect(QRect(QPoint(x0, yTop), QPoint(x1 - 1, yBottom)));
                base[pt.timestampMs] = below + pt.value;
            }
        }
    } else {
        p.setPen(palette().placeholderText().color());
        p.drawText(r, Qt::AlignCenter,
                   m_window.lengthMs() > 0 ? tr("no points in this range")
                                           : tr("the timeline of the query shows here after Load"));
    }
    if (m_window.lengthMs() <= 0)
        return;   // no window yet: no 1970 dates at the ends, no legend

    for (int b = 0; b < 2; ++b) {
        if (!m_brush[b])
            continue;
        const QColor c = brushColor(Brush(b));
        const QRect br(QPoint(xAt(m_brush[b]->startMs), r.top()), QPoint(xAt(m_brush[b]->endMs), r.bottom()));
        p.fillRect(br, c);
        QColor edge = c;
        edge.setAlpha(255);
        p.setPen(QPen(edge, 2));
        p.drawLine(br.topLeft(), br.bottomLeft());
        p.drawLine(br.topRight(), br.bottomRight());
        p.drawText(br.adjusted(4, 2, 0, 0), Qt::AlignLeft | Qt::AlignTop,
                   b == Baseline ? tr("baseline") : tr("comparison"));
    }

    // The window's ends as local times: enough to read the axis without a grid.
    p.setPen(palette().text().color());
    const QRect textRect(r.left(), r.bottom() + 3, r.width(), fontMetrics().height());
    auto fmt = [](qint64 ms) {
        return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    };
    p.drawText(textRect, Qt::AlignLeft, fmt(m_window.startMs));
    p.drawText(textRect, Qt::AlignRight, fmt(m_window.endMs));

    // The legend, centred between the two times (outside the plot, so no brush or bar hides it): which colour
    // is which series; grouped timelines have one per label value.
    const QFontMetrics fm = fontMetrics();
    const int room = r.width() - 2 * fm.horizontalAdvance(fmt(m_window.endMs)) - 40;
    QStringList names;
    int w = 0;
    for (int i = 0; i < m_series.size(); ++i) {
        const QString name = fm.elidedText(seriesName(m_series[i]), Qt::ElideMiddle, 220);
        const int add = fm.horizontalAdvance(name) + 20;
        if (w + add > room)
            break;   // the rest do not fit; the colours keep their order
        names << name;
        w += add;
    }
    int x = r.left() + (r.width() - w) / 2;
    for (int i = 0; i < names.size(); ++i) {
        p.fillRect(QRect(x, textRect.top() + 3, 9, fm.height() - 6), seriesColor(i));
        const int tw = fm.horizontalAdvance(names[i]);
        p.drawText(QRect(x + 13, textRect.top(), tw + 2, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, names[i]);
        x += tw + 20;
    }
}

void TimelineWidget::mousePressEvent(QMouseEvent *event)
{
    if (m_window.lengthMs() <= 0)
        return;
    const bool comparison = event->button() == Qt::RightButton || (event->modifiers() & Qt::ShiftModifier);
    if (event->button() != Qt::LeftButton && event->button() != Qt::RightButton)
        return;
    m_dragging = comparison ? Comparison : Baseline;
    m_dragStartMs = timeAt(event->position().toPoint().x());
    m_brush[m_dragging] = TimeRange{m_dragStartMs, m_dragStartMs};
    update();
}

void TimelineWidget::mouseMoveEvent(QMouseEvent *event)
{
    if (m_dragging < 0)
        return;
    const qint64 t = timeAt(event->position().toPoint().x());
    m_brush[m_dragging] = TimeRange{std::min(t, m_dragStartMs), std::max(t, m_dragStartMs)};
    update();
}

void TimelineWidget::mouseReleaseEvent(QMouseEvent *event)
{
    if (m_dragging < 0)
        return;
    mouseMoveEvent(event);
    const int which = m_dragging;
    m_dragging = -1;
    // A click without a drag clears that brush rather than choosing an empty range.
    if (m_brush[which]->lengthMs() <= 0) {
        m_brush[which].reset();
        update();
        return;
    }
    Q_EMIT brushed(which, *m_brush[which]);
}

}   // namespace qflame::qryn
