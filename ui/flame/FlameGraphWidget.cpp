#include "flame/FlameGraphWidget.h"

#include "flame/FramePalette.h"
#include "pprof/Units.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPaintEvent>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <utility>

namespace qflame {

FlameGraphWidget::FlameGraphWidget(QWidget *parent) : QWidget(parent)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    m_rowHeight = fontMetrics().height() + 4;
}

void FlameGraphWidget::setTree(std::shared_ptr<const CallTree> tree, std::shared_ptr<const FlameLayout> layout)
{
    setSource(tree ? std::make_shared<CallTreeSource>(std::move(tree), std::move(layout)) : nullptr);
}

void FlameGraphWidget::setSource(std::shared_ptr<const FlameSource> source)
{
    m_source = std::move(source);
    m_layout = m_source ? &m_source->layout() : nullptr;
    m_provisional = false;
    m_pendingZooms.clear();
    m_view = m_layout ? m_layout->fullViewport() : Viewport{};
    m_zoom = CallTree::kRoot;
    m_back.clear();
    m_forward.clear();
    m_hover = m_selected = -1;
    m_matches.clear();
    m_labelCache.clear(m_source ? m_source->frameCount() : 0);
    updateGeometry();
    setMinimumHeight(sizeHint().height());
    invalidate();
    Q_EMIT zoomChanged(m_zoom);
}

void FlameGraphWidget::setProvisional(bool on)
{
    m_provisional = on;
    m_pendingZooms.clear();
}

void FlameGraphWidget::replaceSource(std::shared_ptr<const FlameSource> source, const std::vector<NodeId> &map)
{
    if (!source || !m_source || map.size() != m_layout->size()) {
        setProvisional(false);
        setSource(std::move(source));
        return;
    }
    m_source = std::move(source);
    m_layout = &m_source->layout();
    auto mapped = [&map](int64_t n) { return n < 0 ? n : int64_t(map[size_t(n)]); };
    m_zoom = map[m_zoom];
    for (std::vector<State> *history : {&m_back, &m_forward})
        for (State &s : *history)
            s.zoom = map[s.zoom];
    m_hover = mapped(m_hover);
    m_selected = mapped(m_selected);
    m_labelCache.clear(m_source->frameCount());
    updateGeometry();
    setMinimumHeight(sizeHint().height());
    invalidate();
    Q_EMIT zoomChanged(m_zoom);   // the breadcrumbs read the new tree
    if (m_selected >= 0)
        Q_EMIT selectionChanged(NodeId(m_selected));
    m_provisional = false;
    for (const PendingZoom &z : std::exchange(m_pendingZooms, {})) {
        switch (z.kind) {
        case PendingZoom::To: zoomTo(map[z.node]); break;
        case PendingZoom::Factor: zoomViewport(z.factor); break;
        case PendingZoom::Back: back(); break;
        case PendingZoom::Forward: forward(); break;
        }
    }
}

QSize FlameGraphWidget::sizeHint() const
{
    const int rows = m_layout ? int(m_layout->maxDepth()) + 1 : 1;
    return QSize(800, std::max(rows * m_rowHeight, 100));
}

void FlameGraphWidget::invalidate()
{
    update();
}

// ---- zoom and history ------------------------------------------------------------------------------------

void FlameGraphWidget::setState(State s)
{
    m_view = s.view;
    m_zoom = s.zoom;
    m_hover = -1;
    invalidate();
    Q_EMIT zoomChanged(m_zoom);
}

void FlameGraphWidget::pushHistory()
{
    m_back.push_back({m_view, m_zoom});
    m_forward.clear();
}

void FlameGraphWidget::zoomTo(NodeId node)
{
    if (!m_layout || node >= m_layout->size())
        return;
    if (m_provisional) {
        m_pendingZooms.push_back({PendingZoom::To, node, 1});
        return;
    }
    const Viewport v = m_layout->viewportOf(node);
    if (node == m_zoom && v.begin == m_view.begin && v.end == m_view.end)
        return;
    pushHistory();
    setState({v, node});
}

void FlameGraphWidget::showState(NodeId zoom, Viewport view)
{
    if (!m_layout || (zoom == m_zoom && view.begin == m_view.begin && view.end == m_view.end))
        return;
    m_view = view;
    m_zoom = zoom;
    m_hover = -1;
    invalidate();
    // Not zoomChanged: followers must not echo back to the view they follow.
}

