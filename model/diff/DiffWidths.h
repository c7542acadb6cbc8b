// How wide a diff flamegraph's frames are: numbers of the comparison, so the model computes them (the window's
// diff view and `qflame diff --png/--svg` lay out the same widths).
#pragma once

#include "diff/DiffTree.h"

#include <vector>

namespace qflame {

// What a frame's width stands for.
enum class DiffWidth {
    Max,          // max(before, after), widened where needed so that children fit in their parent
    Comparison,   // the comparison's total
    Baseline,     // the baseline's total
};

// Every node's width in the tree's (normalised) unit, indexed by NodeId.
std::vector<double> diffWidths(const DiffTree &diff, DiffWidth width);

}   // namespace qflame
