// The call edges of the samples themselves (caller frame -> frame), for a bottom-up build: its nodes cannot hold
// them (a node's call kinds mix the edges from all its callers), and pprof's inline markers need them. Only edges
// into frames reached inlined somewhere are kept: no other frame can be marked.
#pragma once

#include "tree/CallTree.h"
#include "tree/FlatHashMap.h"
#include "tree/ProfileFrames.h"

#include <vector>

namespace qflame::detail {

class SampleCallEdges {
public:
    // Every profile's frames (of the build's table, `frameCount` of them so far) before any sample is walked: a
    // frame inlined in one profile and called in another has both kinds of edge.
    void addProfile(const ProfileFrames &pf, size_t frameCount);
    // Whether some frame is reached inlined: otherwise walking the samples would find nothing.
    bool any() const { return m_any; }
    // One sample's stack: the locations p.sampleLocations[begin, end), leaf first.
    void walk(const Profile &p, const ProfileFrames &pf, size_t begin, size_t end);
    std::vector<CallTree::CallEdge> take() { return std::move(m_edges); }

private:
    std::vector<uint8_t> m_everInlined;
    bool m_any = false;
    FlatHashMap m_index{64};
    std::vector<CallTree::CallEdge> m_edges;
};

}   // namespace qflame::detail
