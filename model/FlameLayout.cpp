#include "FlameLayout.h"

#include <algorithm>

namespace qflame {

FlameLayout::FlameLayout(std::shared_ptr<const CallTree> tree) : m_tree(std::move(tree))
{
    const CallTree &t = *m_tree;
    m_offset.assign(t.size(), 0);
    m_height.assign(t.size(), 0);
    // Breadth-first ids: a parent is placed before its children, which are contiguous.
    for (NodeId n = 0; n < t.size(); ++n) {
        int64_t x = m_offset[n];
        const NodeId first = t.firstChild(n);
        for (uint32_t i = 0; i < t.childCount(n); ++i) {
            m_offset[first + i] = x;
            x += t.total(first + i);
        }
    }
    // Children have higher ids than their parent, so one backward pass finds every subtree's height.
    for (NodeId n = NodeId(t.size()); n-- > 1;)
        m_height[t.parent(n)] = std::max(m_height[t.parent(n)], m_height[n] + 1);
}

std::vector<FlameRect> FlameLayout::visible(Viewport view, double width, double minWidth, uint32_t firstDepth,
                                            uint32_t depthCount) const
{
    std::vector<FlameRect> out;
    const CallTree &t = *m_tree;
    if (view.span() <= 0 || width <= 0 || depthCount == 0)
        return out;
    const double scale = width / view.span();
    const uint32_t endDepth = firstDepth + depthCount;
    auto px = [&](NodeId n) { return (double(m_offset[n]) - view.begin) * scale; };

    struct Run {
        NodeId first = 0;
        double x = 0, right = 0;
        uint32_t rows = 0;
        bool open = false;
    } run;
    auto flush = [&](uint32_t depth) {
        if (run.open && depth < endDepth && depth + run.rows > firstDepth)
            out.push_back({run.first, run.x, run.right - run.x, depth, true, run.rows});
        run.open = false;
    };

    std::vector<NodeId> stack{CallTree::kRoot};
    while (!stack.empty()) {
        const NodeId n = stack.back();
        stack.pop_back();
        const uint32_t depth = t.depth(n);
        if (depth >= firstDepth)
            out.push_back({n, px(n), double(t.total(n)) * scale, depth});
        if (depth + 1 >= endDepth)
            continue;
        const NodeId first = t.firstChild(n);
        const uint32_t count = t.childCount(n);
        for (uint32_t i = 0; i < count; ++i) {
            const NodeId c = first + i;
            const double x = px(c), w = double(t.total(c)) * scale;
            if (x + w <= 0 || x >= width || w <= 0)
                continue;
            if (w >= minWidth) {
                flush(depth + 1);
                if (depth + 1 + m_height[c] >= firstDepth)
                    stack.push_back(c);
                continue;
            }
            if (!run.open)
                run = {c, x, x, 0, true};
            run.right = x + w;
            run.rows = std::max(run.rows, m_height[c] + 1);
            if (run.right - run.x >= minWidth)
                flush(depth + 1);
        }
        flush(depth + 1);
    }
    return out;
}

int64_t FlameLayout::hitTest(Viewport view, double width, double x, uint32_t depth) const
{
    const CallTree &t = *m_tree;
    if (view.span() <= 0 || width <= 0 || x < 0 || x >= width)
        return -1;
    const double pos = view.begin + x * view.span() / width;   // cost units under the pixel
    if (pos < 0 || pos >= double(t.total(CallTree::kRoot)))
        return -1;
    NodeId n = CallTree::kRoot;
    for (uint32_t d = 0; d < depth; ++d) {
        const NodeId first = t.firstChild(n);
        // Last child whose left edge is <= pos.
        uint32_t lo = 0, hi = t.childCount(n);
        while (lo < hi) {
            const uint32_t mid = (lo + hi) / 2;
            if (double(m_offset[first + mid]) <= pos)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == 0)
            return -1;
        const NodeId c = first + lo - 1;
        if (pos >= double(m_offset[c] + t.total(c)))
            return -1;   // in the parent's self gap
        n = c;
    }
    return n;
}

}   // namespace qflame
