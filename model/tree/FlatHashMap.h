// A small open-addressing hash map from uint64 keys to uint32 values, for the hot loops of tree building
// (tens of millions of lookups on large profiles, where std::unordered_map's node allocations dominate).
//
// Key, value and hash share one 16-byte slot: a lookup in a table far larger than the caches costs one miss,
// not two (the key compare was 58% of CallTreeBuilder::build on a 1.9M-node profile with split arrays).
// A caller may supply the hash itself (findOrInsertHashed), always the same for the same key: the tree builder
// derives it from the path of frames, so it knows every slot of a stack before the first lookup and can
// prefetch them all instead of waiting for one miss after another.
#pragma once

#include <cstdint>
#include <vector>

namespace qflame {

class FlatHashMap {
public:
    static constexpr uint64_t kEmpty = ~uint64_t(0);   // never a valid key

    explicit FlatHashMap(size_t expected = 1024) { rehash(capacityFor(expected)); }

    static uint64_t mix(uint64_t h)
    {
        h ^= h >> 33;
        h *= 0xff51afd7ed558ccdull;
        h ^= h >> 33;
        h *= 0xc4ceb9fe1a85ec53ull;
        h ^= h >> 33;
        return h;
    }

    // Returns the value for key, inserting `value` first when the key is new; *inserted tells which.
    // The table grows at a load of 7/8: long probe runs stay within neighbouring cache lines, and the memory
    // (16 bytes a slot, twice that while it grows) matters more for peak RSS than the probes do for time
    // (measured on pprof__large.cpu: 82.8 MB peak at 7/10, 69.7 MB at 7/8, no slower).
    uint32_t findOrInsert(uint64_t key, uint32_t value, bool *inserted)
    {
        return findOrInsertHashed(key, uint32_t(mix(key)), value, inserted);
    }
    // The same with the caller's hash of the key (see above); one map must not mix the two.
    uint32_t findOrInsertHashed(uint64_t key, uint32_t hash, uint32_t value, bool *inserted)
    {
        if ((m_size + 1) * 8 > m_slots.size() * 7)
            rehash(m_slots.size() * 2);
        size_t i = hash & m_mask;
        while (m_slots[i].key != kEmpty) {
            if (m_slots[i].key == key) {
                *inserted = false;
                return m_slots[i].value;
            }
            i = (i + 1) & m_mask;
        }
        m_slots[i] = {key, hash, value};
        ++m_size;
        *inserted = true;
        return value;
    }
    void prefetch(uint32_t hash) const { __builtin_prefetch(&m_slots[hash & m_mask]); }

    size_t size() const { return m_size; }

private:
    struct alignas(16) Slot {
        uint64_t key = kEmpty;
        uint32_t hash = 0;
        uint32_t value = 0;
    };
    static size_t capacityFor(size_t n)
    {
        size_t cap = 16;
        while (cap * 7 < n * 8)
            cap *= 2;
        return cap;
    }
    void rehash(size_t capacity)
    {
        std::vector<Slot> old(capacity);
        old.swap(m_slots);
        m_mask = capacity - 1;
        for (const Slot &s : old) {
            if (s.key == kEmpty)
                continue;
            size_t j = s.hash & m_mask;
            while (m_slots[j].key != kEmpty)
                j = (j + 1) & m_mask;
            m_slots[j] = s;
        }
    }

    std::vector<Slot> m_slots;
    size_t m_mask = 0;
    size_t m_size = 0;
};

}   // namespace qflame
