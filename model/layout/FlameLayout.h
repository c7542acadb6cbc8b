// Where each frame of a call tree sits: laid out once per tree in cost units, so zooming and scrolling only
// move the viewport. Pure functions of the tree and the viewport: testable without a window.
#pragma once

#include "tree/CallTree.h"

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

// Any breadth-first tree with contiguous children (CallTree, DiffTree) and a width per node: a call tree's
// totals, or a diff's max(before, after).
class FlameLayout {
public:
    explicit FlameLayout(const CallTree &tree);
    template <typename Tree>
    FlameLayout(const Tree &tree, std::vector<double> widths);

    size_t size() const { return m_parent.size(); }
    NodeId parent(NodeId n) const { return m_parent[n]; }
    NodeId firstChild(NodeId n) const { return m_firstChild[n]; }
    uint32_t childCount(NodeId n) const { return m_childCount[n]; }
    uint32_t depth(NodeId n) const { return m_depth[n]; }
    uint32_t maxDepth() const { return m_maxDepth; }
    double width(NodeId n) const { return m_width[n]; }
    // Left edge of a node in cost units, relative to the root's left edge. Children start at their parent's
    // left edge in label order; the parent's self cost is the gap at the right.
    double offset(NodeId n) const { return m_offset[n]; }
    // How many levels the subtree of n reaches below n (0 for a leaf).
    uint32_t height(NodeId n) const { return m_height[n]; }
    Viewport viewportOf(NodeId n) const { return {m_offset[n], m_offset[n] + m_width[n]}; }
    Viewport fullViewport() const { return viewportOf(0); }

    // Frames at depths [firstDepth, firstDepth + depthCount) that intersect the viewport when it spans `width`
    // pixels. Frames narrower than `minWidth` pixels are merged per run of pixel columns (see FlameRect), so
    // the cost follows what is visible, not the size of the tree. On trees of kTwoThreadsFromNodes and more,
    // two threads share the walk (Auto); the rects are the same either way (tests compare them with One).
    enum class Threads { Auto, One, Two };
    static constexpr size_t kTwoThreadsFromNodes = 100000;
    std::vector<FlameRect> visible(Viewport view, double width, double minWidth, uint32_t firstDepth,
                                   uint32_t depthCount, Threads threads = Threads::Auto) const;

    // The node under pixel x at `depth`, or -1. Descends by binary search over the contiguous, offset-ordered
    // children: O(depth * log(children)).
    int64_t hitTest(Viewport view, double width, double x, uint32_t depth) const;

private:
    void place();   // offsets and heights from the structure and the widths

    std::vector<NodeId> m_parent, m_firstChild;
    std::vector<uint32_t> m_childCount, m_depth, m_height;
    std::vector<double> m_width, m_offset;
    uint32_t m_maxDepth = 0;
};

template <typename Tree>
FlameLayout::FlameLayout(const Tree &tree, std::vector<double> widths) : m_width(std::move(widths))
{
    const size_t n = tree.size();
    m_parent.resize(n);
    m_firstChild.resize(n);
    m_childCount.resize(n);
    m_depth.resize(n);
    for (NodeId i = 0; i < n; ++i) {
        m_parent[i] = tree.parent(i);
        m_firstChild[i] = tree.firstChild(i);
        m_childCount[i] = tree.childCount(i);
        m_depth[i] = tree.depth(i);
    }
    m_maxDepth = tree.maxDepth();
    place();
}

}   // namespace qflame
