#include "graphview/GraphCanvas.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QRegularExpression>
#include <QWheelEvent>

#include <algorithm>

namespace qflame {

GraphCanvas::GraphCanvas(QWidget *parent) : QWidget(parent)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(200, 150);
    setAutoFillBackground(true);
    QPalette pal = palette();
    pal.setColor(QPalette::Window, Qt::white);
    setPalette(pal);
}

void GraphCanvas::setLayout(std::shared_ptr<const GraphLayout> layout)
{
    m_layout = std::move(layout);
    m_state.hovered = m_state.selected = -1;
    m_state.matches.clear();
    fitToView();
}

void GraphCanvas::replaceLayout(std::shared_ptr<const GraphLayout> layout)
{
    m_layout = std::move(layout);
    update();
}

int GraphCanvas::setSearch(const QRegularExpression &pattern)
{
    m_state.matches.clear();
    int count = 0;
    if (m_layout && !pattern.pattern().isEmpty() && pattern.isValid()) {
        const CallGraph &g = m_layout->graph();
        m_state.matches.assign(g.nodes().size(), 0);
        for (uint32_t i = 0; i < g.nodes().size(); ++i)
            if (pattern.match(QString::fromStdString(g.name(i))).hasMatch()) {
                m_state.matches[i] = 1;
                ++count;
            }
    }
    update();
    return count;
}

void GraphCanvas::selectNode(int node)
{
    if (m_state.selected == node)
        return;
    m_state.selected = node;
    update();
    Q_EMIT nodeSelected(node);
}

void GraphCanvas::fitToView()
{
    if (!m_layout || width() <= 0)
        return;
    const QRectF b = m_layout->bounds().adjusted(-10, -10, 10, 10);
    m_zoom = std::min({double(width()) / b.width(), double(height()) / b.height(), 1.5});
    // Tall graphs are read from the top: fit the width, but never below a readable scale.
    m_zoom = std::max(m_zoom, std::min(0.35, double(width()) / b.width()));
    m_offset = QPointF((width() - b.width() * m_zoom) / 2, 0) - b.topLeft() * m_zoom;
    m_fitted = true;
    update();
}

void GraphCanvas::zoomBy(double factor, QPointF around)
{
    const QPointF at = toLayout(around);
    m_zoom = std::clamp(m_zoom * factor, 0.02, 8.0);
    m_offset = around - at * m_zoom;
    update();
}

void GraphCanvas::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    if (!m_layout) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No graph yet"));
        return;
    }
    p.translate(m_offset);
    p.scale(m_zoom, m_zoom);
    paintGraph(p, *m_layout, m_state);
}

void GraphCanvas::wheelEvent(QWheelEvent *e)
{
    zoomBy(std::pow(1.0015, e->angleDelta().y()), e->position());
}

void GraphCanvas::mousePressEvent(QMouseEvent *e)
{
    if (e->button() != Qt::LeftButton)
        return;
    m_dragging = true;
    m_dragged = false;
    m_dragStart = e->position();
    m_offsetAtDrag = m_offset;
}

void GraphCanvas::mouseMoveEvent(QMouseEvent *e)
{
    if (m_dragging) {
        const QPointF d = e->position() - m_dragStart;
        if (std::abs(d.x()) + std::abs(d.y()) > 3)
            m_dragged = true;
        if (m_dragged) {
            m_offset = m_offsetAtDrag + d;
            setCursor(Qt::ClosedHandCursor);
            update();
        }
        return;
    }
    const int node = m_layout ? graphNodeAt(*m_layout, toLayout(e->position())) : -1;
    if (node != m_state.hovered) {
        m_state.hovered = node;
        if (node >= 0) {
            const CallGraph &g = m_layout->graph();
            const GraphNode &n = g.nodes()[size_t(node)];
            QString tip = QString::fromStdString(g.name(uint32_t(node))) + QStringLiteral("\nflat ") +
                          QString::fromStdString(graphDeltaText(g, g.flatDelta(n))) + QStringLiteral(", cum ") +
                          QString::fromStdString(graphDeltaText(g, g.cumDelta(n)));
            if (g.isDiff())   // each side in the shown unit (scaled by the comparison's normalisation)
                tip += QStringLiteral("\ncum %1 -> %2 (%3)")
                           .arg(QString::fromStdString(graphDeltaText(g, double(n.cum[0]) * g.scale(0))),
                                QString::fromStdString(graphDeltaText(g, double(n.cum[1]) * g.scale(1))),
                                QLatin1String(diffClassName(g.classOf(n))));
            setToolTip(tip);
        } else {
            setToolTip(QString());
        }
        update();
        Q_EMIT nodeHovered(node);
    }
}

void GraphCanvas::mouseReleaseEvent(QMouseEvent *e)
{
    if (e->button() != Qt::LeftButton)
        return;
    m_dragging = false;
    unsetCursor();
    if (!m_dragged && m_layout)
        selectNode(graphNodeAt(*m_layout, toLayout(e->position())));
}

void GraphCanvas::mouseDoubleClickEvent(QMouseEvent *e)
{
    const int node = m_layout ? graphNodeAt(*m_layout, toLayout(e->position())) : -1;
    if (node >= 0)
        Q_EMIT focusRequested(node);
}

void GraphCanvas::keyPressEvent(QKeyEvent *e)
{
    const QPointF centre(width() / 2.0, height() / 2.0);
    switch (e->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomBy(1.25, centre); break;
    case Qt::Key_Minus: zoomBy(0.8, centre); break;
    case Qt::Key_0: fitToView(); break;
    case Qt::Key_Escape: selectNode(-1); break;
    default: QWidget::keyPressEvent(e);
    }
}

void GraphCanvas::resizeEvent(QResizeEvent *)
{
    if (!m_fitted)
        fitToView();
}

}   // namespace qflame
