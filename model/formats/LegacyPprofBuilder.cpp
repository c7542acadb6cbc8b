#include "formats/LegacyPprofBuilder.h"

#include "formats/LegacyPprofRules.h"
#include "pprof/LabelSets.h"


#include <algorithm>
#include <charconv>
#include <climits>

namespace qflame::legacy {

namespace {

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

bool isLowerHex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

uint32_t hashOf(uint64_t v)
{
    v ^= v >> 33;
    v *= 0xff51afd7ed558ccdull;
    v ^= v >> 33;
    return uint32_t(v);
}

// Go's \s is [\t\n\f\r ], written out below (PCRE's takes \v too).
#define WS "[\\t\\n\\f\\r ]"
#define NWS "[^\\t\\n\\f\\r ]"
const std::string kHexRange = "^" WS "*(?:0x)?([[:xdigit:]]+)(?:" WS "|-)?" WS "*(?:0x)?([[:xdigit:]]+):?";
const std::string kPerm = "(?:" WS "+([-rwxp]+))?";

// /proc/PID/maps: start-limit perms offset dev inode file.
const Regex &procMapsLine()
{
    static const Regex re = bytesRegex(kHexRange + kPerm + "(?:" WS "+([[:xdigit:]]+))?" WS
                                       "+[[:xdigit:]]+:[[:xdigit:]]+" WS "+[[:digit:]]+(?:" WS "+(" NWS "+))?");
    return re;
}

// pprof's brief form: start-limit [perms] [file] [(@offset)] [build id].
const Regex &briefMapsLine()
{
    static const Regex re = bytesRegex(kHexRange + kPerm + "(?:" WS "+(" NWS "+))?(?:" WS
                                       "+\\(@([[:xdigit:]]+)\\))?(?:" WS "+([[:xdigit:]]+))?");
    return re;
}

// A glog prefix ("I0101 12:00:00.000 file.cc:12] "), taken off a memory map line.
const Regex &logPrefix()
{
    static const Regex re = bytesRegex("^[^\\[\\]]+:[0-9]+\\]" WS);
    return re;
}
#undef WS
#undef NWS

bool parseHex(std::string_view text, uint64_t *out)
{
    if (text.empty())
        return true;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out, 16);
    return ec == std::errc() && end == text.data() + text.size();
}

// Go's strings.NewReplacer(pairs...).Replace: left to right, at each position the first pair (in order) whose
// old string starts there.
std::string replaceAll(std::string_view line, const std::vector<std::pair<std::string, std::string>> &pairs)
{
    if (pairs.empty())
        return std::string(line);
    std::string out;
    for (size_t i = 0; i < line.size();) {
        bool replaced = false;
        for (const auto &[from, to] : pairs)
            if (line.substr(i, from.size()) == from) {
                out += to;
                i += from.size();
                replaced = true;
                break;
            }
        if (!replaced)
            out += line[i++];
    }
    return out;
}

// Whether `file` looks like a shared library ("x.so", "x.so.6", "x.so_1").
bool isLibrary(std::string_view file)
{
    for (size_t at = file.find(".so"); at != std::string_view::npos; at = file.find(".so", at + 1)) {
        const size_t after = at + 3;
        if (after == file.size())
            return true;
        if ((file[after] == '.' || file[after] == '_') && after + 1 < file.size() && file[after + 1] >= '0' &&
            file[after + 1] <= '9')
            return true;
    }
    return false;
}

}   // namespace

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && isSpace(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isSpace(s.back()))
        s.remove_suffix(1);
    return s;
}

bool isSpaceOrComment(std::string_view line)
{
    line = trimmed(line);
    return line.empty() || line.front() == '#';
}

bool isMemoryMapSentinel(std::string_view line)
{
    return line.find("--- Memory map: ---") != std::string_view::npos ||
           line.find("MAPPED_LIBRARIES:") != std::string_view::npos;
}

bool hexAddresses(std::string_view s, std::vector<uint64_t> *out)
{
    out->clear();
    for (size_t i = 0; i + 2 < s.size();) {
        if (s[i] != '0' || s[i + 1] != 'x' || !isLowerHex(s[i + 2])) {
            ++i;
            continue;
        }
        uint64_t v = 0;
        size_t j = i + 2;
        bool fits = true;
        for (; j < s.size() && isLowerHex(s[j]); ++j) {
            const unsigned digit = s[j] <= '9' ? unsigned(s[j] - '0') : unsigned(s[j] - 'a' + 10);
            if (v >> 60)
                fits = false;
            v = (v << 4) | digit;
        }
        if (!fits)
            return false;
        out->push_back(v);
        i = j;
    }
    return true;
}

