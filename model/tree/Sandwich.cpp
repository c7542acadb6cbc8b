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

// A bottom-up tree's paths are the stacks leaf first, so a stack's outermost occurrence of the frame is the last
// one on its path. Its callers are what follows that occurrence: below each node of the frame, merged into one
// node of the frame wherever the frame occurs again (a deeper occurrence starts over).
std::shared_ptr<const CallTree> callersBottomUp(const CallTree &tree, FrameId frame)
{
    std::vector<NodeId> to(tree.size(), kNone);
    CallTreeAccumulator nodes;
    for (NodeId n = 1; n < tree.size(); ++n) {
        const NodeId from = to[tree.parent(n)];
        if (tree.frame(n) == frame)
            to[n] = nodes.child(CallTree::kRoot, frame, tree.callKinds(n));
        else if (from != kNone)
            to[n] = nodes.child(from, tree.frame(n), tree.callKinds(n));
        else
            continue;
        nodes.addSelf(to[n], tree.self(n), tree.selfSamples(n));
    }
    return CallTreeBuilder::derive(std::move(nodes), tree);
}

// Its callees: the path from the root to the frame's last occurrence, read backwards, for the stacks through a
// node of the frame that meet it no more further on (its total less that of the frame's next nodes below it).
std::shared_ptr<const CallTree> calleesBottomUp(const CallTree &tree, FrameId frame)
{
    std::vector<int64_t> later(tree.size(), 0);   // the totals of the frame's nearest nodes below each node
    std::vector<uint64_t> laterSamples(tree.size(), 0);
    for (NodeId n = NodeId(tree.size()); n-- > 1;) {   // children before parents
        const NodeId p = tree.parent(n);
        const bool of = tree.frame(n) == frame;
        later[p] = wrappingAdd(later[p], of ? tree.total(n) : later[n]);
        laterSamples[p] += of ? tree.samples(n) : laterSamples[n];
    }
    CallTreeAccumulator nodes;
    for (NodeId n = 1; n < tree.size(); ++n) {
        if (tree.frame(n) != frame || tree.samples(n) == laterSamples[n])   // every stack meets it again
            continue;
        NodeId to = nodes.child(CallTree::kRoot, frame, tree.callKinds(n));
        for (NodeId a = tree.parent(n); a != CallTree::kRoot; a = tree.parent(a))
            to = nodes.child(to, tree.frame(a), tree.callKinds(a));
        nodes.addSelf(to, wrappingAdd(tree.total(n), -later[n]), tree.samples(n) - laterSamples[n]);
    }
    return CallTreeBuilder::derive(std::move(nodes), tree);
}

}   // namespace

std::shared_ptr<const CallTree> SandwichBuilder::callers(const CallTree &tree, FrameId frame)
{
    checkFrame(tree, frame);
    if (tree.isInverted())
        return callersBottomUp(tree, frame);
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
    if (tree.isInverted())
        return calleesBottomUp(tree, frame);
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
