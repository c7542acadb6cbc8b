// Interned strings and frames, shared by every node of a call tree: each name is stored once.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
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
    const std::string &str(StrId id) const { return *m_byId[id]; }
    size_t size() const { return m_byId.size(); }

private:
    std::unordered_map<std::string, StrId> m_ids;
    std::vector<const std::string *> m_byId;
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
    const Frame &frame(FrameId id) const { return m_frames[id]; }
    const std::string &label(FrameId id) const { return m_strings.str(m_frames[id].label); }
    size_t size() const { return m_frames.size(); }
    StringPool &strings() { return m_strings; }
    const StringPool &strings() const { return m_strings; }

private:
    struct KeyHash {
        size_t operator()(const FrameKey &k) const;
    };
    StringPool m_strings;
    std::vector<Frame> m_frames;
    std::unordered_map<FrameKey, FrameId, KeyHash> m_ids;
};

// Go's path/filepath.Clean for slash paths, which pprof applies to source file names.
std::string cleanPath(std::string_view path);

}   // namespace qflame
