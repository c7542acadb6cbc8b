// Makes a profile's label sets (Profile::labels, labelSetBegin, sampleLabelSet): each distinct set of labels is
// kept once, and a sample names its set by number. The decoder and every format that has labels fill a profile
// through it, so two readers of the same samples number the sets alike: in the order their first samples come.
#pragma once

#include "pprof/Profile.h"

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace qflame {

class LabelSetTable {
public:
    // Knows the sets `p` has so far (at least the empty one).
    explicit LabelSetTable(Profile &p);
    LabelSetTable(const LabelSetTable &) = delete;   // it knows one profile
    LabelSetTable &operator=(const LabelSetTable &) = delete;

    // The labels appended to p.labels from `from` on, as a set: its number. When the set was known, they are
    // taken off p.labels again. Labels in another order are another set, as the file keeps their order.
    // Inline, with the last sample's set tried first: the decoder calls it for every sample that has labels
    // (r64: 743,343 times), and out of line with a hash each time it cost as much as storing the labels had.
    uint32_t closeAppended(size_t from)
    {
        const size_t count = m_p.labels.size() - from;
        if (count == 0)
            return 0;
        const std::span<const Label> labels(m_p.labels.data() + from, count);
        uint32_t set = m_last;
        if (set == 0 || !equalsSet(set, labels)) {
            const uint64_t hash = hashOf(labels);
            set = find(labels, hash);
            if (set == UINT32_MAX)
                return m_last = added(hash);
        }
        m_p.labels.resize(from);
        return m_last = set;
    }
    // The same for labels from elsewhere (another profile's set, not p's own): copied when the set is new.
    uint32_t intern(std::span<const Label> labels);

    // Gives sample `sample` (the next one: p.sampleLabelSet's entries so far are those before it, or none) the
    // set `set`. While every sample has the empty set, p.sampleLabelSet stays empty.
    void setSampleSet(size_t sample, uint32_t set)
    {
        if (!m_p.sampleLabelSet.empty())
            m_p.sampleLabelSet.push_back(set);
        else if (set != 0)
            startSampleSets(sample, set);
    }

    // The memory the table holds beside the profile's arrays, for the readers' limits.
    uint64_t heldBytes() const { return m_slots.capacity() * sizeof(uint32_t) + m_hashes.capacity() * 8; }

private:
    static uint64_t hashOf(std::span<const Label> labels)
    {
        // Field by field: a Label has padding, whose bytes are not its value.
        uint64_t h = labels.size();
        for (const Label &l : labels) {
            h = (h ^ (uint64_t(l.key) << 32 | l.str)) * 0x9e3779b97f4a7c15ull;
            h = (h ^ uint64_t(l.num)) * 0x9e3779b97f4a7c15ull;
            h = (h ^ l.numUnit) * 0x9e3779b97f4a7c15ull;
        }
        return h ^ (h >> 29);
    }
    bool equalsSet(uint32_t set, std::span<const Label> labels) const
    {
        const std::span<const Label> known = m_p.labelSet(set);
        return std::equal(known.begin(), known.end(), labels.begin(), labels.end());
    }
    uint32_t find(std::span<const Label> labels, uint64_t hash) const   // UINT32_MAX: not known
    {
        const size_t mask = m_slots.size() - 1;
        for (size_t i = size_t(hash) & mask; m_slots[i] != 0; i = (i + 1) & mask) {
            const uint32_t set = m_slots[i] - 1;
            if (m_hashes[set] == hash && equalsSet(set, labels))
                return set;
        }
        return UINT32_MAX;
    }
    uint32_t added(uint64_t hash);   // the labels at p.labels' end as a new set, with this hash
    void startSampleSets(size_t sample, uint32_t set);
    void insert(uint32_t set, uint64_t hash);
    void rebuild(size_t slots);   // a power of two
    void place(uint32_t set, uint64_t hash);

    Profile &m_p;
    std::vector<uint32_t> m_slots;   // set number + 1; 0 is a free slot
    std::vector<uint64_t> m_hashes;  // of each set
    uint32_t m_last = 0;             // the set closeAppended gave last
};

// What is wrong with p's label sets, or "" when nothing: the arrays must agree, each set but the empty one must
// hold labels, no two sets may be equal, and every set must be some sample's, numbered as their first samples
// come. For the fuzz differential and the tests.
std::string labelSetsProblem(const Profile &p);

}   // namespace qflame
