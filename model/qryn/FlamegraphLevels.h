// Turns the server's level encoding of a flamegraph (qryn.md §5) back into nodes with parents, and into the
// stacks they stand for.
//
// Each level lists its nodes left to right; a node's x is delta-encoded: the gap between its left edge and the
// right edge of the previous node on the same level. A child lies inside its parent's [x, x + total), so parents
// are found by position; self is the part of a node not covered by its children.
#pragma once

#include <QString>

#include <cstdint>
#include <string>
#include <vector>

namespace qflame::qryn {

struct FlameNode {
    int64_t x = 0;        // absolute left edge
    int64_t total = 0;
    int64_t self = 0;
    uint32_t name = 0;    // index into the flamegraph's names
    int32_t parent = -1;  // index into the node list; -1 for the root
    uint32_t depth = 0;
};

// Where a node's numbers sit in its group of integers (room for the wider groups of other encodings).
struct LevelLayout {
    int stride, offset, total, self, name;
};
inline constexpr LevelLayout kSingleLayout{4, 0, 1, 2, 3};

// The nodes of `levels`, level by level and left to right; nodes whose total is 0 are left out. Returns false
// and sets *why when the levels are inconsistent: a group of the wrong size, a negative number, self above total,
// a name index out of range, or a node outside every node of the level above.
bool decodeLevels(const std::vector<std::vector<int64_t>> &levels, size_t nameCount, const LevelLayout &layout,
                  std::vector<FlameNode> *nodes, QString *why);

// Samples as stacks of frame names, the shape pprof stores them in.
struct StackSet {
    std::vector<std::string> names;             // frame names, shared by the stacks
    std::vector<std::vector<uint32_t>> stacks;  // per stack: indexes into names, root first
    std::vector<std::vector<int64_t>> values;   // per stack: one value per sample type
};

// One stack per node with self > 0, root-first path of names without the synthetic root, value = self.
// Summing the stacks gives back every node's total, so a CallTree built from them has the flamegraph's numbers.
// A stack is as deep as its node, so a deep chain of nodes with a self each holds depth^2/2 frames: past
// `maxFrames` frames in all it returns false and sets *why (a small answer can hold a chain of millions).
bool stacksFromNodes(const std::vector<FlameNode> &nodes, const std::vector<std::string> &names, uint64_t maxFrames,
                     StackSet *out, QString *why);
StackSet stacksFromNodes(const std::vector<FlameNode> &nodes, const std::vector<std::string> &names);

}   // namespace qflame::qryn
