#include "tree/Sandwich.h"

#include "tree/CallTreeBuilder.h"

#include <stdexcept>
#include <string>

namespace qflame {

namespace {

void checkFrame(const CallTree &tree, FrameId frame)
{
    if (frame == FrameTable::kRoot || frame >= tree.frames().size())
        throw std::invalid_argument("no sandwich for frame " + std::to_string(frame) + ": the tree has frames 1.." +
                                    std::to_string(tree.frames().size() - 1));
}

// Whether each node has `frame` among its strict ancestors. Ids are breadth-first, so parents come first.
std::vector<bool> frameAbove(const CallTree &tree, FrameId frame)
{
    std::vector<bool> above(tree.size(), false);
    for (NodeId n = 1; n < tree.size(); ++n) {
        const NodeId p = tree.parent(n);
        above[n] = above[p] || (p != CallTree::kRoot && tree.frame(p) == frame);
    }
    return above;
}

}   // namespace

std::shared_ptr<const CallTree> SandwichBuilder::callers(const CallTree &tree, FrameId frame)
{
    checkFrame(tree, frame);
    const std::vector<bool> above = frameAbove(tree, frame);
    CallTreeAccumulator nodes;
    for (NodeId n = 1; n < tree.size(); ++n) {
        if (tree.frame(n) != frame || above[n])
            continue;
        // Every sample through this outermost occurrence has the same callers: the path up to the root.
        NodeId to = nodes.child(CallTree::kRoot, frame, tree.callKinds(n));
        for (NodeId a = tree.parent(n); a != CallTree::kRoot; a = tree.parent(a))
            to = nodes.child(to, tree.frame(a), tree.callKinds(a));
        nodes.addSelf(to, tree.total(n), tree.samples(n));
    }
    return CallTreeBuilder::derive(std::move(nodes), tree);
}

std::shared_ptr<const CallTree> SandwichBuilder::callees(const CallTree &tree, FrameId frame)
{
    checkFrame(tree, frame);
    // to[n]: the node that n merges into, for n at or below an outermost occurrence of the frame; kNone elsewhere.
    std::vector<NodeId> to(tree.size(), kNone);
    CallTreeAccumulator nodes;
    for (NodeId n = 1; n < tree.size(); ++n) {
        const NodeId from = to[tree.parent(n)];
        if (from != kNone)
            to[n] = nodes.child(from, tree.frame(n), tree.callKinds(n));
        else if (tree.frame(n) == frame)
            to[n] = nodes.child(CallTree::kRoot, frame, tree.callKinds(n));
        else
            continue;
        nodes.addSelf(to[n], tree.self(n), tree.selfSamples(n));
    }
    return CallTreeBuilder::derive(std::move(nodes), tree);
}

Sandwich SandwichBuilder::build(const CallTree &tree, FrameId frame)
{
    Sandwich s;
    s.frame = frame;
    s.callers = callers(tree, frame);
    s.callees = callees(tree, frame);
    return s;
}

}   // namespace qflame
