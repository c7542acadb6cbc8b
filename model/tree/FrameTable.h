// Interned strings and frames, shared by every node of a call tree: each name is stored once.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace qflame {

using StrId = uint32_t;
using FrameId = uint32_t;

// What a frame stands for, with the same meaning as pprof's -functions, -lines and -addresses.
enum class Granularity { Functions, Lines, Addresses };
const char *granularityName(Granularity g);
bool parseGranularity(std::string_view text, Granularity *out);

class StringPool {
public:
    StringPool();   // id 0 is ""
    StrId intern(std::string_view s);
    // Room for `more` strings beyond the ones held (at least doubling), so that interning them neither copies
    // the arrays nor rehashes.
    void reserveMore(size_t more);
    const std::string &str(StrId id) const { return m_strings[id]; }
    size_t size() const { return m_strings.size(); }

private:
    // Open addressing over ids rather than a node-based map: profiles with a million distinct names made the
    // map's per-entry allocations and pointer chasing a visible share of tree building.
    std::deque<std::string> m_strings;   // by id; a deque keeps the references str() hands out valid
    std::vector<uint32_t> m_hashes;      // by id: probing and growing never touch the strings
    std::vector<uint32_t> m_slots;       // id + 1, 0 = empty; at most half full
};

// The identity of a frame is exactly pprof's NodeInfo at the chosen granularity (name, file, line, address,
// object file, start line): two locations that pprof would merge into one node share one FrameId.
struct FrameKey {
    StrId name = 0;
    StrId file = 0;        // cleaned source path; only at line/address granularity
    int64_t line = 0;      // only at line/address granularity
    uint64_t address = 0;  // only at address granularity
    StrId objfile = 0;     // mapping file, when pprof shows it (no function name, or no line at all)
    int64_t startLine = 0; // only with objfile, as pprof keys nameless functions
    bool operator==(const FrameKey &) const = default;
};

struct Frame {
    FrameKey key;
    StrId label = 0;       // pprof's printable name: "main.run", "main.run x.go:12", "[libc.so]", "<unknown>"
    // Descriptive extras from the first location seen with this frame (for details, colouring by mapping):
    StrId sourceFile = 0;  // the function's file even at function granularity
    StrId mappingFile = 0;
    StrId buildId = 0;
    StrId systemName = 0;
};

class FrameTable {
public:
    FrameTable();   // frame 0 is the synthetic root, labelled "root"
    static constexpr FrameId kRoot = 0;

    FrameId intern(const FrameKey &key, const Frame &extras);
    // Room for `more` frames (and their names) beyond the ones held, as StringPool::reserveMore.
    void reserveMore(size_t more);
    const Frame &frame(FrameId id) const { return m_frames[id]; }
    const std::string &label(FrameId id) const { return m_strings.str(m_frames[id].label); }
    size_t size() const { return m_frames.size(); }
    StringPool &strings() { return m_strings; }
    const StringPool &strings() const { return m_strings; }

    // Every frame's place in label order, ties by FrameId: rank[a] < rank[b] exactly when a sorts first. Much
    // faster than sorting ids with a comparator on label(): that chases three pointers per comparison, which
    // dominated building trees with a million distinct frames.
    std::vector<uint32_t> labelRanks() const;

private:
    static uint32_t hash(const FrameKey &k);
    FrameId add(const FrameKey &key, const Frame &extras, StrId label);
    StringPool m_strings;
    std::vector<Frame> m_frames;
    std::vector<FrameId> m_byName;    // frames that are a bare name: frame id + 1 by name, 0 = none
    // The other frames (with a file, line, address or object file) in a hash table of entries:
    std::vector<FrameId> m_keyed;     // by entry: its frame
    std::vector<uint32_t> m_hashes;   // by entry
    std::vector<uint32_t> m_slots;    // entry + 1, 0 = empty; at most half full
};

// A string's first 8 bytes as a big-endian number, zero-padded: comparing two prefixes orders like comparing
// the strings, except that equal prefixes leave the order open. Sorting on it keeps label sorts in cache.
inline uint64_t sortPrefix(std::string_view s)
{
    if (s.size() >= 8) {
        uint64_t bytes;
        std::memcpy(&bytes, s.data(), 8);
        return std::endian::native == std::endian::little ? __builtin_bswap64(bytes) : bytes;
    }
    uint64_t prefix = 0;
    for (size_t i = 0; i < 8; ++i)
        prefix = (prefix << 8) | (i < s.size() ? uint8_t(s[i]) : 0);
    return prefix;
}

// Go's path/filepath.Clean for slash paths, which pprof applies to source file names.
std::string cleanPath(std::string_view path);

}   // namespace qflame