void FlameGraphWidget::zoomViewport(double factor)
{
    if (!m_layout)
        return;
    if (m_provisional) {
        m_pendingZooms.push_back({PendingZoom::Factor, 0, factor});
        return;
    }
    const Viewport full = m_layout->fullViewport();
    const double centre = (m_view.begin + m_view.end) / 2;
    // Never narrower than one cost unit per 1000 pixels, never wider than the whole profile.
    const double span = std::clamp(m_view.span() * factor, std::min(1.0, full.span()), full.span());
    Viewport v{centre - span / 2, centre + span / 2};
    if (v.begin < full.begin)
        v = {full.begin, full.begin + span};
    if (v.end > full.end)
        v = {full.end - span, full.end};
    pushHistory();
    setState({v, m_zoom});
}

void FlameGraphWidget::back()
{
    if (m_provisional) {
        m_pendingZooms.push_back({PendingZoom::Back});
        return;
    }
    if (m_back.empty())
        return;
    m_forward.push_back({m_view, m_zoom});
    const State s = m_back.back();
    m_back.pop_back();
    setState(s);
}

void FlameGraphWidget::forward()
{
    if (m_provisional) {
        m_pendingZooms.push_back({PendingZoom::Forward});
        return;
    }
    if (m_forward.empty())
        return;
    m_back.push_back({m_view, m_zoom});
    const State s = m_forward.back();
    m_forward.pop_back();
    setState(s);
}

void FlameGraphWidget::resetZoom()
{
    zoomTo(CallTree::kRoot);
}

// ---- appearance ------------------------------------------------------------------------------------------

void FlameGraphWidget::setOrientation(Orientation o)
{
    if (o == m_orientation)
        return;
    m_orientation = o;
    invalidate();
    Q_EMIT orientationChanged();
}

void FlameGraphWidget::setColorScheme(ColorScheme scheme)
{
    m_scheme = scheme;
    invalidate();
}

void FlameGraphWidget::setColorBlindSafe(bool on)
{
    m_colorBlind = on;
    invalidate();
}

void FlameGraphWidget::setMatches(std::vector<uint8_t> matches)
{
    m_matches = std::move(matches);
    invalidate();
}

void FlameGraphWidget::setHighlightedFrame(std::optional<FrameId> frame)
{
    m_highlight = frame;
    update();   // every frame of that function may be on screen
}

PaintOptions FlameGraphWidget::paintOptions() const
{
    return PaintOptions{m_scheme, m_colorBlind, palette()};
}

QColor FlameGraphWidget::frameColor(NodeId n) const
{
    return m_source->color(n, paintOptions());
}

// ---- geometry --------------------------------------------------------------------------------------------

int FlameGraphWidget::yOfDepth(uint32_t depth) const
{
    if (m_orientation == Orientation::Icicle)
        return int(depth) * m_rowHeight;
    return height() - int(depth + 1) * m_rowHeight;
}

int FlameGraphWidget::depthAtY(int y) const
{
    if (y < 0 || y >= height())
        return -1;
    if (m_orientation == Orientation::Icicle)
        return y / m_rowHeight;
    return (height() - 1 - y) / m_rowHeight;
}

int64_t FlameGraphWidget::nodeAt(QPoint pos) const
{
    const int depth = depthAtY(pos.y());
    if (!m_layout || depth < 0)
        return -1;
    return m_layout->hitTest(m_view, width(), pos.x(), uint32_t(depth));
}

QRectF FlameGraphWidget::nodeRect(NodeId node) const
{
    if (!m_layout || m_view.span() <= 0)
        return {};
    const double scale = width() / m_view.span();
    double x = (m_layout->offset(node) - m_view.begin) * scale;
    double right = x + m_layout->width(node) * scale;
    x = std::max(x, 0.0);
    right = std::min(right, double(width()));
    if (right <= x)
        return {};
    return QRectF(x, yOfDepth(m_layout->depth(node)), right - x, m_rowHeight);
}

void FlameGraphWidget::setPlaceholderText(const QString &text)
{
    m_placeholder = text;
    update();
}

// ---- painting --------------------------------------------------------------------------------------------

FlamePainter FlameGraphWidget::painter() const
{
    FlamePainter fp(*m_source);
    fp.view = m_view;
    fp.icicle = m_orientation == Orientation::Icicle;
    fp.rowHeight = m_rowHeight;
    fp.font = font();
    fp.options = paintOptions();
    fp.matches = &m_matches;
    fp.labelCache = &m_labelCache;
    return fp;
}

