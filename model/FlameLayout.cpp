#include "FlameLayout.h"

#include <algorithm>

namespace qflame {

namespace {

std::vector<double> totals(const CallTree &tree)
{
    std::vector<double> w(tree.size());
    for (NodeId n = 0; n < tree.size(); ++n)
        w[n] = double(tree.total(n));
    return w;
}

}   // namespace

FlameLayout::FlameLayout(const CallTree &tree) : FlameLayout(tree, totals(tree)) {}

void FlameLayout::place()
{
    const size_t n = m_parent.size();
    m_offset.assign(n, 0);
    m_height.assign(n, 0);
    // Breadth-first ids: a parent is placed before its children, which are contiguous.
    for (NodeId i = 0; i < n; ++i) {
        double x = m_offset[i];
        const NodeId first = m_firstChild[i];
        for (uint32_t c = 0; c < m_childCount[i]; ++c) {
            m_offset[first + c] = x;
            x += m_width[first + c];
        }
    }
    // Children have higher ids than their parent, so one backward pass finds every subtree's height.
    for (NodeId i = NodeId(n); i-- > 1;)
        m_height[m_parent[i]] = std::max(m_height[m_parent[i]], m_height[i] + 1);
}

std::vector<FlameRect> FlameLayout::visible(Viewport view, double width, double minWidth, uint32_t firstDepth,
                                            uint32_t depthCount) const
{
    std::vector<FlameRect> out;
    if (view.span() <= 0 || width <= 0 || depthCount == 0)
        return out;
    const double scale = width / view.span();
    const uint32_t endDepth = firstDepth + depthCount;
    auto px = [&](NodeId n) { return (m_offset[n] - view.begin) * scale; };

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

    std::vector<NodeId> stack{0};
    while (!stack.empty()) {
        const NodeId n = stack.back();
        stack.pop_back();
        const uint32_t depth = m_depth[n];
        if (depth >= firstDepth)
            out.push_back({n, px(n), m_width[n] * scale, depth});
        if (depth + 1 >= endDepth)
            continue;
        const NodeId first = m_firstChild[n];
        const uint32_t count = m_childCount[n];
        for (uint32_t i = 0; i < count; ++i) {
            const NodeId c = first + i;
            const double x = px(c), w = m_width[c] * scale;
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
    if (view.span() <= 0 || width <= 0 || x < 0 || x >= width)
        return -1;
    const double pos = view.begin + x * view.span() / width;   // cost units under the pixel
    if (pos < 0 || pos >= m_width[0])
        return -1;
    NodeId n = 0;
    for (uint32_t d = 0; d < depth; ++d) {
        const NodeId first = m_firstChild[n];
        // Last child whose left edge is <= pos.
        uint32_t lo = 0, hi = m_childCount[n];
        while (lo < hi) {
            const uint32_t mid = (lo + hi) / 2;
            if (m_offset[first + mid] <= pos)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == 0)
            return -1;
        const NodeId c = first + lo - 1;
        if (pos >= m_offset[c] + m_width[c])
            return -1;   // in the parent's self gap
        n = c;
    }
    return n;
}

}   // namespace qflame