Builder::Builder(std::string where, const ReadOptions &options, uint64_t inputBytes)
    : m_where(std::move(where)), m_budget(memoryBudget(options, inputBytes)), m_out(std::make_unique<Profile>())
{
    str("");
}

Builder::~Builder() = default;

void Builder::fail(const std::string &message) const
{
    throw ProfileError(m_where + message);
}

uint32_t Builder::str(std::string_view s)
{
    const auto [it, added] = m_strings.try_emplace(std::string(s), uint32_t(m_out->strings.size()));
    if (added)
        m_out->strings.push_back(s);
    return it->second;
}

void Builder::setTypes(std::initializer_list<std::pair<std::string_view, std::string_view>> types)
{
    m_out->sampleTypes.clear();
    for (const auto &[type, unit] : types)
        m_out->sampleTypes.push_back(ValueType{str(type), str(unit)});
    m_typeCount = types.size();
}

void Builder::setPeriod(std::string_view type, std::string_view unit, int64_t period)
{
    m_out->periodType = ValueType{str(type), str(unit)};
    m_out->period = period;
}

void Builder::setFrames(std::string_view drop, std::string_view keep)
{
    m_out->dropFrames = drop.empty() ? 0 : str(drop);
    m_out->keepFrames = keep.empty() ? 0 : str(keep);
}

uint32_t Builder::location(uint64_t address)
{
    const uint32_t h = hashOf(address);
    uint32_t found = m_byAddress.find(h, [&](uint32_t i) { return m_addresses[i] == address; });
    if (found != StackProfileBuilder::HashSlots::kMissing)
        return found;
    found = uint32_t(m_addresses.size());
    m_addresses.push_back(address);
    m_function.push_back(kNone);
    m_line.push_back(0);
    m_byAddress.insert(h, found);
    if ((found & 4095) == 0)
        checkMemory();
    return found;
}

uint32_t Builder::findLocation(uint64_t address) const
{
    const uint32_t found = m_byAddress.find(hashOf(address), [&](uint32_t i) { return m_addresses[i] == address; });
    return found == StackProfileBuilder::HashSlots::kMissing ? kNone : found;
}

void Builder::endSample(const int64_t *values, bool hasBytes, int64_t bytes)
{
    m_locs.insert(m_locs.end(), m_stack.begin(), m_stack.end());
    m_stack.clear();
    m_begin.push_back(m_locs.size());
    m_values.insert(m_values.end(), values, values + m_typeCount);
    m_bytes.push_back(hasBytes ? bytes : INT64_MIN);
    if ((m_begin.size() & 4095) == 0)
        checkMemory();
}

void Builder::checkMemory() const
{
    const uint64_t held = heldBytes(m_addresses) + heldBytes(m_function) + heldBytes(m_line) + m_byAddress.bytes() +
                          heldBytes(m_locs) + heldBytes(m_begin) + heldBytes(m_values) + heldBytes(m_bytes) +
                          heldBytes(m_out->strings) + heldBytes(m_out->functions);
    // The profile built at the end holds about as much again.
    if (2 * held > m_budget)
        fail("the profile takes more than " + std::to_string(m_budget) +
             " bytes in memory, more than the limit per byte of input (+64 MiB): no real profile has so many "
             "samples or addresses");
}

void Builder::removeDuplicateLeaves()
{
    removeFrame(1, [&](const uint32_t *stack) { return m_addresses[stack[0]] == m_addresses[stack[1]] + 1; });
}

void Builder::nameLocation(uint32_t location, std::string_view function, std::string_view file, int64_t line)
{
    const uint32_t h = hashOf(std::hash<std::string_view>()(function));
    uint32_t f = m_functionByName.find(h, [&](uint32_t i) { return m_out->str(m_out->functions[i].name) == function; });
    if (f == StackProfileBuilder::HashSlots::kMissing) {
        f = uint32_t(m_out->functions.size());
        Function fn;
        fn.id = f + 1;
        fn.name = fn.systemName = uint32_t(m_out->strings.size());
        m_out->strings.push_back(function);
        fn.filename = file.empty() ? 0 : str(file);
        m_out->functions.push_back(fn);
        m_functionByName.insert(h, f);
    }
    m_function[location] = f;
    m_line[location] = line;
}

