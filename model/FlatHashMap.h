// A small open-addressing hash map from uint64 keys to uint32 values, for the hot loops of tree building
// (tens of millions of lookups on large profiles, where std::unordered_map's node allocations dominate).
#pragma once

#include <cstdint>
#include <vector>

namespace qflame {

class FlatHashMap {
public:
    static constexpr uint64_t kEmpty = ~uint64_t(0);   // never a valid key

    explicit FlatHashMap(size_t expected = 1024) { rehash(capacityFor(expected)); }

    // Returns the value for key, inserting `value` first when the key is new; *inserted tells which.
    uint32_t findOrInsert(uint64_t key, uint32_t value, bool *inserted)
    {
        if ((m_size + 1) * 10 > m_keys.size() * 7)
            rehash(m_keys.size() * 2);
        size_t i = slot(key);
        while (m_keys[i] != kEmpty) {
            if (m_keys[i] == key) {
                *inserted = false;
                return m_values[i];
            }
            i = (i + 1) & m_mask;
        }
        m_keys[i] = key;
        m_values[i] = value;
        ++m_size;
        *inserted = true;
        return value;
    }

    size_t size() const { return m_size; }

private:
    static size_t capacityFor(size_t n)
    {
        size_t cap = 16;
        while (cap * 7 < n * 10)
            cap *= 2;
        return cap;
    }
    size_t slot(uint64_t key) const
    {
        key ^= key >> 33;
        key *= 0xff51afd7ed558ccdull;
        key ^= key >> 33;
        return size_t(key) & m_mask;
    }
    void rehash(size_t capacity)
    {
        std::vector<uint64_t> keys(capacity, kEmpty);
        std::vector<uint32_t> values(capacity);
        keys.swap(m_keys);
        values.swap(m_values);
        m_mask = capacity - 1;
        for (size_t i = 0; i < keys.size(); ++i) {
            if (keys[i] == kEmpty)
                continue;
            size_t j = slot(keys[i]);
            while (m_keys[j] != kEmpty)
                j = (j + 1) & m_mask;
            m_keys[j] = keys[i];
            m_values[j] = values[i];
        }
    }

    std::vector<uint64_t> m_keys;
    std::vector<uint32_t> m_values;
    size_t m_mask = 0;
    size_t m_size = 0;
};

}   // namespace qflame
