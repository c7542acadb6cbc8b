#include "FlameGraphWidget.h"

#include "Units.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPaintEvent>
#include <QToolTip>

#include <cmath>

namespace qflame {

namespace {

// The package or module part of a name, for stable colours per package: "github.com/a/b.(*T).F" -> "github.com/a/b",
// "std::vector<int>::push_back" -> "std", "kafka/log/UnifiedLog.append" -> "kafka/log/UnifiedLog".
QStringView packageOf(QStringView name)
{
    const qsizetype slash = name.lastIndexOf(QLatin1Char('/'));
    const qsizetype from = slash < 0 ? 0 : slash;
    qsizetype end = name.size();
    const qsizetype dot = name.indexOf(QLatin1Char('.'), from);
    const qsizetype colons = name.indexOf(QLatin1String("::"), from);
    if (dot > 0)
        end = dot;
    if (colons > 0 && colons < end)
        end = colons;
    return name.left(end);
}

}   // namespace

FlameGraphWidget::FlameGraphWidget(QWidget *parent) : QWidget(parent)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    m_rowHeight = fontMetrics().height() + 4;
}

void FlameGraphWidget::setTree(std::shared_ptr<const CallTree> tree)
{
    m_layout = tree ? std::make_shared<FlameLayout>(std::move(tree)) : nullptr;
    m_zoom = CallTree::kRoot;
    m_back.clear();
    m_forward.clear();
    m_hover = -1;
    m_labelCache.clear();
    if (m_layout)
        m_labelCache.resize(m_layout->tree().frames().size());
    updateGeometry();
    resize(width(), sizeHint().height());
    update();
    Q_EMIT zoomChanged(m_zoom);
}

QSize FlameGraphWidget::sizeHint() const
{
    const int rows = m_layout ? int(m_layout->tree().maxDepth()) + 1 : 1;
    return QSize(800, std::max(rows * m_rowHeight, 100));
}

void FlameGraphWidget::setZoom(NodeId node)
{
    m_zoom = node;
    m_hover = -1;
    update();
    Q_EMIT zoomChanged(node);
}

void FlameGraphWidget::zoomTo(NodeId node)
{
    if (!m_layout || node == m_zoom)
        return;
    m_back.push_back(m_zoom);
    m_forward.clear();
    setZoom(node);
}

void FlameGraphWidget::back()
{
    if (m_back.empty())
        return;
    m_forward.push_back(m_zoom);
    const NodeId n = m_back.back();
    m_back.pop_back();
    setZoom(n);
}

void FlameGraphWidget::forward()
{
    if (m_forward.empty())
        return;
    m_back.push_back(m_zoom);
    const NodeId n = m_forward.back();
    m_forward.pop_back();
    setZoom(n);
}

void FlameGraphWidget::resetZoom()
{
    zoomTo(CallTree::kRoot);
}

void FlameGraphWidget::setHighlightedFrame(std::optional<FrameId> frame)
{
    m_highlight = frame;
    update();
}

int FlameGraphWidget::yOfDepth(uint32_t depth) const
{
    return height() - int(depth + 1) * m_rowHeight;
}

int FlameGraphWidget::depthAtY(int y) const
{
    if (y >= height())
        return -1;
    return (height() - 1 - y) / m_rowHeight;
}

int64_t FlameGraphWidget::nodeAt(QPoint pos) const
{
    if (!m_layout)
        return -1;
    const int depth = depthAtY(pos.y());
    const CallTree &t = m_layout->tree();
    const uint32_t zoomDepth = t.depth(m_zoom);
    if (depth < 0)
        return -1;
    if (uint32_t(depth) < zoomDepth) {   // the ancestors of the zoom root span the width
        NodeId n = m_zoom;
        while (t.depth(n) > uint32_t(depth))
            n = t.parent(n);
        return n;
    }
    return m_layout->hitTest(m_zoom, width(), pos.x(), uint32_t(depth) - zoomDepth);
}

QRectF FlameGraphWidget::nodeRect(NodeId node) const
{
    if (!m_layout)
        return {};
    const CallTree &t = m_layout->tree();
    const uint32_t d = t.depth(node);
    const uint32_t zd = t.depth(m_zoom);
    if (d < zd) {
        // Visible only if it is an ancestor of the zoom root.
        NodeId n = m_zoom;
        while (t.depth(n) > d)
            n = t.parent(n);
        return n == node ? QRectF(0, yOfDepth(d), width(), m_rowHeight) : QRectF();
    }
    NodeId a = node;
    while (t.depth(a) > zd)
        a = t.parent(a);
    if (a != m_zoom || t.total(m_zoom) <= 0)
        return {};
    const double scale = width() / double(t.total(m_zoom));
    return QRectF(double(m_layout->offset(node) - m_layout->offset(m_zoom)) * scale, yOfDepth(d),
                  double(t.total(node)) * scale, m_rowHeight);
}

QColor FlameGraphWidget::colorFor(NodeId node) const
{
    const CallTree &t = m_layout->tree();
    if (node == CallTree::kRoot)
        return palette().color(QPalette::Mid);
    const QString &label = m_labelCache[t.frame(node)];
    const size_t h = qHash(packageOf(label));
    // Warm flamegraph hues (red to yellow); lightness varies with the package so neighbours differ.
    const int hue = int(h % 50);
    const int sat = 150 + int((h >> 8) % 70);
    const int val = 200 + int((h >> 16) % 50);
    return QColor::fromHsv(hue, sat, val);
}

