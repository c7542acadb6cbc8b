// Where each frame of a call tree sits: laid out once per tree in cost units, so zooming and scrolling only
// move the viewport. Pure functions of the tree, the zoom root and the viewport: testable without a window.
#pragma once

#include "CallTree.h"

#include <memory>
#include <vector>

namespace qflame {

struct FlameRect {
    NodeId node;
    double x;        // pixels from the left edge of the view
    double width;    // pixels
    uint32_t row;    // 0 = the zoom root's row; ancestors of the zoom root are not included
};

class FlameLayout {
public:
    explicit FlameLayout(std::shared_ptr<const CallTree> tree);

    const CallTree &tree() const { return *m_tree; }
    // Left edge of a node in cost units, relative to the root's left edge. Children start at their parent's
    // left edge in label order; the parent's self cost is the gap at the right.
    int64_t offset(NodeId n) const { return m_offset[n]; }

    // Frames of the subtree of `zoom` that are at least `minWidth` pixels wide when `zoom` spans `width`
    // pixels, rows [firstRow, firstRow + rowCount) only. Narrower subtrees are culled whole, so the cost
    // follows what is visible, not the size of the tree.
    std::vector<FlameRect> visible(NodeId zoom, double width, double minWidth, uint32_t firstRow,
                                   uint32_t rowCount) const;

    // The node under pixel x in `row` (0 = zoom root), or -1. Descends by binary search over the contiguous,
    // offset-ordered children: O(depth * log(children)).
    int64_t hitTest(NodeId zoom, double width, double x, uint32_t row) const;

private:
    std::shared_ptr<const CallTree> m_tree;
    std::vector<int64_t> m_offset;
};

}   // namespace qflame
