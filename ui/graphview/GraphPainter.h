// One painting code for the call graph, on screen and in PNG/SVG files: boxes with their label lines, edges as
// the layout's splines with arrows, thickness by weight, residual edges dotted, a comparison in the diff
// flamegraph's colours (DiffSource::deltaColor; grey within noise; dashed outlines for one side only).
#pragma once

#include "graph/GraphLayout.h"
#include "graph/GraphReport.h"

#include <QColor>
#include <QPainter>

#include <vector>

namespace qflame {

struct GraphPaintState {
    int hovered = -1, selected = -1;   // node indexes
    std::vector<uint8_t> matches;      // by node: a search match; empty when no search is active
    bool colorBlindSafe = false;
};

// The colour of a node's box (and, darker, of its edges in).
QColor graphNodeColor(const CallGraph &graph, uint32_t node, bool colorBlindSafe);
QColor graphEdgeColor(const CallGraph &graph, uint32_t edge, bool colorBlindSafe);

// Paints the whole layout in its own coordinates (points); the caller sets the transform.
void paintGraph(QPainter &painter, const GraphLayout &layout, const GraphPaintState &state);

// Which node is at `point` (layout coordinates), or -1.
int graphNodeAt(const GraphLayout &layout, QPointF point);

// The graph as a picture: SVG when `svg`, else PNG (at most `maxSide` pixels on its longer side). Returns an
// error message, or "".
QString writeGraphPicture(const GraphLayout &layout, const QString &path, bool svg, int maxSide = 4000);

}   // namespace qflame
