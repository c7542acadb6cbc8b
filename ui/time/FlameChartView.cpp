#include "time/FlameChartView.h"

#include "time/TimeRange.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace qflame {

FlameChartView::FlameChartView(QWidget *parent) : QWidget(parent)
{
    setMouseTracking(true);
    setMinimumHeight(120);
    setFocusPolicy(Qt::ClickFocus);
}

QList<QPair<QString, QString>> FlameChartView::keyBindings()
{
    return {{tr("Wheel"), tr("Flame chart: zoom around the pointer")},
            {tr("Drag"), tr("Flame chart: pan")},
            {tr("Shift+Wheel"), tr("Flame chart: scroll the threads")},
            {tr("Drag along the time axis"), tr("Flame chart: select that time (the heatmap and flamegraph follow)")},
            {tr("Click"), tr("Flame chart: select the function in the range's flamegraph")},
            {tr("Double-click"), tr("Flame chart: zoom to the box")},
            {tr("+, -"), tr("Flame chart: zoom in, out around the middle")},
            {tr("Left, Right"), tr("Flame chart: pan by a tenth of the view")},
            {tr("Up, Down"), tr("Flame chart: scroll the threads")},
            {tr("0, Home"), tr("Flame chart: the whole recording")}};
}

void FlameChartView::zoomAround(double at, double factor, double x)
{
    m_view.from = at - (at - m_view.from) * factor;
    m_view.to = at + (m_view.to - at) * factor;
    if (m_view.to - m_view.from < kMinSpanNanos) {
        m_view.from = at - x * kMinSpanNanos;
        m_view.to = m_view.from + kMinSpanNanos;
    }
    clampView();
    update();
    Q_EMIT viewChanged(m_view.from, m_view.to);
}

void FlameChartView::keyPressEvent(QKeyEvent *e)
{
    const double span = m_view.to - m_view.from;
    switch (e->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomAround((m_view.from + m_view.to) / 2, 0.8, 0.5);
        break;
    case Qt::Key_Minus:
        zoomAround((m_view.from + m_view.to) / 2, 1.25, 0.5);
        break;
    case Qt::Key_Left:
    case Qt::Key_Right: {
        const double by = (e->key() == Qt::Key_Left ? -0.1 : 0.1) * span;
        setView(m_view.from + by, m_view.to + by);
        Q_EMIT viewChanged(m_view.from, m_view.to);
        break;
    }
    case Qt::Key_Up:
    case Qt::Key_Down:
        scrollBy((e->key() == Qt::Key_Up ? -3 : 3) * FlameChartPainter::kRowHeight);
        break;
    case Qt::Key_0:
    case Qt::Key_Home:
        showAll();
        Q_EMIT viewChanged(m_view.from, m_view.to);
        break;
    default:
        QWidget::keyPressEvent(e);
        return;
    }
    e->accept();
}

void FlameChartView::setChart(std::shared_ptr<const FlameChart> chart)
{
    m_painter.setChart(std::move(chart));
    m_view.scrollY = 0;
    showAll();
}

void FlameChartView::setMatches(std::vector<uint8_t> matches)
{
    m_painter.setMatches(std::move(matches));
    update();
}

void FlameChartView::showAll()
{
    const FlameChart *c = chart();
    setView(0, c ? double(std::max<int64_t>(c->endNanos(), 1)) : 1);
}

void FlameChartView::clampView()
{
    const FlameChart *c = chart();
    const double end = c ? std::max(double(c->endNanos()), kMinSpanNanos) : 1;
    double span = std::clamp(m_view.to - m_view.from, kMinSpanNanos, end);
    m_view.from = std::clamp(m_view.from, 0.0, end - span);
    m_view.to = m_view.from + span;
    const int room = std::max(0, m_painter.contentHeight() - (height() - FlameChartPainter::kAxisHeight));
    m_view.scrollY = std::clamp(m_view.scrollY, 0, room);
}

void FlameChartView::setView(double from, double to)
{
    m_view.from = from;
    m_view.to = std::max(to, from + kMinSpanNanos);
    clampView();
    update();
}

double FlameChartView::timeAt(double x) const
{
    return m_view.from + x * (m_view.to - m_view.from) / std::max(1, width());
}

void FlameChartView::scrollBy(int dy)
{
    m_view.scrollY += dy;
    clampView();
    update();
}

void FlameChartView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    m_painter.paint(p, rect(), m_view, palette());
    if (m_drag == Drag::Range) {
        QColor sel = palette().color(QPalette::Highlight);
        sel.setAlphaF(0.25);
        const double w = double(width()) / (m_view.to - m_view.from);
        const double x0 = (std::min(m_rangeFrom, m_rangeTo) - m_view.from) * w, x1 = (std::max(m_rangeFrom, m_rangeTo) - m_view.from) * w;
        p.fillRect(QRectF(x0, 0, std::max(x1 - x0, 1.0), height()), sel);
    }
    if (!chart()) {
        p.setPen(palette().color(QPalette::Mid));
        p.drawText(rect(), Qt::AlignCenter, tr("The flame chart comes once the profile's sample times are read."));
    }
}

