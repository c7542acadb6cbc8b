// What the readers of pprof's legacy formats (LegacyPprofFormat.h) share: samples of bare addresses, each address
// one location, the memory map that may follow the samples, and the rules by which google/pprof's profile package
// gives those locations their mappings, so that `go tool pprof -symbolize=none` and we name every frame alike
// ("[binary]" for an address inside a named mapping, "<unknown>" outside any).
#pragma once

#include "formats/StackProfile.h"
#include "io/ReadOptions.h"
#include "pprof/Profile.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace qflame::legacy {

// Calls fn(line) for each line of `text` as Go's bufio.Scanner splits it: at '\n', a '\r' before it dropped.
// fn returns false to stop; the rest of the text (after the line it stopped on) is returned.
template <typename Fn>
std::string_view forEachLine(std::string_view text, Fn &&fn)
{
    while (!text.empty()) {
        const size_t nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (!fn(line))
            return text;
    }
    return text;
}

// Go's strings.TrimSpace for ASCII text.
std::string_view trimmed(std::string_view s);
// A line that is blank or whose first non-blank character is '#'.
bool isSpaceOrComment(std::string_view line);
// "--- Memory map: ---" or "MAPPED_LIBRARIES:" anywhere in the line: the memory map follows.
bool isMemoryMapSentinel(std::string_view line);
// Every "0x[0-9a-f]+" in `s`, as pprof finds them; false when one does not fit 64 bits.
bool hexAddresses(std::string_view s, std::vector<uint64_t> *out);

class Builder {
public:
    // `where` begins every error ("SOURCE: legacy heap profile: ").
    Builder(std::string where, const ReadOptions &options, uint64_t inputBytes);
    ~Builder();

    Profile &profile() { return *m_out; }
    uint32_t str(std::string_view s);
    void setTypes(std::initializer_list<std::pair<std::string_view, std::string_view>> types);
    void setPeriod(std::string_view type, std::string_view unit, int64_t period);

    // The location of an address, created on first use (one per address, as pprof's readers make them).
    uint32_t location(uint64_t address);
    // The location of an address some sample has, or kNone.
    uint32_t findLocation(uint64_t address) const;
    // A sample of the locations pushed since the last one (leaf first) and one value per type; `bytes` the
    // numeric label heap profiles carry (the block size), when `hasBytes`.
    void pushLocation(uint32_t location) { m_stack.push_back(location); }
    void endSample(const int64_t *values, bool hasBytes = false, int64_t bytes = 0);
    size_t sampleCount() const { return m_values.size() / std::max<size_t>(1, m_typeCount); }
    int64_t &value(size_t sample, size_t type) { return m_values[sample * m_typeCount + type]; }

    // The stacks, for the CPU reader's clean-up of the signal handler's frames: sample i's locations are
    // stackLocations()[stackBegin()[i] .. stackBegin()[i+1]).
    std::vector<uint32_t> &stackLocations() { return m_locs; }
    std::vector<uint64_t> &stackBegin() { return m_begin; }
    uint64_t address(uint32_t location) const { return m_addresses[location]; }
    // Removes entry `at` of every sample that has more than `at` entries and for which drop(stack) says so, where
    // stack points at the sample's locations, leaf first.
    template <typename Drop>
    void removeFrame(size_t at, Drop &&drop);
    // Drops the second frame where the leaf's address is the second's plus one: the leaf counted twice, once
    // from the signal context and once, adjusted, from the unwinding (pprof's cleanupDuplicateLocations).
    void removeDuplicateLeaves();

    // Java profiles: the location of `address` becomes `function` (file, line); its address is dropped.
    void nameLocation(uint32_t location, std::string_view function, std::string_view file, int64_t line);
    // Java profiles merge their locations by what they name, addresses dropped (pprof aggregates them so).
    void dropAddresses() { m_dropAddresses = true; }

    // Reads the memory map lines of `text` (/proc/PID/maps or pprof's brief form; other lines are skipped).
    void parseMemoryMap(std::string_view text);
    void setFrames(std::string_view drop, std::string_view keep);

    // Fails with `where` + message.
    [[noreturn]] void fail(const std::string &message) const;
    void checkMemory() const;

    std::shared_ptr<const Profile> build(const std::string &sourceName);

private:
    struct MapEntry {
        uint64_t start = 0, limit = 0, offset = 0;
        std::string file, buildId;
    };
    void massageMappings();
    void assignMappings(const std::vector<uint32_t> &order);
    std::vector<uint32_t> locationsInOrderOfUse() const;

    std::string m_where;
    std::unordered_map<std::string, uint32_t> m_strings;   // types, units, files: not the functions' names
    uint64_t m_budget;
    std::unique_ptr<Profile> m_out;
    size_t m_typeCount = 0;
    StackProfileBuilder::HashSlots m_byAddress;
    std::vector<uint64_t> m_addresses;         // per location
    std::vector<uint32_t> m_function;          // per location: index into functions, or kNone
    std::vector<int64_t> m_line;               // per location
    StackProfileBuilder::HashSlots m_functionByName;
    std::vector<uint32_t> m_stack;
    std::vector<uint32_t> m_locs;
    std::vector<uint64_t> m_begin{0};
    std::vector<int64_t> m_values;
    std::vector<int64_t> m_bytes;              // per sample; INT64_MIN: no label
    std::vector<MapEntry> m_maps;
    bool m_dropAddresses = false;
};

template <typename Drop>
void Builder::removeFrame(size_t at, Drop &&drop)
{
    size_t write = 0;
    uint64_t begin = 0;
    for (size_t s = 0; s + 1 < m_begin.size(); ++s) {
        const uint64_t end = m_begin[s + 1];
        const bool remove = end - begin > at && drop(m_locs.data() + begin);
        for (uint64_t i = begin; i < end; ++i)
            if (!(remove && i == begin + at))
                m_locs[write++] = m_locs[i];
        begin = end;
        m_begin[s + 1] = write;
    }
    m_locs.resize(write);
}

}   // namespace qflame::legacy
