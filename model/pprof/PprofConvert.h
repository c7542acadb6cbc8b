// Conversion and validation of a pprof message's metadata (everything but the samples) to our index-based
// arrays. Mappings, functions and locations are converted one at a time as the decoder reads them, with their
// references (string indexes, mapping and function ids) kept as read: the string table and the items they
// refer to usually come later in the file. finish() then checks and resolves them all.
#pragma once

#include "pprof/MetadataWire.h"
#include "pprof/Profile.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace perftools::profiles {
class Profile;
class Mapping;
class Function;
class Location;
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

class MetadataReader {
public:
    explicit MetadataReader(Profile &out) : m_out(out) {}

    // Appends to out.mappings, out.functions, out.locations and out.lines.
    void addMapping(const perftools::profiles::Mapping &m);
    void addFunction(const perftools::profiles::Function &f);
    void addLocation(const perftools::profiles::Location &l);
    // The same from the hand-written decoder (MetadataWire.h).
    void addFunction(const wire::FunctionFields &f);
    void addLocation(const wire::LocationFields &l, const std::vector<wire::LineFields> &lines);

    // Fills out's sample types and header fields from `rest` (the fields not streamed: its samples, strings,
    // mappings, functions and locations are ignored), then checks the string indexes and resolves the ids of
    // what was added. out.strings must hold the string table; `sampleCount` is the number of samples. Throws
    // ProfileError naming the first problem, in the order of the fields: string table, sample types, header,
    // mappings, functions, locations.
    void finish(const perftools::profiles::Profile &rest, size_t sampleCount);

private:
    enum Field : uint8_t { MappingFile, MappingBuildId, FunctionName, FunctionSystemName, FunctionFilename };
    uint32_t keep(int64_t index, Field field, size_t item);
    uint32_t check(uint32_t kept, Field field, size_t item, const char *what, uint64_t id, const char *name) const;
    uint32_t str(int64_t index, const char *where) const;

    Profile &m_out;
    std::vector<uint64_t> m_locationMappingIds;   // per location, as read (0: none)
    std::vector<uint64_t> m_lineFunctionIds;      // per line, as read
    std::vector<wire::LineFields> m_lines;        // a parsed location's, reused
    uint32_t m_largestFunctionString = 0;         // the largest string index the functions keep (kBadIndex too)
    // Most producers number mappings and functions 1, 2, 3... in file order. Then an id is its item's index plus
    // one, so the locations' references are resolved as they are read, and finish() checks them all at once by
    // the largest (a pass over the locations and lines read 1-2 ms of memory on pprof__large.cpu).
    bool m_mappingIdsInOrder = true, m_functionIdsInOrder = true, m_lineWithoutFunction = false;
    uint64_t m_largestMappingRef = 0, m_largestFunctionRef = 0;
    // String indexes that do not fit 32 bits are kept as kBadIndex, their value here for the error message.
    std::unordered_map<uint64_t, int64_t> m_wideIndexes;
};

// Says "string index I in WHERE is out of range" with the table's size.
[[noreturn]] void badStringIndex(int64_t index, const std::string &where, size_t tableSize);

}   // namespace qflame
