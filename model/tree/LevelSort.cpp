#include "tree/LevelSort.h"

#include "io/BesideThread.h"

#include <algorithm>

namespace qflame::detail {

namespace {

// The offsets 0..m-1 of keys[0, m) in the order of their keys, equal keys in their order. Most ranges that
// branch have a few distinct frames among many samples, or few samples: counted, or sorted by insertion.
void stableOrder(const uint32_t *keys, uint32_t m, std::vector<uint32_t> &order, std::vector<uint32_t> &counts)
{
    order.resize(m);
    if (m <= 16) {
        for (uint32_t i = 0; i < m; ++i) {
            uint32_t j = i;
            for (; j > 0 && keys[order[j - 1]] > keys[i]; --j)
                order[j] = order[j - 1];
            order[j] = i;
        }
        return;
    }
    const auto [lo, hi] = std::minmax_element(keys, keys + m);
    const uint64_t span = uint64_t(*hi) - *lo + 1;
    if (span <= 4 * uint64_t(m) + 1024) {
        counts.assign(span + 1, 0);
        for (uint32_t i = 0; i < m; ++i)
            ++counts[keys[i] - *lo + 1];
        for (uint64_t k = 1; k <= span; ++k)
            counts[k] += counts[k - 1];
        for (uint32_t i = 0; i < m; ++i)
            order[counts[keys[i] - *lo]++] = i;
        return;
    }
    for (uint32_t i = 0; i < m; ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [keys](uint32_t x, uint32_t y) { return keys[x] < keys[y]; });
}

}   // namespace

LevelSort::LevelSort(Cursors &cursors, const std::vector<Source> &sources, const std::vector<uint32_t> &rank,
                     bool collapse)
    : m_cursors(cursors), m_sources(sources), m_rank(rank), m_collapse(collapse),
      m_key(cursors.size()), m_kind(cursors.size())
{
    m_frameOfRank.resize(rank.size());
    for (FrameId f = 0; f < rank.size(); ++f)
        m_frameOfRank[rank[f]] = f;
}

void LevelSort::run(const Range *ranges, size_t count, NodeId first, LevelPart &out)
{
    const uint32_t limit = count ? ranges[count - 1].end : 0;   // the other thread's cursors lie beyond
    for (size_t j = 0; j < count; ++j)
        finish(NodeId(first + j), ranges[j], moveOn(ranges[j].begin, ranges[j].end, limit), out);
}

void LevelSort::runWide(NodeId n, Range r, LevelPart &out)
{
    const uint32_t mid = r.begin + (r.end - r.begin) / 2;
    Moved low, high;
    runBeside([&] { high = moveOn(mid, r.end, r.end); }, [&] { low = moveOn(r.begin, mid, mid); });
    const Moved both{wrappingAdd(low.self, high.self), low.ended + high.ended,
                     low.oneKey && high.oneKey && m_key[mid] == m_key[r.begin]};
    finish(n, r, both, out);
}

LevelSort::Moved LevelSort::moveOn(uint32_t a, uint32_t b, uint32_t limit)
{
    constexpr uint32_t kAhead = 16;
    const Source *sources = m_sources.data();
    Moved m;
    for (uint32_t i = a; i < b; ++i) {
        if (i + kAhead < limit) {
            if (const void *ahead = blockToRead(m_cursors[i + kAhead], sources))
                __builtin_prefetch(ahead);
        }
        Cursor &c = m_cursors[i];
        FrameId f;
        if (advance(c, sources, m_collapse, &f, &m_kind[i])) {
            m_key[i] = m_rank[f] + 1;
        } else {
            m_key[i] = 0;   // the stack ends here
            m.self = wrappingAdd(m.self, c.value);
            ++m.ended;
        }
        m.oneKey = m.oneKey && m_key[i] == m_key[a];
    }
    return m;
}

void LevelSort::finish(NodeId n, Range r, Moved moved, LevelPart &out)
{
    Nodes &nodes = *m_nodes;
    const auto [a, b] = r;
    nodes.self[n] = moved.self;
    nodes.samples[n] = b - a;
    if (!moved.oneKey)
        sortRange(a, b, out);
    uint32_t children = 0;
    for (uint32_t i = a; i < b;) {
        uint32_t e = i + 1;
        uint8_t kinds = m_kind[i];
        while (e < b && m_key[e] == m_key[i])
            kinds |= m_kind[e++];
        if (m_key[i] != 0) {
            out.frame.push_back(m_frameOfRank[m_key[i] - 1]);
            out.kinds.push_back(kinds);
            out.ranges.push_back({i, e});
            ++children;
        }
        i = e;
    }
    nodes.childCount[n] = children;
}

void LevelSort::sortRange(uint32_t a, uint32_t b, LevelPart &out)
{
    const uint32_t m = b - a;
    stableOrder(m_key.data() + a, m, out.order, out.counts);
    out.sorted.resize(m);
    out.sortedKind.resize(m);
    out.sortedKey.resize(m);
    for (uint32_t k = 0; k < m; ++k) {
        const uint32_t from = a + out.order[k];
        out.sorted[k] = m_cursors[from];
        out.sortedKind[k] = m_kind[from];
        out.sortedKey[k] = m_key[from];
    }
    std::copy(out.sorted.begin(), out.sorted.begin() + m, m_cursors.begin() + a);
    std::copy(out.sortedKind.begin(), out.sortedKind.begin() + m, m_kind.begin() + a);
    std::copy(out.sortedKey.begin(), out.sortedKey.begin() + m, m_key.begin() + a);
}

}   // namespace qflame::detail
