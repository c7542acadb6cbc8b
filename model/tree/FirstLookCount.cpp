// A first look counted level by level (FirstLookParts.h): like the whole tree's sort (TreeByLevels.cpp), a level
// at a time, but each level's children counted in a table instead of its cursors sorted. On r64 it takes as long
// as sorting (the time is the passes over the cursors and the stacks), so large profiles are walked instead
// (FirstLookWalk.cpp); this is for small ones and for the walk's guesses.
#include "tree/FirstLookParts.h"

#include <numeric>

namespace qflame::detail {

namespace {

class Counting {
public:
    Counting(Cursors &cursors, const std::vector<Source> &sources, const std::vector<uint32_t> &rank,
             bool collapse, Cut cut)
        : m_cursors(cursors), m_sources(sources), m_rank(rank), m_collapse(collapse), m_cut(cut)
    {
    }

    Nodes run()
    {
        Tally root;
        for (uint32_t i = 0; i < m_cursors.size(); ++i) {
            root.enter(m_cursors[i].value, 0, 0);
            m_active.push_back(i);
        }
        m_reached.assign(m_active.size(), CallTree::kRoot);
        addNode(m_nodes, FrameTable::kRoot, root, false);
        for (NodeId first = 0; first < m_nodes.size();) {
            const NodeId next = NodeId(m_nodes.size());
            step(first, next);
            first = next;
        }
        return std::move(m_nodes);
    }

private:
    // Moves the cursors of nodes [first, next) on by one frame, and makes those nodes' children.
    void step(NodeId first, NodeId next)
    {
        const Source *sources = m_sources.data();
        m_children.clear();
        m_tallies.clear();
        std::vector<Tally> here(next - first);
        size_t kept = 0;
        for (size_t j = 0; j < m_active.size(); ++j) {
            Cursor &c = m_cursors[m_active[j]];
            const NodeId node = m_reached[j];
            Tally &t = here[node - first];
            FrameId f;
            uint8_t kind;
            if (!advance(c, sources, m_collapse, &f, &kind)) {
                t.end(c.value);
                continue;
            }
            if (m_nodes.culled[node]) {
                t.below = std::max(t.below, 1 + levelsLeft(c, m_sources, m_collapse));   // the frame taken, and those left
                continue;
            }
            const uint32_t child = m_children.findOrAdd(node, f);
            m_tallies.resize(m_children.size());
            m_tallies[child].enter(c.value, kind, 0);
            m_active[kept] = m_active[j];
            m_reached[kept] = child;   // its node id once made, below
            ++kept;
        }
        m_active.resize(kept);
        m_reached.resize(kept);
        for (NodeId n = first; n < next; ++n) {
            const Tally &t = here[n - first];
            m_nodes.self[n] = t.self;
            if (m_nodes.culled[n]) {
                m_nodes.hiddenSamples[n] = m_nodes.samples[n] - t.ended;
                m_nodes.hiddenHeight[n] = t.below;
                m_nodes.hiddenChildren[n] = m_nodes.hiddenSamples[n] != 0;
            }
        }
        // The children as nodes, breadth-first: by parent (ascending ids), then label rank.
        std::vector<uint32_t> order(m_children.size());
        std::iota(order.begin(), order.end(), 0);
        std::sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) {
            const NodeId px = m_children.parent[x], py = m_children.parent[y];
            return px != py ? px < py : m_rank[m_children.frame[x]] < m_rank[m_children.frame[y]];
        });
        std::vector<NodeId> nodeOf(m_children.size());
        for (const uint32_t c : order) {
            nodeOf[c] = NodeId(m_nodes.size());
            addNode(m_nodes, m_children.frame[c], m_tallies[c], m_cut.below(m_tallies[c].exact()));
            ++m_nodes.childCount[m_children.parent[c]];
        }
        for (NodeId &r : m_reached)
            r = nodeOf[r];
    }

    Cursors &m_cursors;
    const std::vector<Source> &m_sources;
    const std::vector<uint32_t> &m_rank;
    const bool m_collapse;
    const Cut m_cut;
    Nodes m_nodes;
    std::vector<uint32_t> m_active;   // the cursors still on their way, in order
    std::vector<NodeId> m_reached;    // for each, the node it is in (a child in m_children while a level runs)
    KeyedNodes m_children;
    std::vector<Tally> m_tallies;
};

}   // namespace

Nodes countFirstLook(Cursors &cursors, const std::vector<Source> &sources,
                     const std::vector<uint32_t> &rank, bool collapse, Cut cut)
{
    return Counting(cursors, sources, rank, collapse, cut).run();
}

}   // namespace qflame::detail
