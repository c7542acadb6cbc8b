#include "tree/Subtree.h"

#include "tree/CallTreeBuilder.h"

namespace qflame {

std::shared_ptr<const CallTree> subtreeWithPath(const CallTree &tree, NodeId n)
{
    CallTreeAccumulator acc;
    NodeId at = CallTree::kRoot;
    for (NodeId step : tree.pathTo(n))
        at = acc.child(at, tree.frame(step), tree.callKinds(step));
    acc.addSelf(at, tree.self(n), tree.selfSamples(n));
    // Below n: an explicit stack of (original node, its copy), so deep trees do not recurse.
    std::vector<std::pair<NodeId, NodeId>> stack{{n, at}};
    while (!stack.empty()) {
        const auto [orig, copy] = stack.back();
        stack.pop_back();
        for (uint32_t i = 0; i < tree.childCount(orig); ++i) {
            const NodeId c = tree.firstChild(orig) + i;
            const NodeId cc = acc.child(copy, tree.frame(c), tree.callKinds(c));
            acc.addSelf(cc, tree.self(c), tree.selfSamples(c));
            stack.push_back({c, cc});
        }
    }
    return CallTreeBuilder::derive(std::move(acc), tree);
}

}   // namespace qflame