void FlameGraphWidget::paintEvent(QPaintEvent *event)
{
    QPainter p(this);
    if (!m_layout) {
        p.fillRect(event->rect(), palette().color(QPalette::Base));
        p.setPen(palette().color(QPalette::Text));
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
                   m_placeholder.isEmpty() ? tr("Open a profile (File > Open, or drop a file here)") : m_placeholder);
        return;
    }
    // Each rectangle of the update on its own: a hover that moves from a frame at the top to one at the bottom
    // repaints those two frames, not the bounding box between them. There is no cache image of the view: copying
    // one onto a 4K window cost a third of a full repaint, and painting a small area is cheap.
    const QRegion region = event->region();
    const FlamePainter frames = painter();
    if (region.rectCount() <= 16) {
        for (const QRect &r : region)
            frames.paint(p, r, width(), height());
    } else {
        frames.paint(p, event->rect(), width(), height());
    }
    // Outlines over the frames: hover, keyboard selection, the table's selected function.
    auto outline = [&](NodeId n, const QColor &c) {
        const QRectF r = nodeRect(n);
        if (r.isEmpty() || !r.intersects(event->rect()))
            return;
        p.setPen(QPen(c, 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(r.adjusted(1, 1, -2, -2));
    };
    const int d0 = depthAtY(m_orientation == Orientation::Icicle ? event->rect().top() : event->rect().bottom());
    const int d1 = depthAtY(m_orientation == Orientation::Icicle ? event->rect().bottom() : event->rect().top());
    if (m_highlight && d0 >= 0 && d1 >= d0) {   // only the depths in the update (d1 may pass the deepest frame)
        for (const FlameRect &r : m_layout->visible(m_view, width(), 1.0, uint32_t(d0), uint32_t(d1 - d0 + 1)))
            if (!r.merged && m_source->frame(r.node) == *m_highlight)
                outline(r.node, palette().color(QPalette::Highlight));
    }
    if (m_hover >= 0)
        outline(NodeId(m_hover), palette().color(QPalette::Highlight));
    if (m_selected >= 0)
        outline(NodeId(m_selected), palette().color(QPalette::Text));
    Q_EMIT painted();
}

void FlameGraphWidget::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) {
        m_rowHeight = fontMetrics().height() + 4;
        setMinimumHeight(sizeHint().height());
        invalidate();
    }
    QWidget::changeEvent(event);
}

QImage FlameGraphWidget::renderImage(int w) const
{
    return m_source ? painter().image(w) : QImage();
}

bool FlameGraphWidget::writeSvg(const QString &path, int w) const
{
    return m_source && painter().svg(path, w, tr("qflame flamegraph"));
}

// ---- interaction -----------------------------------------------------------------------------------------

QString FlameGraphWidget::describe(NodeId n) const
{
    return m_source->describe(n, m_view);
}

void FlameGraphWidget::updateNode(int64_t node)
{
    if (node >= 0)
        update(nodeRect(NodeId(node)).toAlignedRect().adjusted(-2, -2, 2, 2));
}

void FlameGraphWidget::setHover(int64_t node)
{
    if (node == m_hover)
        return;
    updateNode(m_hover);   // only the two frames whose outline changes are repainted
    m_hover = node;
    updateNode(m_hover);
    Q_EMIT hovered(node >= 0 ? NodeId(node) : CallTree::kRoot);
}

void FlameGraphWidget::setSelectedNode(int64_t node)
{
    if (node == m_selected)
        return;
    updateNode(m_selected);
    m_selected = node;
    updateNode(m_selected);
    if (node >= 0) {
        const QRectF r = nodeRect(NodeId(node));
        if (!r.isEmpty())
            Q_EMIT ensureVisibleRequested(r.toAlignedRect());
    }
    Q_EMIT selectionChanged(node >= 0 ? NodeId(node) : CallTree::kRoot);
}

bool FlameGraphWidget::selectNextMatch(int direction)
{
    if (!m_layout || m_matches.empty())
        return false;
    const FlameLayout &t = *m_layout;
    // Matching nodes in left-to-right, then bottom-up order.
    std::vector<NodeId> found;
    for (NodeId n = 1; n < t.size(); ++n)
        if (m_matches[m_source->frame(n)])
            found.push_back(n);
    if (found.empty())
        return false;
    auto before = [&](NodeId a, NodeId b) {
        return m_layout->offset(a) != m_layout->offset(b) ? m_layout->offset(a) < m_layout->offset(b)
                                                          : t.depth(a) < t.depth(b);
    };
    std::sort(found.begin(), found.end(), before);
    size_t i = 0;
    if (m_selected >= 0) {
        auto it = std::upper_bound(found.begin(), found.end(), NodeId(m_selected), before);
        if (direction > 0)
            i = it == found.end() ? 0 : size_t(it - found.begin());
        else {
            auto lo = std::lower_bound(found.begin(), found.end(), NodeId(m_selected), before);
            i = lo == found.begin() ? found.size() - 1 : size_t(lo - found.begin()) - 1;
        }
    } else if (direction < 0) {
        i = found.size() - 1;
    }
    const NodeId n = found[i];
    // A match too narrow to see in the current view is zoomed into.
    if (nodeRect(n).width() < 4)
        zoomTo(n);
    setSelectedNode(n);
    return true;
}

