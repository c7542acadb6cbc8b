#include "pprof/LabelSets.h"

#include <algorithm>
#include <tuple>

namespace qflame {

LabelSetTable::LabelSetTable(Profile &p) : m_p(p)
{
    if (m_p.labelSetBegin.size() < 2)
        m_p.labelSetBegin = {0, 0};
    for (uint32_t set = 0; set < m_p.labelSetCount(); ++set)
        m_hashes.push_back(hashOf(m_p.labelSet(set)));
    size_t slots = 16;
    while (slots < 2 * m_hashes.size())
        slots *= 2;
    rebuild(slots);
}

// m_hashes[set] is there already: a table that grows puts every set in its slot, this one too. At most half
// full, so probes stay short.
void LabelSetTable::insert(uint32_t set, uint64_t hash)
{
    if ((size_t(set) + 1) * 2 > m_slots.size())
        return rebuild(m_slots.size() * 2);
    place(set, hash);
}

void LabelSetTable::rebuild(size_t slots)
{
    m_slots.assign(slots, 0);
    for (uint32_t set = 0; set < m_hashes.size(); ++set)
        place(set, m_hashes[set]);
}

void LabelSetTable::place(uint32_t set, uint64_t hash)
{
    const size_t mask = m_slots.size() - 1;
    size_t i = size_t(hash) & mask;
    while (m_slots[i] != 0)
        i = (i + 1) & mask;
    m_slots[i] = set + 1;
}

uint32_t LabelSetTable::added(uint64_t hash)
{
    const auto set = uint32_t(m_p.labelSetCount());
    m_p.labelSetBegin.push_back(m_p.labels.size());
    m_hashes.push_back(hash);
    insert(set, hash);
    return set;
}

uint32_t LabelSetTable::intern(std::span<const Label> labels)
{
    if (labels.empty())
        return 0;
    const uint64_t hash = hashOf(labels);
    if (const uint32_t set = find(labels, hash); set != UINT32_MAX)
        return set;
    m_p.labels.insert(m_p.labels.end(), labels.begin(), labels.end());
    return added(hash);
}

void LabelSetTable::startSampleSets(size_t sample, uint32_t set)
{
    m_p.sampleLabelSet.assign(sample, 0);
    m_p.sampleLabelSet.push_back(set);
}

std::string labelSetsProblem(const Profile &p)
{
    const std::vector<uint64_t> &begin = p.labelSetBegin;
    if (begin.size() < 2 || begin[0] != 0 || begin[1] != 0 || begin.back() != p.labels.size())
        return "the label sets do not start with the empty one or do not end at the labels' end";
    for (size_t k = 2; k < begin.size(); ++k)
        if (begin[k] <= begin[k - 1])
            return "label set " + std::to_string(k - 1) + " is empty or ends before it begins";
    if (!p.sampleLabelSet.empty() && p.sampleLabelSet.size() != p.sampleCount())
        return "not every sample has a label set";
    uint32_t next = 1;   // the number the next new set must have
    for (uint32_t set : p.sampleLabelSet) {
        if (set > next || set >= p.labelSetCount())
            return "label set " + std::to_string(set) + " comes before set " + std::to_string(next) + " or does not exist";
        next += set == next;
    }
    if (next != p.labelSetCount())
        return "label set " + std::to_string(next) + " is no sample's";
    if (p.sampleLabelSet.size() > 0 && next == 1)
        return "the samples' label sets are kept although every one is empty";
    std::vector<std::span<const Label>> sets;
    for (uint32_t set = 1; set < p.labelSetCount(); ++set)
        sets.push_back(p.labelSet(set));
    std::sort(sets.begin(), sets.end(), [](std::span<const Label> a, std::span<const Label> b) {
        return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(), [](const Label &x, const Label &y) {
            return std::tie(x.key, x.str, x.num, x.numUnit) < std::tie(y.key, y.str, y.num, y.numUnit);
        });
    });
    for (size_t k = 1; k < sets.size(); ++k)
        if (std::equal(sets[k].begin(), sets[k].end(), sets[k - 1].begin(), sets[k - 1].end()))
            return "two label sets are equal";
    return {};
}

}   // namespace qflame
