// A large call tree built in two steps, so that the window can paint before the whole tree is there (issue #23):
// first the nodes that can be seen at the initial zoom, then the whole tree.
//
// A node whose total is below the root's total / cullDivisor is made with its exact self, total and samples, but
// its descendants wait for complete(). With the default divisor, 16384, such a node is narrower than 1/16384 of
// the root: less than one pixel in any view of the whole profile up to 16,384 pixels wide (two 8K screens side by
// side are 15,360), and the flamegraph merges frames below one pixel into columns as tall as their subtrees,
// which the first look keeps (CallTree::hiddenHeight). So its layout at the initial zoom gives the same
// rectangles as the whole tree's (tst_stagedtree checks both). The first look's nodes are found by walking each
// stack through guessed nodes (FirstLookWalk.cpp); the whole tree is then sorted level by level from the stacks'
// start (TreeByLevels.cpp), as CallTreeBuilder::build sorts it.
#pragma once

#include "tree/CallTreeBuilder.h"

#include <memory>
#include <vector>

namespace qflame {

namespace detail {
class LevelBuild;
}

class StagedTreeBuild {
public:
    static constexpr int64_t kCullDivisor = 16384;

    // The divisor of the window's first looks (LoadJob's builds): the power of two at or above the width of the
    // widest view its screens can show, from 2048 (app/main.cpp sets it once the screens are known; until then,
    // and outside the window, kCullDivisor). The flamegraph merges what is under a pixel (a logical one: the
    // painter's unit), so a node under 1/2048 of the root is below a pixel in any view of the whole profile on a
    // desktop up to 2048 pixels wide (1920 x 1080, the most common, at any scale). The first look then has fewer
    // nodes, and its stacks stop earlier (r64: 31,905 nodes at 1/16384, 13,481 at 1/4096, 8,481 at 1/2048;
    // bottom-up 16,127 at 1/4096, 9,810 at 1/2048; docs/benchmarks.md has the times).
    static void setViewCullDivisor(int64_t divisor);
    static int64_t viewCullDivisor();
    static int64_t cullDivisorForWidth(int width);

    // Reads the profiles' frames and makes the build's cursors (as CallTreeBuilder::build, with its errors).
    // cullDivisor 0 leaves nothing out. With a negative sample value nothing is left out either: a node's
    // descendants are then not bound to be narrower than the node.
    StagedTreeBuild(const std::vector<std::shared_ptr<const Profile>> &profiles, size_t typeIndex,
                    const BuildOptions &options = {}, int64_t cullDivisor = kCullDivisor);
    ~StagedTreeBuild();
    StagedTreeBuild(const StagedTreeBuild &) = delete;
    StagedTreeBuild &operator=(const StagedTreeBuild &) = delete;

    // The first look: isComplete() when nothing had to wait (a small profile). Call once.
    std::shared_ptr<const CallTree> firstLook();
    // The whole tree, node for node the tree CallTreeBuilder::build makes. After firstLook(); call once.
    std::shared_ptr<const CallTree> complete();

private:
    std::unique_ptr<detail::LevelBuild> m_build;
};

// For each node of a first look, the node of the complete tree with the same path (both from one build: they
// share a frame table). A node's children are all present in the first look unless it hides its descendants,
// so this is a walk of the first look alone.
std::vector<NodeId> nodesInComplete(const CallTree &firstLook, const CallTree &complete);

}   // namespace qflame