void Builder::parseMemoryMap(std::string_view text)
{
    std::vector<std::pair<std::string, std::string>> attributes;   // "$name" -> value, from "name=value" lines
    forEachLine(text, [&](std::string_view raw) {
        const std::string replaced = replaceAll(raw, attributes);
        std::string_view line = replaced;
        if (const RegexMatch log = logPrefix().match(line); log.hasMatch())
            line.remove_prefix(log.capturedEnd());
        std::string_view start, limit, perm, file, offset, buildId;
        if (const RegexMatch m = procMapsLine().match(line); m.hasMatch()) {
            start = m.captured(1), limit = m.captured(2), perm = m.captured(3), offset = m.captured(4),
            file = m.captured(5);
        } else if (const RegexMatch b = briefMapsLine().match(line); b.hasMatch()) {
            start = b.captured(1), limit = b.captured(2), perm = b.captured(3), file = b.captured(4),
            offset = b.captured(5), buildId = b.captured(6);
        } else {
            const std::string_view plain = line;
            if (const size_t eq = plain.find('='); eq != std::string::npos) {
                std::string name(1, '$');   // (not "$" + string: GCC 12 warns of a false overlap)
                name.append(trimmed(plain.substr(0, eq)));
                attributes.emplace_back(std::move(name), std::string(trimmed(plain.substr(eq + 1))));
            }
            return true;
        }
        if (!perm.empty() && perm.find('x') == std::string_view::npos)
            return true;   // not executable: no code in it
        MapEntry e;
        if (!parseHex(start, &e.start) || !parseHex(limit, &e.limit) || !parseHex(offset, &e.offset))
            return true;   // does not fit 64 bits: skipped like any line that is not a mapping
        e.file = std::string(file);
        e.buildId = std::string(buildId);
        m_maps.push_back(std::move(e));
        return true;
    });
}

void Builder::massageMappings()
{
    // Adjacent pieces of one mapping (same file and build id where both say, offsets continuing) are one.
    if (m_maps.size() > 1) {
        std::vector<MapEntry> merged{m_maps.front()};
        for (size_t i = 1; i < m_maps.size(); ++i) {
            MapEntry &last = merged.back();
            const MapEntry &m = m_maps[i];
            const bool adjacent =
                (last.file.empty() || m.file.empty() || last.file == m.file) &&
                (last.buildId.empty() || m.buildId.empty() || last.buildId == m.buildId) && last.limit == m.start &&
                (last.offset == 0 || m.offset == 0 || last.offset + (last.limit - last.start) == m.offset);
            if (!adjacent) {
                merged.push_back(m);
                continue;
            }
            last.limit = m.limit;
            if (!m.file.empty())
                last.file = m.file;
            if (!m.buildId.empty())
                last.buildId = m.buildId;
        }
        m_maps = std::move(merged);
    }
    // The main binary first: the first mapping with a file that is neither a library nor "[vdso]"-like.
    for (size_t i = 0; i < m_maps.size(); ++i) {
        std::string file = m_maps[i].file;
        for (size_t at; (at = file.find("(deleted)")) != std::string::npos;)
            file.erase(at, 9);
        const std::string_view name = trimmed(file);
        if (name.empty() || isLibrary(name) || name.front() == '[')
            continue;
        std::swap(m_maps[0], m_maps[i]);
        break;
    }
    if (!m_maps.empty() && m_maps[0].file.rfind("/anon_hugepage", 0) == 0 && m_maps.size() > 1 &&
        m_maps[0].limit == m_maps[1].start)
        m_maps.erase(m_maps.begin());
    if (!m_maps.empty() && m_maps[0].start - m_maps[0].offset == 0x400000) {
        m_maps[0].start = 0x400000;
        m_maps[0].offset = 0;
    }
}

std::vector<uint32_t> Builder::locationsInOrderOfUse() const
{
    std::vector<uint32_t> order;
    std::vector<bool> seen(m_addresses.size());
    for (uint32_t l : m_locs)
        if (!seen[l]) {
            seen[l] = true;
            order.push_back(l);
        }
    return order;
}

