// Where each frame of a call tree sits: laid out once per tree in cost units, so zooming and scrolling only
// move the viewport. Pure functions of the tree and the viewport: testable without a window.
#pragma once

#include "CallTree.h"

#include <memory>
#include <vector>

namespace qflame {

// A horizontal window onto the tree in cost units: [begin, end) of the root's [0, total).
struct Viewport {
    double begin = 0;
    double end = 0;
    double span() const { return end - begin; }
};

struct FlameRect {
    NodeId node;       // for a merged column: the first node of the run
    double x;          // pixels from the left edge of the view
    double width;      // pixels
    uint32_t depth;    // the node's depth (0 = root)
    // Level of detail: siblings narrower than the minimum width are merged into one rectangle per run of pixel
    // columns, as tall as the deepest of their subtrees (`rows`), so what exists stays visible without
    // painting every node.
    bool merged = false;
    uint32_t rows = 1;
};

class FlameLayout {
public:
    explicit FlameLayout(std::shared_ptr<const CallTree> tree);

    const CallTree &tree() const { return *m_tree; }
    std::shared_ptr<const CallTree> treePtr() const { return m_tree; }
    // Left edge of a node in cost units, relative to the root's left edge. Children start at their parent's
    // left edge in label order; the parent's self cost is the gap at the right.
    int64_t offset(NodeId n) const { return m_offset[n]; }
    // How many levels the subtree of n reaches below n (0 for a leaf).
    uint32_t height(NodeId n) const { return m_height[n]; }
    Viewport viewportOf(NodeId n) const { return {double(m_offset[n]), double(m_offset[n] + m_tree->total(n))}; }
    Viewport fullViewport() const { return viewportOf(CallTree::kRoot); }

    // Frames at depths [firstDepth, firstDepth + depthCount) that intersect the viewport when it spans `width`
    // pixels. Frames narrower than `minWidth` pixels are merged per run of pixel columns (see FlameRect), so
    // the cost follows what is visible, not the size of the tree.
    std::vector<FlameRect> visible(Viewport view, double width, double minWidth, uint32_t firstDepth,
                                   uint32_t depthCount) const;

    // The node under pixel x at `depth`, or -1. Descends by binary search over the contiguous, offset-ordered
    // children: O(depth * log(children)).
    int64_t hitTest(Viewport view, double width, double x, uint32_t depth) const;

private:
    std::shared_ptr<const CallTree> m_tree;
    std::vector<int64_t> m_offset;
    std::vector<uint32_t> m_height;
};

}   // namespace qflame
