// The sandwich view of one frame: who calls it (above) and what it calls (below), each merged over all the places
// the frame occurs. Both are ordinary CallTrees sharing the source tree's frames, so FlameLayout, the
// flamegraph, FlatTable and Search work on them unchanged.
//
// Each sample that has the frame on its stack counts once, at the frame's outermost occurrence (recursion
// does not count twice, as in cum): both trees' root totals equal the frame's cum in the FlatTable of the source
// tree, and the callees tree's FlatTable gives the frame its flat and cum of the source tree.
#pragma once

#include "tree/CallTree.h"

#include <memory>

namespace qflame {

struct Sandwich {
    FrameId frame = 0;
    // Inverted: node 0 is the synthetic root, node 1 the frame, the children of a node the frames that called
    // it (the stack read from the frame's outermost occurrence towards the root). A node's self is the value of
    // the samples whose stack starts at that node.
    std::shared_ptr<const CallTree> callers;
    // Node 0 is the synthetic root, node 1 the frame, below it what the frame called: the subtrees of its
    // outermost occurrences, merged.
    std::shared_ptr<const CallTree> callees;

    int64_t total() const { return callees->total(CallTree::kRoot); }
};

class SandwichBuilder {
public:
    // The same for a bottom-up tree (CallTree::isInverted) as for the top-down tree of the same samples.
    // A frame that does not occur in `tree` gives trees of the root alone (total 0). Throws std::invalid_argument
    // for the root frame or a frame id outside the tree's frame table.
    static std::shared_ptr<const CallTree> callers(const CallTree &tree, FrameId frame);
    static std::shared_ptr<const CallTree> callees(const CallTree &tree, FrameId frame);
    static Sandwich build(const CallTree &tree, FrameId frame);
};

}   // namespace qflame
