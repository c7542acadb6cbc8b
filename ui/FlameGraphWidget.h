// The flamegraph: paints a FlameLayout with QPainter (no item per frame), root at the bottom.
#pragma once

#include "FlameLayout.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

namespace qflame {

class FlameGraphWidget : public QWidget {
    Q_OBJECT

public:
    explicit FlameGraphWidget(QWidget *parent = nullptr);

    void setTree(std::shared_ptr<const CallTree> tree);
    const CallTree *tree() const { return m_layout ? &m_layout->tree() : nullptr; }

    NodeId zoomRoot() const { return m_zoom; }
    void zoomTo(NodeId node);          // pushes the current zoom on the back history
    bool canGoBack() const { return !m_back.empty(); }
    bool canGoForward() const { return !m_forward.empty(); }
    void back();
    void forward();
    void resetZoom();

    // Frames sharing this frame id get an outline (the top table's selection).
    void setHighlightedFrame(std::optional<FrameId> frame);

    int rowHeight() const { return m_rowHeight; }
    // The node painted under a point of this widget, or -1.
    int64_t nodeAt(QPoint pos) const;
    // The rectangle a node is painted in (empty when not visible at the current zoom).
    QRectF nodeRect(NodeId node) const;
    // Text of the hover tooltip for a node: full name, self, total, shares, in the sample unit.
    QString describe(NodeId node) const;

    QSize sizeHint() const override;

Q_SIGNALS:
    void zoomChanged(qflame::NodeId node);
    void hovered(qflame::NodeId node);   // kRoot when nothing is hovered
    void frameActivated(qflame::FrameId frame);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    bool event(QEvent *event) override;

private:
    int depthAtY(int y) const;
    int yOfDepth(uint32_t depth) const;
    void setZoom(NodeId node);
    QColor colorFor(NodeId node) const;
    void setHover(int64_t node);

    std::shared_ptr<const FlameLayout> m_layout;
    NodeId m_zoom = CallTree::kRoot;
    std::vector<NodeId> m_back, m_forward;
    int64_t m_hover = -1;
    std::optional<FrameId> m_highlight;
    int m_rowHeight = 18;
    mutable std::vector<QString> m_labelCache;   // per frame, filled lazily
};

}   // namespace qflame
