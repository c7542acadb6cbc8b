// The call graph on screen: paints a GraphLayout (GraphPainter) with zoom (wheel, +/-), pan (drag), hover, a
// selected node, and search matches; asks for a node's focus on double-click.
#pragma once

#include "graphview/GraphPainter.h"

#include <QWidget>

#include <memory>

namespace qflame {

class GraphCanvas : public QWidget {
    Q_OBJECT
public:
    explicit GraphCanvas(QWidget *parent = nullptr);

    void setLayout(std::shared_ptr<const GraphLayout> layout);   // fits it to the view
    // The same layout with other marks (GraphLayout::withGraph): zoom, selection and search stay.
    void replaceLayout(std::shared_ptr<const GraphLayout> layout);
    const GraphLayout *graphLayout() const { return m_layout.get(); }
    // Nodes whose name matches `pattern` stay bright, the others fade; an empty pattern ends the search.
    // Returns how many nodes match.
    int setSearch(const QRegularExpression &pattern);
    void selectNode(int node);
    int selectedNode() const { return m_state.selected; }
    int hoveredNode() const { return m_state.hovered; }
    void fitToView();
    void zoomBy(double factor, QPointF around);
    double zoom() const { return m_zoom; }

Q_SIGNALS:
    void nodeSelected(int node);        // -1 when the selection is cleared
    void nodeHovered(int node);
    void focusRequested(int node);      // double-click: re-prune the graph around this node

protected:
    void paintEvent(QPaintEvent *) override;
    void wheelEvent(QWheelEvent *) override;
    void mousePressEvent(QMouseEvent *) override;
    void mouseMoveEvent(QMouseEvent *) override;
    void mouseReleaseEvent(QMouseEvent *) override;
    void mouseDoubleClickEvent(QMouseEvent *) override;
    void keyPressEvent(QKeyEvent *) override;
    void resizeEvent(QResizeEvent *) override;

private:
    QPointF toLayout(QPointF widgetPoint) const { return (widgetPoint - m_offset) / m_zoom; }
    std::shared_ptr<const GraphLayout> m_layout;
    GraphPaintState m_state;
    double m_zoom = 1;
    QPointF m_offset;
    QPointF m_dragStart, m_offsetAtDrag;
    bool m_dragging = false, m_dragged = false, m_fitted = false;
};

}   // namespace qflame
