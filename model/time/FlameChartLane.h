// Inside the flame chart (time/FlameChart.h): a lane's samples and levels, and the one code that turns samples
// into boxes, used by the build (every sample once) and by the exact query (the samples in view).
#pragma once

#include "time/FlameChart.h"

#include <cstdint>
#include <vector>

namespace qflame {

struct FlameChart::LaneData {
    // Times in blocks of 64 samples: 4 bytes each from the block's first; a block that spans 4.29 s or more
    // (a thread that slept) keeps its times whole in farTimes. So a sample costs 8 bytes with its node, and any
    // sample's time is one read: a binary search over the lane needs nothing else.
    static constexpr uint32_t kNear = UINT32_MAX;
    static constexpr size_t kBlock = 64;
    std::vector<uint32_t> offset;     // per sample
    std::vector<uint32_t> node;       // per sample: its path node
    std::vector<int64_t> blockBase;   // per block: its first sample's time
    std::vector<uint32_t> blockFar;   // per block: kNear, or its index in farTimes (of kBlock entries each)
    std::vector<int64_t> farTimes;

    struct Item {
        int64_t start, end;
        uint32_t node;   // or kMerged
    };
    struct Level {
        std::vector<Item> items;        // by row, then time
        std::vector<uint32_t> rowBegin;   // row r: items[rowBegin[r], rowBegin[r + 1])
    };
    std::vector<Level> levels;   // levels[k - 1] is level k

    size_t size() const { return node.size(); }
    int64_t time(size_t i) const
    {
        const size_t b = i / kBlock;
        return blockFar[b] == kNear ? blockBase[b] + offset[i] : farTimes[size_t(blockFar[b]) * kBlock + i % kBlock];
    }
    void push(int64_t t, uint32_t n);
    size_t lowerBound(int64_t t) const;   // the first sample at or after t
    uint64_t bytes() const;
};

// Samples in, boxes out: a sample at t with path node n lasts until the next unless that is more than `gap`
// later (then `interval`); a row's box ends where the path at that row changes or a gap comes.
class BoxRuns {
public:
    BoxRuns(const std::vector<uint32_t> &parent, const std::vector<uint32_t> &depth, int64_t interval, int64_t gap)
        : m_parent(parent), m_depth(depth), m_interval(interval), m_gap(gap)
    {
    }
    // emit(FlameBox, index of the box's first sample)
    template <class Emit>
    void add(size_t i, int64_t t, uint32_t n, Emit &&emit)
    {
        if (m_started) {
            if (t - m_last > m_gap) {
                closeFrom(0, m_last + m_interval, emit);
            } else if (n == m_lastNode) {
                m_last = t;
                return;
            }
        }
        // The rows of n's path not open yet, from the leaf up to the first that is.
        m_fresh.clear();
        uint32_t a = n;
        while (a != FlameChart::kRootNode && m_depth[a] > m_open.size())
            m_fresh.push_back(a), a = m_parent[a];
        while (a != FlameChart::kRootNode && m_open[m_depth[a] - 1].node != a)
            m_fresh.push_back(a), a = m_parent[a];
        closeFrom(a == FlameChart::kRootNode ? 0 : m_depth[a], t, emit);
        for (size_t k = m_fresh.size(); k-- > 0;)
            m_open.push_back({m_fresh[k], t, i});
        m_started = true;
        m_last = t;
        m_lastNode = n;
    }
    // The boxes still open end one interval after the last sample.
    template <class Emit>
    void finish(Emit &&emit)
    {
        if (m_started)
            closeFrom(0, m_last + m_interval, emit);
    }

private:
    template <class Emit>
    void closeFrom(size_t row, int64_t end, Emit &emit)
    {
        while (m_open.size() > row) {
            const Open &o = m_open.back();
            emit(FlameBox{o.start, end, uint32_t(m_open.size() - 1), o.node}, o.first);
            m_open.pop_back();
        }
    }
    struct Open {
        uint32_t node;
        int64_t start;
        size_t first;
    };
    const std::vector<uint32_t> &m_parent, &m_depth;
    const int64_t m_interval, m_gap;
    std::vector<Open> m_open;   // by row
    std::vector<uint32_t> m_fresh;
    bool m_started = false;
    int64_t m_last = 0;
    uint32_t m_lastNode = FlameChart::kRootNode;
};

}   // namespace qflame
