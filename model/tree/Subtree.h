// One frame's subtree as a tree of its own: the samples through that node, with the path above it, for
// exporting "just this part" as folded stacks or pprof.
#pragma once

#include "tree/CallTree.h"

#include <memory>

namespace qflame {

// A tree with the path root -> ... -> n (no self on the way) and everything below n, values unchanged: its
// root total is tree.total(n).
std::shared_ptr<const CallTree> subtreeWithPath(const CallTree &tree, NodeId n);

}   // namespace qflame
