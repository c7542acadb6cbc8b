// Validation and conversion of a pprof message's metadata (everything but the samples and the string table,
// which the decoder streams) to our index-based arrays.
#pragma once

#include "Profile.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace perftools::profiles {
class Profile;
}

namespace qflame {

// Maps file ids to indexes; dense ids (the common case: 1..N) use a vector, sparse ones a hash map.
class IdIndex {
public:
    // `ids` in item order; `what` names the items in messages ("location"). Throws ProfileError for id 0 and
    // duplicates.
    IdIndex(const std::vector<uint64_t> &ids, const char *what);
    uint32_t find(uint64_t id) const
    {
        if (m_dense)
            return id < m_vec.size() ? m_vec[id] : kNone;
        auto it = m_map.find(id);
        return it == m_map.end() ? kNone : it->second;
    }

private:
    bool m_dense = true;
    std::vector<uint32_t> m_vec;
    std::unordered_map<uint64_t, uint32_t> m_map;
};

// Fills out's sample types, header fields, mappings, functions, lines and locations from `in`, whose samples
// and string table are ignored: out.strings must already hold the string table, `sampleCount` is the number
// of samples. Throws ProfileError naming the first problem found.
void convertMetadata(const perftools::profiles::Profile &in, size_t sampleCount, Profile &out);

// Says "string index I in WHERE is out of range" with the table's size.
[[noreturn]] void badStringIndex(int64_t index, const std::string &where, size_t tableSize);

}   // namespace qflame