std::shared_ptr<const Profile> Builder::build(const std::string &sourceName)
{
    checkMemory();
    massageMappings();
    Profile &p = *m_out;
    const std::vector<uint32_t> order = locationsInOrderOfUse();
    // Each location's mapping: the first that holds its address; else one whose offset says it began earlier
    // (its start moved back to there); else one mapping of everything, made once, without a file.
    std::vector<uint32_t> mappingOf(m_addresses.size(), kNone);
    uint32_t fake = kNone;
    for (uint32_t l : order) {
        const uint64_t a = m_addresses[l];
        if (a == 0 || m_function[l] != kNone)
            continue;   // Java frames that name a function have no address left
        for (size_t m = 0; m < m_maps.size() && mappingOf[l] == kNone; ++m)
            if (m_maps[m].start <= a && a < m_maps[m].limit)
                mappingOf[l] = uint32_t(m);
        for (size_t m = 0; m < m_maps.size() && mappingOf[l] == kNone; ++m)
            if (m_maps[m].offset != 0 && m_maps[m].start - m_maps[m].offset <= a && a < m_maps[m].start) {
                m_maps[m].start -= m_maps[m].offset;
                m_maps[m].offset = 0;
                mappingOf[l] = uint32_t(m);
            }
        if (mappingOf[l] == kNone) {
            if (fake == kNone) {
                fake = uint32_t(m_maps.size());
                m_maps.push_back(MapEntry{0, UINT64_MAX, 0, {}, {}});
            }
            mappingOf[l] = fake;
        }
    }
    // Only the mappings some location is in (go tool pprof's merge of its one profile drops the others).
    std::vector<uint32_t> mappingIndex(m_maps.size(), kNone);
    for (uint32_t l : order)
        if (mappingOf[l] != kNone)
            mappingIndex[mappingOf[l]] = 0;
    for (size_t m = 0; m < m_maps.size(); ++m) {
        if (mappingIndex[m] == kNone)
            continue;
        mappingIndex[m] = uint32_t(p.mappings.size());
        Mapping out;
        out.id = p.mappings.size() + 1;
        out.memoryStart = m_maps[m].start;
        out.memoryLimit = m_maps[m].limit;
        out.fileOffset = m_maps[m].offset;
        out.file = m_maps[m].file.empty() ? 0 : str(m_maps[m].file);
        out.buildId = m_maps[m].buildId.empty() ? 0 : str(m_maps[m].buildId);
        p.mappings.push_back(out);
    }
    // Locations in their order of first use. Java's are one per function and line (or one per mapping for the
    // frames the file does not name): pprof merges them so once their addresses are dropped.
    std::vector<uint32_t> newIndex(m_addresses.size(), kNone);
    std::vector<std::pair<uint64_t, uint64_t>> javaKeys;   // (function or kNone, line or mapping)
    for (uint32_t l : order) {
        if (m_dropAddresses) {
            const std::pair<uint64_t, uint64_t> key{m_function[l], m_function[l] == kNone ? mappingOf[l] : uint64_t(m_line[l])};
            const auto same = std::find(javaKeys.begin(), javaKeys.end(), key);
            if (same != javaKeys.end()) {
                newIndex[l] = uint32_t(same - javaKeys.begin());
                continue;
            }
            javaKeys.push_back(key);
        }
        Location loc;
        loc.id = p.locations.size() + 1;
        loc.mapping = mappingOf[l] == kNone ? kNone : mappingIndex[mappingOf[l]];
        loc.address = m_dropAddresses || m_function[l] != kNone ? 0 : m_addresses[l];
        loc.firstLine = uint32_t(p.lines.size());
        if (m_function[l] != kNone) {
            p.lines.push_back(Line{m_function[l], m_line[l], 0});
            loc.lineCount = 1;
        }
        newIndex[l] = uint32_t(p.locations.size());
        p.locations.push_back(loc);
    }
    const uint32_t bytesKey = str("bytes");
    p.sampleLocBegin.assign(1, 0);
    LabelSetTable labelSets(p);
    for (size_t s = 0; s + 1 < m_begin.size(); ++s) {
        for (uint64_t i = m_begin[s]; i < m_begin[s + 1]; ++i)
            p.sampleLocations.push_back(newIndex[m_locs[i]]);
        p.sampleLocBegin.push_back(locationPosition(p.sampleLocations.size()));
        const Label bytes{bytesKey, 0, m_bytes[s], 0};
        labelSets.setSampleSet(s, m_bytes[s] == INT64_MIN ? 0 : labelSets.intern({&bytes, 1}));
    }
    p.values = SampleValues(m_values);
    p.sourceName = sourceName;
    return std::shared_ptr<const Profile>(std::move(m_out));
}

}   // namespace qflame::legacy
