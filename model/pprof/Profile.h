// A decoded, validated pprof profile as plain, read-only value arrays.
//
// Ids from the file are resolved to indexes once, at read time, so nothing downstream ever looks up an id or
// meets a dangling reference. Strings stay in the profile's own string table and are referred to by index.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace qflame {

// Sums of sample values wrap around as Go's int64 arithmetic does in go tool pprof: a hostile or corrupt profile
// can make them overflow, which is undefined behaviour with C++'s signed +.
inline int64_t wrappingAdd(int64_t a, int64_t b) { return int64_t(uint64_t(a) + uint64_t(b)); }

inline constexpr uint32_t kNone = UINT32_MAX;   // "no mapping" / "no function"

struct ValueType {
    uint32_t type = 0;   // string index
    uint32_t unit = 0;   // string index
    friend bool operator==(const ValueType &, const ValueType &) = default;
};

struct Mapping {
    uint64_t id = 0;
    uint64_t memoryStart = 0, memoryLimit = 0, fileOffset = 0;
    uint32_t file = 0, buildId = 0;   // string indexes
    bool hasFunctions = false, hasFilenames = false, hasLineNumbers = false, hasInlineFrames = false;
    friend bool operator==(const Mapping &, const Mapping &) = default;
};

struct Function {
    uint64_t id = 0;
    uint32_t name = 0, systemName = 0, filename = 0;   // string indexes
    int64_t startLine = 0;
    friend bool operator==(const Function &, const Function &) = default;
};

struct Line {
    uint32_t function = kNone;   // index into Profile::functions
    int64_t line = 0;
    int64_t column = 0;
    friend bool operator==(const Line &, const Line &) = default;
};

struct Location {
    uint64_t id = 0;
    uint32_t mapping = kNone;     // index into Profile::mappings
    uint64_t address = 0;
    uint32_t firstLine = 0;       // into Profile::lines; innermost (inlined) first, the caller last
    uint32_t lineCount = 0;
    bool isFolded = false;
    friend bool operator==(const Location &, const Location &) = default;
};

struct Label {
    uint32_t key = 0, str = 0;    // string indexes; str == 0 for a numeric label
    int64_t num = 0;
    uint32_t numUnit = 0;         // string index
    friend bool operator==(const Label &, const Label &) = default;
};

struct Profile {
    std::vector<std::string> strings;     // string_table; strings[0] == ""
    std::vector<ValueType> sampleTypes;
    int defaultSampleType = -1;           // index into sampleTypes, or -1 when the file names none
    std::vector<Mapping> mappings;
    std::vector<Function> functions;
    std::vector<Line> lines;
    std::vector<Location> locations;

    // Samples, structure of arrays. Sample i has the locations sampleLocations[locBegin[i] .. locBegin[i+1])
    // (leaf first, as in the file), values values[i*nTypes .. i*nTypes+nTypes), and labels likewise.
    std::vector<uint32_t> sampleLocations;   // indexes into locations
    std::vector<uint64_t> sampleLocBegin;    // size sampleCount()+1
    std::vector<int64_t> values;
    std::vector<Label> labels;
    std::vector<uint64_t> sampleLabelBegin;  // size sampleCount()+1

    uint32_t dropFrames = 0, keepFrames = 0; // string indexes, 0 = unset
    int64_t timeNanos = 0;
    int64_t durationNanos = 0;
    ValueType periodType;
    int64_t period = 0;
    std::vector<uint32_t> comments;          // string indexes

    std::string sourceName;                  // file name (or "-", or a description) for messages

    size_t sampleCount() const { return sampleLocBegin.empty() ? 0 : sampleLocBegin.size() - 1; }
    const std::string &str(uint32_t index) const { return strings[index]; }
    int64_t value(size_t sample, size_t type) const { return values[sample * sampleTypes.size() + type]; }

    std::string typeName(size_t type) const { return strings[sampleTypes[type].type]; }
    std::string unitName(size_t type) const { return strings[sampleTypes[type].unit]; }

    // The sample type shown when the user picks none, as pprof chooses it: default_sample_type when set,
    // otherwise the last one.
    int effectiveDefaultType() const;

    // Finds a sample type by name ("cpu"), by "name/unit", or by 0-based index ("1"); -1 when none matches.
    int findSampleType(std::string_view spec) const;

    // Sum of one sample type over all samples.
    int64_t total(size_t type) const;

    friend bool operator==(const Profile &, const Profile &) = default;   // every field, for tests
};

}   // namespace qflame