void FlameGraphWidget::paintEvent(QPaintEvent *event)
{
    QPainter p(this);
    p.fillRect(event->rect(), palette().color(QPalette::Base));
    if (!m_layout) {
        p.setPen(palette().color(QPalette::Text));
        p.drawText(rect(), Qt::AlignCenter, tr("Open a profile (File > Open, or drop a file here)"));
        return;
    }
    const CallTree &t = m_layout->tree();
    const uint32_t zd = t.depth(m_zoom);
    // Rows of the paint rectangle, as depths; flame orientation: depth 0 at the bottom.
    const int top = depthAtY(event->rect().top());
    const int bottom = std::max(0, depthAtY(event->rect().bottom()));
    const QFontMetrics fm = fontMetrics();
    const int minTextWidth = fm.horizontalAdvance(QLatin1String("W...")) ;
    auto label = [&](NodeId n) -> const QString & {
        QString &s = m_labelCache[t.frame(n)];
        if (s.isNull())
            s = QString::fromUtf8(t.label(n).data(), qsizetype(t.label(n).size()));
        return s;
    };
    auto drawFrame = [&](NodeId n, QRectF r, bool ancestor) {
        label(n);
        QColor c = colorFor(n);
        if (ancestor)
            c = c.lighter(125);
        const QRectF box = r.adjusted(0, 0, r.width() >= 3 ? -1 : 0, -1);
        p.fillRect(box, c);
        if (t.isInlined(n)) {   // inlined frames: a dotted underline
            p.setPen(QPen(Qt::black, 1, Qt::DotLine));
            p.drawLine(box.bottomLeft(), box.bottomRight());
        }
        if (int64_t(n) == m_hover || (m_highlight && t.frame(n) == *m_highlight)) {
            p.setPen(QPen(palette().color(QPalette::Highlight), 2));
            p.drawRect(box.adjusted(1, 1, -1, -1));
        }
        if (r.width() >= minTextWidth) {
            p.setPen(Qt::black);
            const QRectF textRect = box.adjusted(3, 0, -2, 0);
            p.drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft,
                       fm.elidedText(label(n), Qt::ElideRight, int(textRect.width())));
        }
    };
    // Ancestors of the zoom root span the full width, lighter, as context.
    if (m_zoom != CallTree::kRoot) {
        for (NodeId n = t.parent(m_zoom);; n = t.parent(n)) {
            if (int(t.depth(n)) >= bottom && int(t.depth(n)) <= top)
                drawFrame(n, QRectF(0, yOfDepth(t.depth(n)), width(), m_rowHeight), true);
            if (n == CallTree::kRoot)
                break;
        }
    }
    if (top < int(zd))
        return;
    const uint32_t firstRow = uint32_t(std::max(bottom, int(zd)) - int(zd));
    const uint32_t rowCount = uint32_t(top - int(zd)) + 1 - firstRow;
    for (const FlameRect &r : m_layout->visible(m_zoom, width(), 1.0, firstRow, rowCount))
        drawFrame(r.node, QRectF(r.x, yOfDepth(zd + r.row), r.width, m_rowHeight), false);
}

QString FlameGraphWidget::describe(NodeId n) const
{
    const CallTree &t = m_layout->tree();
    const std::string &unit = t.sampleType().unit;
    const double total = double(t.total(CallTree::kRoot));
    const double view = double(t.total(m_zoom));
    auto fmt = [&](int64_t v) { return QString::fromStdString(formatValue(double(v), unit)); };
    auto pct = [&](int64_t v, double whole) { return QString::fromStdString(formatPercent(double(v), whole)); };
    QString name = QString::fromStdString(t.label(n));
    if (t.isInlined(n))
        name += tr(" (inlined)");
    return tr("%1\nTotal: %2 (%3 of view, %4 of profile)\nSelf: %5 (%6 of view, %7 of profile)")
        .arg(name, fmt(t.total(n)), pct(t.total(n), view), pct(t.total(n), total), fmt(t.self(n)),
             pct(t.self(n), view), pct(t.self(n), total));
}

void FlameGraphWidget::setHover(int64_t node)
{
    if (node == m_hover)
        return;
    // Repaint only the two frames whose outline changes.
    if (m_hover >= 0)
        update(nodeRect(NodeId(m_hover)).toAlignedRect().adjusted(-2, -2, 2, 2));
    m_hover = node;
    if (m_hover >= 0)
        update(nodeRect(NodeId(m_hover)).toAlignedRect().adjusted(-2, -2, 2, 2));
    Q_EMIT hovered(node >= 0 ? NodeId(node) : CallTree::kRoot);
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
        Q_EMIT frameActivated(m_layout->tree().frame(NodeId(n)));
    }
}

void FlameGraphWidget::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Escape || event->key() == Qt::Key_0)
        resetZoom();
    else if (event->key() == Qt::Key_Backspace || (event->key() == Qt::Key_Left && event->modifiers() & Qt::AltModifier))
        back();
    else if (event->key() == Qt::Key_Right && event->modifiers() & Qt::AltModifier)
        forward();
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
