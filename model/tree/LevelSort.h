// The whole tree's sort (TreeByLevels.cpp): one level of the stacks at a time, each node's cursors moved on by one
// frame and sorted by the label rank of that frame; each run of one frame is a child. Private to model/tree.
#pragma once

#include "tree/LevelCursor.h"

#include <vector>

namespace qflame::detail {

// One thread's part of a level: the children of its nodes, in order, and its sorting buffers.
struct LevelPart {
    std::vector<FrameId> frame;
    std::vector<uint8_t> kinds;
    std::vector<Range> ranges;
    std::vector<uint32_t> order, counts, sortedKey;
    std::vector<Cursor> sorted;
    std::vector<uint8_t> sortedKind;
    void clear()
    {
        frame.clear();
        kinds.clear();
        ranges.clear();
    }
};

class LevelSort {
public:
    LevelSort(Cursors &cursors, const std::vector<Source> &sources, const std::vector<uint32_t> &rank,
              bool collapse);
    void setNodes(Nodes *nodes) { m_nodes = nodes; }

    // Moves the cursors of nodes [first, first + count) (ranges[0, count)) on by one frame, sets those nodes'
    // self, samples and child count, and appends their children to `out`.
    void run(const Range *ranges, size_t count, NodeId first, LevelPart &out);

    // The same for one node of many cursors (the root, a long chain of single calls): its cursors are moved on
    // by two threads, which share nothing but the sums (wrapping sums: the order of adding does not matter).
    void runWide(NodeId n, Range r, LevelPart &out);

private:
    struct Moved {
        int64_t self = 0;      // of the stacks that end here
        uint32_t ended = 0;
        bool oneKey = true;    // all cursors go on to the same frame (or all end)
    };

    Moved moveOn(uint32_t a, uint32_t b, uint32_t limit);
    void finish(NodeId n, Range r, Moved moved, LevelPart &out);
    void sortRange(uint32_t a, uint32_t b, LevelPart &out);

    Cursors &m_cursors;
    const std::vector<Source> &m_sources;
    const std::vector<uint32_t> &m_rank;
    std::vector<FrameId> m_frameOfRank;
    const bool m_collapse;
    Nodes *m_nodes = nullptr;
    // By cursor: the rank of its next frame plus one (0: its stack ended at this node), and how it enters it.
    std::vector<uint32_t> m_key;
    std::vector<uint8_t> m_kind;
};

}   // namespace qflame::detail
