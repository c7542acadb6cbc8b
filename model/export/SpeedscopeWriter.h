// speedscope's file format (formats/SpeedscopeFormat.h describes it) from a call tree: what `qflame convert
// --to speedscope` writes, for https://www.speedscope.app and the tools that read its files.
#pragma once

#include "tree/CallTree.h"

#include <string>

namespace qflame {

// One sampled profile named `name`: a sample per node whose self value is not zero (its stack from the root, its
// self value as the weight), depth first in the tree's order, so the output is deterministic; the root's own
// value (samples without frames) is a sample with an empty stack. The unit is the sample type's when speedscope
// has it (nanoseconds, microseconds, milliseconds, seconds, bytes), else "none"; values stay exact integers.
// Frames are the tree's labels, each once. Reading the file back gives the same flat and cum per frame.
std::string writeSpeedscope(const CallTree &tree, const std::string &name);

}   // namespace qflame
