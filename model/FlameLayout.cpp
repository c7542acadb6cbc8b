#include "FlameLayout.h"

#include <algorithm>

namespace qflame {

FlameLayout::FlameLayout(std::shared_ptr<const CallTree> tree) : m_tree(std::move(tree))
{
    const CallTree &t = *m_tree;
    m_offset.assign(t.size(), 0);
    // Breadth-first ids: a parent is placed before its children, which are contiguous.
    for (NodeId n = 0; n < t.size(); ++n) {
        int64_t x = m_offset[n];
        const NodeId first = t.firstChild(n);
        for (uint32_t i = 0; i < t.childCount(n); ++i) {
            m_offset[first + i] = x;
            x += t.total(first + i);
        }
    }
}

std::vector<FlameRect> FlameLayout::visible(NodeId zoom, double width, double minWidth, uint32_t firstRow,
                                            uint32_t rowCount) const
{
    std::vector<FlameRect> out;
    const CallTree &t = *m_tree;
    const int64_t total = t.total(zoom);
    if (total <= 0 || width <= 0)
        return out;
    const double scale = width / double(total);
    const int64_t origin = m_offset[zoom];
    const uint32_t baseDepth = t.depth(zoom);
    const uint32_t lastRow = firstRow + rowCount;
    std::vector<NodeId> stack{zoom};
    while (!stack.empty()) {
        const NodeId n = stack.back();
        stack.pop_back();
        const uint32_t row = t.depth(n) - baseDepth;
        const double w = double(t.total(n)) * scale;
        if (row >= firstRow)
            out.push_back({n, double(m_offset[n] - origin) * scale, w, row});
        if (row + 1 >= lastRow)
            continue;
        const NodeId first = t.firstChild(n);
        for (uint32_t i = t.childCount(n); i-- > 0;)
            if (double(t.total(first + i)) * scale >= minWidth)
                stack.push_back(first + i);
    }
    return out;
}

int64_t FlameLayout::hitTest(NodeId zoom, double width, double x, uint32_t row) const
{
    const CallTree &t = *m_tree;
    const int64_t total = t.total(zoom);
    if (total <= 0 || width <= 0 || x < 0 || x >= width)
        return -1;
    // The cost-unit position under the pixel.
    const double pos = double(m_offset[zoom]) + x * double(total) / width;
    NodeId n = zoom;
    for (uint32_t r = 0; r < row; ++r) {
        const NodeId first = t.firstChild(n);
        const uint32_t count = t.childCount(n);
        // Last child whose left edge is <= pos.
        uint32_t lo = 0, hi = count;
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
