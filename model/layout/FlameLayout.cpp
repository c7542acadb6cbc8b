#include "layout/FlameLayout.h"

#include "io/BesideThread.h"

#include <algorithm>
#include <atomic>
#include <thread>

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

FlameLayout::FlameLayout(const CallTree &tree) : FlameLayout(tree, totals(tree))
{
    if (tree.isComplete())
        return;
    // A first look (tree/StagedTree.h): a node whose descendants are still to come already takes their rows,
    // so that merged columns are as tall as the whole tree's.
    for (NodeId i = 0; i < size(); ++i)
        m_height[i] = tree.hiddenHeight(i);
    for (NodeId i = NodeId(size()); i-- > 1;)
        m_height[m_parent[i]] = std::max(m_height[m_parent[i]], m_height[i] + 1);
}

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

namespace {

// The depth-first walk of visible(): one node at a time off a stack. A node's merged runs are closed by the time
// its step ends, so the walk of a set of stacked subtrees depends on nothing but them.
struct VisibleWalk {
    const std::vector<NodeId> &firstChild;
    const std::vector<uint32_t> &childCount, &depthOf, &heightOf;
    const std::vector<double> &widthOf, &offsetOf;
    Viewport view;
    double width, minWidth, scale;
    uint32_t firstDepth, endDepth;
    std::vector<FlameRect> out;

    struct Run {
        NodeId first = 0;
        double x = 0, right = 0;
        uint32_t rows = 0;
        bool open = false;
    } run;

    double px(NodeId n) const { return (offsetOf[n] - view.begin) * scale; }
    void flush(uint32_t depth)
    {
        if (run.open && depth < endDepth && depth + run.rows > firstDepth)
            out.push_back({run.first, run.x, run.right - run.x, depth, true, run.rows});
        run.open = false;
    }
    void step(NodeId n, std::vector<NodeId> &stack)
    {
        const uint32_t depth = depthOf[n];
        if (depth >= firstDepth)
            out.push_back({n, px(n), widthOf[n] * scale, depth});
        if (depth + 1 >= endDepth)
            return;
        const NodeId first = firstChild[n];
        const uint32_t count = childCount[n];
        for (uint32_t i = 0; i < count; ++i) {
            const NodeId c = first + i;
            const double x = px(c), w = widthOf[c] * scale;
            if (x + w <= 0 || x >= width || w <= 0)
                continue;
            if (w >= minWidth) {
                flush(depth + 1);
                if (depth + 1 + heightOf[c] >= firstDepth)
                    stack.push_back(c);
                continue;
            }
            if (!run.open)
                run = {c, x, x, 0, true};
            run.right = x + w;
            run.rows = std::max(run.rows, heightOf[c] + 1);
            if (run.right - run.x >= minWidth)
                flush(depth + 1);
        }
        flush(depth + 1);
    }
    void walk(std::vector<NodeId> &stack)
    {
        while (!stack.empty()) {
            const NodeId n = stack.back();
            stack.pop_back();
            step(n, stack);
        }
    }
};

}   // namespace

std::vector<FlameRect> FlameLayout::visible(Viewport view, double width, double minWidth, uint32_t firstDepth,
                                            uint32_t depthCount, Threads threads) const
{
    if (view.span() <= 0 || width <= 0 || depthCount == 0)
        return {};
    const VisibleWalk blank{m_firstChild, m_childCount, m_depth, m_height, m_width, m_offset, view, width,
                            minWidth, width / view.span(), firstDepth, firstDepth + depthCount, {}, {}};
    if (threads == Threads::Auto && (size() < kTwoThreadsFromNodes || std::thread::hardware_concurrency() < 2))
        threads = Threads::One;
    if (threads == Threads::One) {
        VisibleWalk walk = blank;
        std::vector<NodeId> stack{0};
        walk.walk(stack);
        return std::move(walk.out);
    }

    // On a large tree a 4K view walks more than a millisecond of frames. The walk is cut into pieces in its
    // own order: a piece either holds the rects of one step already taken, or stands for the whole walk of a
    // subtree. The widest subtree is stepped into (its rect and merged runs, then its children in the order
    // the stack would take them) until there are enough pieces for two threads to share by taking the next
    // one as they finish (subtrees of equal width can hold very different numbers of frames). Then the
    // pieces' rects, in order, are exactly the walk of one thread.
    struct Piece {
        bool subtree;
        NodeId node;
        std::vector<FlameRect> rects;
    };
    std::vector<Piece> pieces{{true, 0, {}}};
    constexpr size_t kPieces = 48, kMostSteps = 512;
    for (size_t steps = 0; steps < kMostSteps; ++steps) {
        size_t widest = pieces.size(), subtrees = 0;
        for (size_t i = 0; i < pieces.size(); ++i) {
            if (!pieces[i].subtree)
                continue;
            ++subtrees;
            if (widest == pieces.size() || m_width[pieces[i].node] > m_width[pieces[widest].node])
                widest = i;
        }
        if (widest == pieces.size() || subtrees >= kPieces)
            break;
        VisibleWalk walk = blank;
        std::vector<NodeId> children;
        walk.step(pieces[widest].node, children);
        std::vector<Piece> replacing{{false, 0, std::move(walk.out)}};
        for (auto c = children.rbegin(); c != children.rend(); ++c)
            replacing.push_back({true, *c, {}});
        pieces.erase(pieces.begin() + std::ptrdiff_t(widest));
        pieces.insert(pieces.begin() + std::ptrdiff_t(widest), std::make_move_iterator(replacing.begin()),
                      std::make_move_iterator(replacing.end()));
    }
    std::atomic<size_t> next{0};
    auto work = [&] {
        for (size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < pieces.size();) {
            if (!pieces[i].subtree)
                continue;
            VisibleWalk walk = blank;
            std::vector<NodeId> stack{pieces[i].node};
            walk.walk(stack);
            pieces[i].rects = std::move(walk.out);
        }
    };
    runBeside(work, work);
    size_t total = 0;
    for (const Piece &piece : pieces)
        total += piece.rects.size();
    std::vector<FlameRect> out;
    out.reserve(total);
    for (const Piece &piece : pieces)
        out.insert(out.end(), piece.rects.begin(), piece.rects.end());
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
