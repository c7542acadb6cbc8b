#include "tree/SampleCallEdges.h"

#include <algorithm>

namespace qflame::detail {

void SampleCallEdges::addProfile(const ProfileFrames &pf, size_t frameCount)
{
    m_everInlined.resize(std::max(m_everInlined.size(), frameCount), 0);
    for (size_t i = 0; i < pf.locFrames.size(); ++i)
        if (pf.locKinds[i] == CallTree::kInlined) {
            m_everInlined[pf.locFrames[i]] = 1;
            m_any = true;
        }
}

void SampleCallEdges::walk(const Profile &p, const ProfileFrames &pf, size_t begin, size_t end)
{
    FrameId caller = FrameTable::kRoot;
    for (size_t k = end; k-- > begin;) {   // root first; a location's frames are stored outermost first
        const uint32_t loc = p.sampleLocations[k];
        for (uint32_t i = pf.locBegin[loc]; i < pf.locBegin[loc + 1]; ++i) {
            const FrameId f = pf.locFrames[i];
            if (m_everInlined[f] && caller != FrameTable::kRoot && caller != f) {
                bool inserted = false;
                const uint32_t e = m_index.findOrInsert((uint64_t(caller) << 32) | f, uint32_t(m_edges.size()),
                                                        &inserted);
                if (inserted)
                    m_edges.push_back({caller, f, false});
                // A location's outermost frame is entered by a call, the others inlined.
                m_edges[e].called = m_edges[e].called || (pf.locKinds[i] & CallTree::kCalled);
            }
            caller = f;
        }
    }
}

}   // namespace qflame::detail
