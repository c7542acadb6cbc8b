// pprof's legacy binary CPU profiles (gperftools' libprofiler, and its Java form) and Java's text heap and
// contention profiles, read by google/pprof's rules (legacy_profile.go, legacy_java_profile.go).
#include "formats/LegacyPprofFormat.h"

#include "formats/LegacyPprofBuilder.h"
#include "formats/LegacyPprofRules.h"

#include <charconv>
#include <unordered_map>

namespace qflame::legacy {

namespace {

// The profile's words, 4 or 8 bytes in either byte order. Reading past the end gives 0 and leaves nothing to
// read (as pprof's readers give nil).
class Words {
public:
    Words(std::string_view bytes, unsigned size, bool bigEndian) : m_bytes(bytes), m_size(size), m_big(bigEndian) {}
    uint64_t next()
    {
        if (m_ended || m_bytes.size() < m_size) {
            m_ended = true;
            m_bytes = {};
            return 0;
        }
        uint64_t v = 0;
        for (unsigned i = 0; i < m_size; ++i) {
            const auto byte = uint64_t(static_cast<unsigned char>(m_bytes[m_big ? i : m_size - 1 - i]));
            v = (v << 8) | byte;
        }
        m_bytes.remove_prefix(m_size);
        return v;
    }
    bool ended() const { return m_ended; }
    std::string_view rest() const { return m_bytes; }

private:
    std::string_view m_bytes;
    unsigned m_size;
    bool m_big;
    bool m_ended = false;
};

// The header: 0, 3, 0 (C++) or 1 (Java), the period in microseconds, 0. The first of 32-bit little-endian,
// 32-bit big-endian, 64-bit little-endian, 64-bit big-endian words that reads it.
struct CpuHeader {
    bool found = false, java = false;
    uint64_t periodMicros = 0;
    unsigned size = 4;
    bool big = false;
};

CpuHeader cpuHeader(std::string_view bytes, Words *after = nullptr)
{
    for (const auto &[size, big] : {std::pair{4u, false}, {4u, true}, {8u, false}, {8u, true}}) {
        Words w(bytes, size, big);
        uint64_t n[5];
        for (uint64_t &word : n)
            word = w.next();
        if (!w.ended() && n[0] == 0 && n[1] == 3 && (n[2] == 0 || n[2] == 1) && n[3] > 0 && n[4] == 0) {
            if (after)
                *after = w;
            return {true, n[2] == 1, n[3], size, big};
        }
    }
    return {};
}

const Regex &javaLocation()
{
    static const Regex re = bytesRegex("^[\\t\\n\\f\\r ]*0x([[:xdigit:]]+)[\\t\\n\\f\\r ]+(.*)[\\t\\n\\f\\r ]*\\z");
    return re;
}
const Regex &javaFileLine()
{
    static const Regex re = bytesRegex("^(.*)[\\t\\n\\f\\r ]+\\((.+):(-?[[:digit:]]+)\\)\\z");
    return re;
}
const Regex &javaPath()
{
    static const Regex re = bytesRegex("^(.*)[\\t\\n\\f\\r ]+\\((.*)\\)\\z");
    return re;
}
const Regex &javaAttribute()
{
    static const Regex re = bytesRegex("([\\w ]+)=([\\w ]+)");
    return re;
}
const Regex &javaSample()
{
    static const Regex re = bytesRegex(" *(\\d+) +(\\d+) +@ +([ x0-9a-f]*)");
    return re;
}

// Go's filepath.Base.
std::string_view baseName(std::string_view path)
{
    if (path.empty())
        return ".";
    while (path.size() > 1 && path.back() == '/')
        path.remove_suffix(1);
    const size_t slash = path.rfind('/');
    return slash == std::string_view::npos || path.size() == 1 ? path : path.substr(slash + 1);
}

// The table after Java's samples: "0xADDRESS function (file:line)", "0xADDRESS function (library path)",
// "0xADDRESS ... generated stub/JIT ...", or "0xADDRESS name" (the agent's states: GC, VM). Addresses no sample
// has are skipped; a function keeps the file of its first line.
void readJavaLocations(Builder &b, std::string_view text)
{
    while (!text.empty()) {
        const size_t nl = text.find('\n');
        const std::string_view raw = text.substr(0, nl);
        text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
        const std::string_view line = trimmed(raw);
        if (line.empty())
            continue;
        const RegexMatch m = javaLocation().match(line);
        if (!m.hasMatch())
            continue;
        const std::string_view hex = m.captured(1);
        uint64_t address = 0;
        if (std::from_chars(hex.data(), hex.data() + hex.size(), address, 16).ec != std::errc())
            b.fail("the address of a frame does not fit 64 bits: '" + std::string(line.substr(0, 80)) + "'");
        const uint32_t location = b.findLocation(address);
        if (location == kNone)
            continue;
        const std::string_view what = m.captured(2);
        std::string function, file;
        int64_t lineNumber = 0;
        if (const RegexMatch fl = javaFileLine().match(what); fl.hasMatch()) {
            function = std::string(fl.captured(1));
            file = std::string(fl.captured(2));
            int64_t n = 0;
            if (parseGoInt(fl.captured(3), 10, &n) && n > 0)
                lineNumber = n;
        } else if (const RegexMatch path = javaPath().match(what); path.hasMatch()) {
            function = std::string(path.captured(1));
            file = std::string(baseName(path.captured(2)));
        } else if (what.find("generated stub/JIT") != std::string_view::npos) {
            function = "STUB";
        } else {
            function = std::string(what);
        }
        b.nameLocation(location, function, file, lineNumber);
    }
    b.dropAddresses();
}

// Samples of COUNT DEPTH PC... words up to the end marker (0, 1, 0) or the end. Callers' return addresses move
// back by one onto the call when `adjust` (C++; Java's are frame ids). Null, with `why`, when a sample runs past
// the end of the input. Returns what follows the marker.
bool readCpuSamples(Builder &b, Words &w, bool adjust, int64_t period, std::string *why, std::string_view *rest)
{
    std::vector<uint64_t> addresses;
    for (size_t sample = 0; !w.rest().empty(); ++sample) {
        const uint64_t count = w.next(), depth = w.next();
        if (w.ended() || depth > w.rest().size() / 4) {
            *why = "legacy CPU profile: sample " + std::to_string(sample + 1) + " runs past the end of the input";
            return false;
        }
        addresses.resize(size_t(depth));
        for (uint64_t &a : addresses)
            a = w.next();
        if (count == 0 && depth == 1 && addresses[0] == 0)
            break;
        for (size_t i = 0; i < addresses.size(); ++i)
            b.pushLocation(b.location(adjust && i > 0 ? addresses[i] - 1 : addresses[i]));
        const int64_t values[2] = {int64_t(count), int64_t(count * uint64_t(period))};
        b.endSample(values);
    }
    *rest = w.rest();
    return true;
}

// Most samples sharing one second frame is the signal handler's frame, not the program's: it is taken out, up to
// twice (the leaf itself comes from the signal context and is always right).
void removeSignalFrames(Builder &b)
{
    for (int round = 0; round < 2; ++round) {
        const auto &begin = b.stackBegin();
        const auto &locs = b.stackLocations();
        const size_t samples = begin.size() - 1;
        std::unordered_map<uint32_t, size_t> seconds;
        for (size_t s = 0; s < samples; ++s)
            if (begin[s + 1] - begin[s] > 1)
                ++seconds[locs[begin[s] + 1]];
        const size_t margin = samples / 32;   // one sample in 32 may differ
        for (const auto &[location, count] : seconds)
            if (count >= samples - margin) {   // at most one location can be so common
                const uint32_t handler = location;
                b.removeFrame(1, [&](const uint32_t *stack) { return stack[1] == handler; });
                break;
            }
    }
}

}   // namespace

bool hasCpuHeader(std::string_view bytes)
{
    return cpuHeader(bytes).found;
}

std::shared_ptr<const Profile> readCpu(std::string_view bytes, const std::string &sourceName,
                                       const ReadOptions &options, std::string *why)
{
    Words w({}, 4, false);
    const CpuHeader h = cpuHeader(bytes, &w);
    if (!h.found)
        return nullptr;
    Builder b(sourceName + ": legacy CPU profile: ", options, bytes.size());
    const int64_t period = int64_t(h.periodMicros * 1000u);
    b.setPeriod("cpu", "nanoseconds", period);
    b.setTypes({{"samples", "count"}, {"cpu", "nanoseconds"}});
    std::string_view rest;
    if (!readCpuSamples(b, w, !h.java, period, why, &rest))
        return nullptr;
    if (h.java) {
        readJavaLocations(b, rest);
        return b.build(sourceName);
    }
    removeSignalFrames(b);
    b.parseMemoryMap(rest);
    b.removeDuplicateLeaves();
    return b.build(sourceName);
}

std::shared_ptr<const Profile> readJavaText(std::string_view bytes, const std::string &sourceName,
                                            const ReadOptions &options, std::string *why)
{
    const size_t firstEnd = bytes.find('\n');
    if (firstEnd == std::string_view::npos)
        return nullptr;
    const std::string_view header = trimmed(bytes.substr(0, firstEnd));
    const bool heap = header == "--- heapz 1 ---";
    if (!heap && header != "--- contentionz 1 ---")
        return nullptr;
    std::string_view text = bytes.substr(firstEnd + 1);
    Builder b(sourceName + (heap ? ": legacy Java heap profile: " : ": legacy Java contention profile: "), options,
              bytes.size());
    // "name = value" attributes, then "VALUE COUNT @ ID..." samples, then the frames' table; each part ends at
    // its first line of another form (only lines ended by a newline count: the table takes the last one).
    auto eachLine = [&text](auto &&take) {
        for (size_t nl; (nl = text.find('\n')) != std::string_view::npos; text.remove_prefix(nl + 1)) {
            const std::string_view line = trimmed(text.substr(0, nl));
            if (!line.empty() && !take(line))
                return;
        }
    };
    std::string unrecognized;
    eachLine([&](std::string_view line) {
        const RegexMatch m = javaAttribute().match(line);
        if (!m.hasMatch())
            return false;
        const std::string key = std::string(heap ? "heap/" : "contention/") + std::string(trimmed(m.captured(1)));
        const std::string value(trimmed(m.captured(2)));
        int64_t number = 0;
        if (key == "heap/format" || key == "contention/format") {
            if (value != "java")
                unrecognized = "the format is '" + value + "', not java";
        } else if (key == "heap/resolution") {
            b.setTypes({{"inuse_objects", "count"}, {"inuse_space", value}});
        } else if (key == "contention/resolution") {
            b.setTypes({{"contentions", "count"}, {"delay", value}});
        } else if (key == "contention/sampling period" || key == "contention/ms since reset") {
            if (!parseGoInt(value, 0, &number))
                b.fail("the attribute '" + std::string(line) + "' is not a whole number");
            if (key == "contention/sampling period")
                b.setPeriod("contentions", "count", number);
            else
                b.profile().durationNanos = int64_t(uint64_t(number) * 1000000u);
        } else {
            unrecognized = "not an attribute of a Java profile: '" + std::string(line.substr(0, 80)) + "'";
        }
        return unrecognized.empty();
    });
    if (!unrecognized.empty()) {
        *why = unrecognized;
        return nullptr;
    }
    const int64_t period = b.profile().period;
    std::vector<uint64_t> ids;
    eachLine([&](std::string_view line) {
        const RegexMatch m = javaSample().match(line);
        if (!m.hasMatch())
            return false;
        int64_t values[2] = {};   // Java writes the value first and the count second: pprof swaps them
        if (!parseGoInt(m.captured(2), 0, &values[0]) || !parseGoInt(m.captured(1), 0, &values[1]))
            b.fail("a value is not a number that fits 64 bits: '" + std::string(line.substr(0, 80)) + "'");
        if (!hexAddresses(m.captured(3), &ids))
            b.fail("a frame id does not fit 64 bits: '" + std::string(line.substr(0, 80)) + "'");
        for (uint64_t id : ids)
            b.pushLocation(b.location(id));
        if (heap) {
            if (values[0] == 0)
                b.fail("a sample's count is 0: '" + std::string(line.substr(0, 80)) + "'");
            const int64_t blockSize = values[1] / values[0];
            std::tie(values[0], values[1]) = unsampledJavaHeap(values[0], values[1]);
            b.endSample(values, true, blockSize);
        } else {
            if (period != 0) {
                values[0] = int64_t(uint64_t(values[0]) * uint64_t(period));
                values[1] = int64_t(uint64_t(values[1]) * uint64_t(period));
            }
            b.endSample(values);
        }
        return true;
    });
    readJavaLocations(b, text);
    return b.build(sourceName);
}

}   // namespace qflame::legacy
