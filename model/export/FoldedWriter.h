// Folded stacks (formats/FoldedFormat.h describes the format) from a call tree: what "Export subtree as folded"
// and `qflame convert --to folded` write.
#pragma once

#include "tree/CallTree.h"

#include <string>

namespace qflame {

// One line per node whose self value is not zero, depth first with children in the tree's (label) order, so the
// output is deterministic. A frame label's ';' becomes ':' and a line break a space, as stackcollapse-perf.pl
// does, since the format cannot escape them. The root's own value (samples without any frame) is written as a
// line with an empty stack (" 42"), which FlameGraph counts in the total.
std::string writeFolded(const CallTree &tree);

}   // namespace qflame
