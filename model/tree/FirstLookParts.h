// What the two ways of finding a first look's nodes share (FirstLookWalk.cpp, FirstLookCount.cpp): nodes by
// (parent, frame), and what passes through a node. Private to model/tree.
#pragma once

#include "tree/CallTree.h"
#include "tree/LevelCursor.h"

#include <algorithm>
#include <bit>
#include <vector>

namespace qflame::detail {

constexpr uint32_t kEmpty = UINT32_MAX;

// Nodes by (parent, frame): ids into the parallel arrays `parent` and `frame`, through an open-addressing table.
class KeyedNodes {
public:
    std::vector<NodeId> parent;
    std::vector<FrameId> frame;

    size_t size() const { return parent.size(); }
    void clear()
    {
        parent.clear();
        frame.clear();
        if (m_slots.size() > 1024)
            m_slots.clear();
        std::fill(m_slots.begin(), m_slots.end(), kEmpty);
    }
    uint32_t findOrAdd(NodeId p, FrameId f)
    {
        if (2 * (size() + 1) > m_slots.size())
            rehash(std::max<size_t>(1024, 2 * m_slots.size()));
        size_t i = hash(p, f);
        for (;; i = (i + 1) & m_mask) {
            const uint32_t id = m_slots[i];
            if (id == kEmpty)
                break;
            if (parent[id] == p && frame[id] == f)
                return id;
        }
        m_slots[i] = uint32_t(size());
        parent.push_back(p);
        frame.push_back(f);
        return m_slots[i];
    }

private:
    // The product's high bits: they depend on every bit of the key.
    size_t hash(NodeId p, FrameId f) const
    {
        return size_t(((uint64_t(p) << 32 | f) * 0x9E3779B97F4A7C15ull) >> m_shift);
    }
    void rehash(size_t n)
    {
        m_slots.assign(n, kEmpty);
        m_mask = n - 1;
        m_shift = 64 - std::countr_zero(n);
        for (uint32_t id = 0; id < size(); ++id) {
            size_t i = hash(parent[id], frame[id]);
            while (m_slots[i] != kEmpty)
                i = (i + 1) & m_mask;
            m_slots[i] = id;
        }
    }
    std::vector<uint32_t> m_slots;
    size_t m_mask = 0;
    int m_shift = 64;
};

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
Nodes countFirstLook(std::vector<Cursor> &cursors, const std::vector<Source> &sources,
                     const std::vector<uint32_t> &rank, bool collapse, Cut cut);

}   // namespace qflame::detail
