#include "formats/SpeedscopeEvents.h"

#include <algorithm>

namespace qflame {

void SpeedscopeEventTree::beginProfile(std::string_view thread)
{
    m_root = m_at = uint32_t(m_nodes.size());
    m_nodes.push_back(Node{m_events.thread(thread), kRoot, m_root, 0});
    m_last = 0;
    m_lastNode = 0, m_lastEnd = -1;
}

void SpeedscopeEventTree::event(char type, std::string_view typeText, int64_t frame, uint64_t location, int64_t time,
                                const std::function<std::string()> &where)
{
    if (m_at == m_root)
        m_last = time;   // nothing was open: no time to count, the clock starts here
    else if (time < m_last)
        fail(where() + " is earlier than the one before it (events must be in time order)");
    account(time);
    if (type == 'O') {
        const uint64_t key = uint64_t(m_at) << 32 | uint64_t(frame);
        const uint32_t h = uint32_t((key * 0x9e3779b97f4a7c15ull) >> 32);
        uint32_t child = m_childOf.find(h, [&](uint32_t n) {
            return m_nodes[n].parent == m_at && m_nodes[n].frame == uint32_t(frame);
        });
        if (child == StackProfileBuilder::HashSlots::kMissing) {
            child = uint32_t(m_nodes.size());
            m_nodes.push_back(Node{uint32_t(location), uint32_t(frame), m_at, 0});
            m_childOf.insert(h, child);
        }
        m_at = child;
    } else if (type == 'C') {
        if (m_at == m_root || m_nodes[m_at].frame != uint32_t(frame))
            fail(where() + " closes frame " + std::to_string(frame) + ", which is not the innermost open frame");
        m_at = m_nodes[m_at].parent;
    } else {
        fail(where() + " has type \"" + std::string(typeText) + "\", neither \"O\" (open) nor \"C\" (close)");
    }
}

void SpeedscopeEventTree::account(int64_t time)
{
    if (m_at != m_root && time > m_last) {
        m_nodes[m_at].self += time - m_last;
        interval(m_at, m_last, time - m_last);
    }
    m_last = std::max(m_last, time);
}

// Each interval in which the open stack stays the same is one event at its start weighing its length
// (speedscope draws it as one box per frame); an event that changes nothing (a frame opened and closed at one
// time) does not cut it.
void SpeedscopeEventTree::interval(uint32_t node, int64_t start, int64_t length)
{
    if (!m_timed)
        return;
    if (node == m_lastNode && start == m_lastEnd)
        m_events.extendLast(length);
    else
        m_events.add(node, start, length);
    m_lastNode = node, m_lastEnd = start + length;
}

void SpeedscopeEventTree::finish(StackProfileBuilder &builder)
{
    std::vector<uint64_t> leafFirst;
    std::vector<uint32_t> sampleOf(m_nodes.size(), 0);
    uint32_t sample = 0;
    for (size_t n = 0; n < m_nodes.size(); ++n) {
        if (m_nodes[n].frame == kRoot || m_nodes[n].self == 0)
            continue;
        leafFirst.clear();
        size_t k = n;
        for (; m_nodes[k].frame != kRoot; k = m_nodes[k].parent)
            leafFirst.push_back(m_nodes[k].location);
        builder.appendStackIds(leafFirst, {m_nodes[n].self});   // distinct by construction
        m_events.setSampleThread(uint32_t(n), m_nodes[k].location);   // its root's thread
        sampleOf[n] = sample++;
    }
    if (m_events.size())
        builder.setTimeline(m_events.build({1}, &sampleOf));
}

uint64_t SpeedscopeEventTree::bytes() const
{
    return heldBytes(m_nodes) + m_childOf.bytes() + m_events.grownBytes();
}

}   // namespace qflame
