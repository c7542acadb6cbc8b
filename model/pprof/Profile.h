// A decoded, validated pprof profile as plain, read-only value arrays.
//
// Ids from the file are resolved to indexes once, at read time, so nothing downstream ever looks up an id or
// meets a dangling reference. Strings stay in the profile's own string table and are referred to by index.
#pragma once

#include "pprof/LocationIndexes.h"
#include "pprof/SampleValues.h"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace qflame {

// Sums of sample values wrap around as Go's int64 arithmetic does in go tool pprof: a hostile or corrupt profile
// can make them overflow, which is undefined behaviour with C++'s signed +.
inline int64_t wrappingAdd(int64_t a, int64_t b) { return int64_t(uint64_t(a) + uint64_t(b)); }

inline constexpr uint32_t kNone = UINT32_MAX;   // "no mapping" / "no function"

// The string table as one buffer of characters and the end of each string in it: 4 bytes per string besides
// its characters. It was a std::vector<std::string>, 32 bytes per string even when empty, so a file of empty
// string-table entries (2 bytes each on the wire) needed 16 times its size in memory.
class StringTable {
public:
    StringTable() = default;
    StringTable(std::initializer_list<std::string_view> strings)
    {
        for (std::string_view s : strings)
            push_back(s);
    }

    size_t size() const { return m_ends.size(); }
    bool empty() const { return m_ends.empty(); }
    std::string_view operator[](size_t i) const
    {
        const uint32_t begin = i ? m_ends[i - 1] : 0;
        return std::string_view(m_chars.data() + begin, m_ends[i] - begin);
    }
    // Appends a string of `size` characters and returns where to write them. Throws std::length_error past
    // 4 GiB of characters (every input is read under 2 GiB, so only a bug gets there).
    char *append(size_t size)
    {
        const size_t begin = m_chars.size();
        if (begin + size > UINT32_MAX)
            throw std::length_error("string table over 4 GiB");
        m_chars.resize(begin + size);
        m_ends.push_back(uint32_t(begin + size));
        return m_chars.data() + begin;
    }
    void push_back(std::string_view s) { s.copy(append(s.size()), s.size()); }
    void reserve(size_t strings) { m_ends.reserve(strings); }
    // Bytes held (for the decoder's memory budget).
    size_t bytes() const { return m_chars.size() + 4 * m_ends.size(); }
    // Every string's characters one after the other, and which string a character of them is in: a search through
    // all strings at once (names/Demangle.cpp).
    std::string_view chars() const { return m_chars; }
    size_t stringAt(size_t offset) const
    {
        return size_t(std::upper_bound(m_ends.begin(), m_ends.end(), uint32_t(offset)) - m_ends.begin());
    }
    size_t beginOf(size_t i) const { return i ? m_ends[i - 1] : 0; }
    std::vector<std::string> toVector() const
    {
        std::vector<std::string> out;
        for (size_t i = 0; i < size(); ++i)
            out.emplace_back((*this)[i]);
        return out;
    }
    friend bool operator==(const StringTable &, const StringTable &) = default;

private:
    std::string m_chars;
    std::vector<uint32_t> m_ends;
};

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

// A position in Profile::sampleLocations, as sampleLocBegin keeps it: 32 bits, half of the 64 it took (3 MB less
// on r64, issue #31). Every input is read under 2 GiB and names each location with a byte or more, and the other
// formats' memory limits stop far below 4 Gi entries, so only a bug gets past; it throws, as StringTable does.
inline uint32_t locationPosition(size_t position)
{
    if (position > UINT32_MAX)
        throw std::length_error("sample locations over 4 Gi entries");
    return uint32_t(position);
}

struct Timeline;   // time/Timeline.h: each sample's time and thread, where the file has them

struct Profile {
    StringTable strings;                  // string_table; strings[0] == ""
    std::vector<ValueType> sampleTypes;
    int defaultSampleType = -1;           // index into sampleTypes, or -1 when the file names none
    std::vector<Mapping> mappings;
    std::vector<Function> functions;
    std::vector<Line> lines;
    std::vector<Location> locations;

    // Samples, structure of arrays. Sample i has the locations sampleLocations[locBegin[i] .. locBegin[i+1])
    // (leaf first, as in the file), values values[i*nTypes .. i*nTypes+nTypes), and the label set
    // sampleLabelSet[i].
    LocationIndexes sampleLocations;         // indexes into locations, 2 or 4 bytes each
    std::vector<uint32_t> sampleLocBegin;    // size sampleCount()+1; positions in 32 bits (locationPosition)
    SampleValues values;                     // 4 or 8 bytes each (SampleValues.h)

    // Labels, each distinct set of them once: samples share few sets (r64's 743,343 samples have 134, where a
    // copy per sample took 24 MB). Set k is labels[labelSetBegin[k] .. labelSetBegin[k+1]), in the order of its
    // first sample's labels; set 0 is the empty one. sampleLabelSet is empty when no sample has a label,
    // otherwise it has an entry per sample. pprof/LabelSets.h makes them.
    std::vector<Label> labels;
    std::vector<uint64_t> labelSetBegin{0, 0};
    std::vector<uint32_t> sampleLabelSet;

    uint32_t dropFrames = 0, keepFrames = 0; // string indexes, 0 = unset
    int64_t timeNanos = 0;
    int64_t durationNanos = 0;
    ValueType periodType;
    int64_t period = 0;
    std::vector<uint32_t> comments;          // string indexes

    std::string sourceName;                  // file name (or "-", or a description) for messages

    // Samples of the file that were not stored: no location, no label, every value zero. They change no total
    // and no tree, only the number of samples the file has (`qflame info`), and a file can hold 500 million of
    // them in 1 GiB (2 bytes each), which stored cost 16 bytes each.
    uint64_t emptySamples = 0;

    // The file's records in time order with their samples (time/Timeline.h); null when the file has no times.
    std::shared_ptr<const Timeline> timeline;

    // The samples stored (the arrays' entries); fileSampleCount() is how many the file has.
    size_t sampleCount() const { return sampleLocBegin.empty() ? 0 : sampleLocBegin.size() - 1; }
    uint64_t fileSampleCount() const { return sampleCount() + emptySamples; }
    std::string_view str(uint32_t index) const { return strings[index]; }
    size_t labelSetCount() const { return labelSetBegin.size() - 1; }
    uint32_t labelSetOf(size_t sample) const { return sampleLabelSet.empty() ? 0 : sampleLabelSet[sample]; }
    std::span<const Label> labelSet(uint32_t set) const
    {
        return {labels.data() + labelSetBegin[set], labels.data() + labelSetBegin[set + 1]};
    }
    std::span<const Label> sampleLabels(size_t sample) const { return labelSet(labelSetOf(sample)); }
    int64_t value(size_t sample, size_t type) const { return values[sample * sampleTypes.size() + type]; }

    std::string typeName(size_t type) const { return std::string(strings[sampleTypes[type].type]); }
    std::string unitName(size_t type) const { return std::string(strings[sampleTypes[type].unit]); }

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
