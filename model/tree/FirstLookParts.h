// What the two ways of finding a first look's nodes share (FirstLookWalk.cpp, FirstLookCount.cpp): nodes by
// (parent, frame), and what passes through a node. Private to model/tree.
#pragma once

#include "tree/CallTree.h"
#include "tree/FlatHashMap.h"
#include "tree/LevelCursor.h"

#include <algorithm>
#include <vector>

namespace qflame::detail {

constexpr uint32_t kEmpty = UINT32_MAX;

// Nodes by (parent, frame): ids into the parallel arrays `parent` and `frame`, found through the tree builders'
// hash map.
class KeyedNodes {
public:
    std::vector<NodeId> parent;
    std::vector<FrameId> frame;

    size_t size() const { return parent.size(); }
    void clear()
    {
        parent.clear();
        frame.clear();
        m_ids = FlatHashMap(64);
    }
    uint32_t findOrAdd(NodeId p, FrameId f)
    {
        bool inserted = false;
        const uint32_t id = m_ids.findOrInsert(uint64_t(p) << 32 | f, uint32_t(size()), &inserted);
        if (inserted) {
            parent.push_back(p);
            frame.push_back(f);
        }
        return id;
    }

private:
    FlatHashMap m_ids{64};   // a frame is never UINT32_MAX, so no key is the map's empty one
};

// The levels of the locations entries[from, to), a byte each in perLocation (Source::locLevels); the sum wraps
// at 2^32, so that a whole stack's count less what was taken is the count of the rest (StackLevels.h).
template <typename Id>
inline uint32_t levelsOf(const Id *entries, const uint8_t *perLocation, uint32_t from, uint32_t to)
{
    uint32_t levels = 0;
    for (uint32_t q = from; q < to; ++q)
        levels += perLocation[entries[q]];
    return levels;
}

// How many levels a stack has below the frame it took last (each frame of its locations left is one, unless
// collapsing recursion skips it).
inline uint32_t levelsLeft(Cursor c, const std::vector<Source> &sources, bool collapse)
{
    const Source &s = sources[c.source];
    if (!collapse) {
        uint32_t levels = c.frameEnd - c.framePos;
        const uint32_t from = std::min(c.locStop, c.locPos), to = std::max(c.locStop, c.locPos);   // either way
        return s.sampleLocations.visit([&](const auto *entries) {
            if (s.locLevels)
                return levels + levelsOf(entries, s.locLevels, from, to);
            for (uint32_t q = from; q < to; ++q) {
                const uint32_t loc = entries[q];
                levels += s.locBegin[loc + 1] - s.locBegin[loc];
            }
            return levels;
        });
    }
    FrameId f;
    uint8_t k;
    uint32_t levels = 0;
    while (advance(c, sources.data(), true, &f, &k))
        ++levels;
    return levels;
}

// What passes through one node (on one thread, until the threads' tallies are added).
struct Tally {
    // The values' sum, exact in 128 bits (they are non-negative: a first look is only made then); its low 64
    // bits are the wrapping sum the tree keeps.
    uint64_t lo = 0, hi = 0;
    int64_t self = 0;   // wrapping, as the tree sums
    uint32_t samples = 0, ended = 0;
    uint32_t below = 0;   // the most levels a stack through the node reaches below it
    uint8_t kinds = 0;
    unsigned __int128 exact() const { return (unsigned __int128)hi << 64 | lo; }
    int64_t total() const { return int64_t(lo); }
    void enter(int64_t v, uint8_t kind, uint32_t levelsBelow)
    {
        lo += uint64_t(v);
        hi += lo < uint64_t(v);
        ++samples;
        kinds |= kind;
        below = std::max(below, levelsBelow);
    }
    void end(int64_t v)
    {
        self = wrappingAdd(self, v);
        ++ended;
    }
    void add(const Tally &o)
    {
        lo += o.lo;
        hi += o.hi + (lo < o.lo);
        self = wrappingAdd(self, o.self);
        samples += o.samples;
        ended += o.ended;
        below = std::max(below, o.below);
        kinds |= o.kinds;
    }
};

// A node of a first look: the Nodes entry, from its tally.
inline void addNode(Nodes &nodes, FrameId frame, const Tally &t, bool culled)
{
    const NodeId n = NodeId(nodes.size());
    nodes.addCullable(frame, t.kinds, culled, t.total());
    nodes.self[n] = t.self;
    nodes.samples[n] = t.samples;
    if (culled) {
        nodes.hiddenSamples[n] = t.samples - t.ended;
        nodes.hiddenHeight[n] = t.below;
        nodes.hiddenChildren[n] = nodes.hiddenSamples[n] != 0;   // whether anything waits below
    }
}

// A first look counted level by level: every level moves the cursors still on their way on by one frame (in
// place) and counts their children. For small profiles, and for the samples the walk's guesses come from.
Nodes countFirstLook(Cursors &cursors, const std::vector<Source> &sources,
                     const std::vector<uint32_t> &rank, bool collapse, Cut cut);

}   // namespace qflame::detail