void FlameChartView::wheelEvent(QWheelEvent *e)
{
    const double steps = e->angleDelta().y() / 120.0;
    if (e->modifiers() & Qt::ShiftModifier || e->angleDelta().y() == 0) {
        scrollBy(int(-(e->angleDelta().y() ? e->angleDelta().y() : e->angleDelta().x()) / 120.0 * 3 *
                     FlameChartPainter::kRowHeight));
        e->accept();
        return;
    }
    zoomAround(timeAt(e->position().x()), std::pow(0.8, steps), e->position().x() / std::max(1, width()));
    e->accept();
}

void FlameChartView::mousePressEvent(QMouseEvent *e)
{
    if (e->button() != Qt::LeftButton || !chart())
        return;
    m_pressAt = e->position().toPoint();
    m_pressView = m_view;
    m_moved = false;
    if (m_pressAt.y() < FlameChartPainter::kAxisHeight) {
        m_drag = Drag::Range;
        m_rangeFrom = m_rangeTo = timeAt(m_pressAt.x());
    } else {
        m_drag = Drag::Pan;
    }
}

void FlameChartView::mouseMoveEvent(QMouseEvent *e)
{
    const QPoint at = e->position().toPoint();
    if (m_drag == Drag::None) {
        const QString text = describeAt(at);
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(e->globalPosition().toPoint(), text, this);
        return;
    }
    m_moved = m_moved || (at - m_pressAt).manhattanLength() >= 3;
    if (m_drag == Drag::Range) {
        m_rangeTo = std::clamp(timeAt(at.x()), 0.0, double(chart()->endNanos()));
        update();
        return;
    }
    const double perPixel = (m_pressView.to - m_pressView.from) / std::max(1, width());
    m_view.from = m_pressView.from - double(at.x() - m_pressAt.x()) * perPixel;
    m_view.to = m_pressView.to - double(at.x() - m_pressAt.x()) * perPixel;
    m_view.scrollY = m_pressView.scrollY - (at.y() - m_pressAt.y());
    clampView();
    update();
    Q_EMIT viewChanged(m_view.from, m_view.to);
}

void FlameChartView::mouseReleaseEvent(QMouseEvent *e)
{
    if (e->button() != Qt::LeftButton || m_drag == Drag::None)
        return;
    const Drag drag = std::exchange(m_drag, Drag::None);
    if (drag == Drag::Range) {
        update();
        const double a = std::max(0.0, std::min(m_rangeFrom, m_rangeTo)), b = std::max(m_rangeFrom, m_rangeTo);
        if (m_moved && b > a)
            Q_EMIT rangeSelected(qint64(a), qint64(std::ceil(b)));
        return;
    }
    if (!m_moved)
        clickAt(e->position().toPoint());
}

void FlameChartView::mouseDoubleClickEvent(QMouseEvent *e)
{
    const auto hit = m_painter.boxAt(e->position().toPoint(), rect(), m_view);
    if (!hit)
        return;
    const double margin = double(hit->box.end - hit->box.start) * 0.05;
    setView(double(hit->box.start) - margin, double(hit->box.end) + margin);
    Q_EMIT viewChanged(m_view.from, m_view.to);
}

bool FlameChartView::clickAt(QPoint point)
{
    const auto hit = m_painter.boxAt(point, rect(), m_view);
    m_painter.setSelected(hit ? std::optional(std::pair(hit->lane, hit->box)) : std::nullopt);
    update();
    if (!hit || hit->box.node == FlameChart::kMerged)
        return false;
    Q_EMIT boxClicked(QString::fromStdString(chart()->label(hit->box.node)), hit->box.start, hit->box.end);
    return true;
}

QString FlameChartView::describeAt(QPoint point) const
{
    const auto hit = m_painter.boxAt(point, rect(), m_view);
    if (!hit)
        return {};
    const FlameChart &c = *chart();
    const FlameBox &b = hit->box;
    const QString when = tr("%1 to %2 s").arg(QString::fromStdString(secondsText(double(b.start), 6)), QString::fromStdString(secondsText(double(b.end), 6)));
    const QString thread = QString::fromStdString(c.lanes()[hit->lane].name);
    if (b.node == FlameChart::kMerged)
        return tr("Calls narrower than a pixel, %1 in all (zoom in to see them)\n%2\n%3")
            .arg(FlameChartPainter::formatNanos(double(b.end - b.start)), when, thread);
    return tr("%1\n%2, %3\n%4, depth %5")
        .arg(QString::fromStdString(c.label(b.node)), FlameChartPainter::formatNanos(double(b.end - b.start)), when,
             thread)
        .arg(b.depth + 1);
}

void FlameChartView::leaveEvent(QEvent *)
{
    QToolTip::hideText();
}

void FlameChartView::resizeEvent(QResizeEvent *)
{
    clampView();
}

}   // namespace qflame