void FlameGraphWidget::moveSelection(int key)
{
    const FlameLayout &t = *m_layout;
    if (m_selected < 0) {
        setSelectedNode(m_zoom);
        return;
    }
    const NodeId n = NodeId(m_selected);
    const bool towardsLeaves = (key == Qt::Key_Up) == (m_orientation == Orientation::Flame);
    int64_t next = -1;
    if (key == Qt::Key_Up || key == Qt::Key_Down) {
        if (towardsLeaves && t.childCount(n) > 0) {
            NodeId widest = t.firstChild(n);   // the heaviest child, where the cost goes
            for (uint32_t i = 1; i < t.childCount(n); ++i)
                if (t.width(t.firstChild(n) + i) > t.width(widest))
                    widest = t.firstChild(n) + i;
            next = widest;
        } else if (!towardsLeaves && n != CallTree::kRoot) {
            next = t.parent(n);
        }
    } else if (n != CallTree::kRoot) {
        const NodeId first = t.firstChild(t.parent(n));
        const NodeId last = first + t.childCount(t.parent(n)) - 1;
        if (key == Qt::Key_Left && n > first)
            next = n - 1;
        else if (key == Qt::Key_Right && n < last)
            next = n + 1;
    }
    if (next >= 0) {
        if (nodeRect(NodeId(next)).isEmpty())   // a sibling outside the view: show it with its neighbours
            zoomTo(t.parent(NodeId(next)));
        setSelectedNode(next);
    }
}

void FlameGraphWidget::mouseMoveEvent(QMouseEvent *event)
{
    setHover(nodeAt(event->position().toPoint()));
}

void FlameGraphWidget::leaveEvent(QEvent *)
{
    setHover(-1);
}

void FlameGraphWidget::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::BackButton) {
        back();
        return;
    }
    if (event->button() == Qt::ForwardButton) {
        forward();
        return;
    }
    if (event->button() != Qt::LeftButton)
        return;
    const int64_t n = nodeAt(event->position().toPoint());
    if (n >= 0) {
        zoomTo(NodeId(n));
        setSelectedNode(n);
        Q_EMIT frameActivated(m_source->frame(NodeId(n)));
    }
}

void FlameGraphWidget::contextMenuEvent(QContextMenuEvent *event)
{
    const int64_t n = nodeAt(event->pos());
    if (n > 0) {
        setSelectedNode(n);
        Q_EMIT contextMenuRequested(NodeId(n), event->globalPos());
    }
}

QList<QPair<QString, QString>> FlameGraphWidget::keyBindings()
{
    // In step with keyPressEvent and mousePressEvent below.
    return {{tr("Click"), tr("Zoom into the frame and select it")},
            {tr("Esc, 0"), tr("Reset the zoom")},
            {tr("Backspace, Alt+Left, mouse back button"), tr("Back in the zoom history")},
            {tr("Alt+Right, mouse forward button"), tr("Forward in the zoom history")},
            {tr("Up, Down, Left, Right"), tr("Select the parent, a child, the previous or next sibling")},
            {tr("Enter"), tr("Zoom into the selected frame")},
            {tr("+, ="), tr("Zoom the viewport in")},
            {tr("-"), tr("Zoom the viewport out")},
            {tr("n, Shift+N"), tr("Next, previous search match")},
            {tr("Right click"), tr("The frame's menu (sandwich, source, filters, export)")}};
}

void FlameGraphWidget::keyPressEvent(QKeyEvent *event)
{
    const int key = event->key();
    const bool alt = event->modifiers() & Qt::AltModifier;
    if (!m_layout) {
        QWidget::keyPressEvent(event);
        return;
    }
    if (key == Qt::Key_Escape || key == Qt::Key_0)
        resetZoom();
    else if (key == Qt::Key_Backspace || (key == Qt::Key_Left && alt))
        back();
    else if (key == Qt::Key_Right && alt)
        forward();
    else if (key == Qt::Key_Up || key == Qt::Key_Down || key == Qt::Key_Left || key == Qt::Key_Right)
        moveSelection(key);
    else if ((key == Qt::Key_Return || key == Qt::Key_Enter) && m_selected >= 0)
        zoomTo(NodeId(m_selected));
    else if (key == Qt::Key_Plus || key == Qt::Key_Equal)
        zoomViewport(1 / 1.5);
    else if (key == Qt::Key_Minus)
        zoomViewport(1.5);
    else if (key == Qt::Key_N)
        selectNextMatch(event->modifiers() & Qt::ShiftModifier ? -1 : 1);
    else
        QWidget::keyPressEvent(event);
}

bool FlameGraphWidget::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int64_t n = m_layout ? nodeAt(help->pos()) : -1;
        if (n >= 0)
            QToolTip::showText(help->globalPos(), describe(NodeId(n)), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

}   // namespace qflame
