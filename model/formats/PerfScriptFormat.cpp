#include "formats/PerfScriptFormat.h"

#include "formats/PerfScriptLines.h"
#include "pprof/LabelSets.h"

#include "time/Timeline.h"

#include <charconv>
#include <optional>
#include <unordered_map>
#include <vector>

namespace qflame {

namespace {

using namespace perfscript;

struct NameHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
};

// Builds the Profile directly: strings, functions (one per name and source file), mappings (one per DSO),
// locations (one per address, mapping and lines) and samples, records with the same stack, labels and event summed
// into one sample so that memory follows the distinct stacks, not the records.
//
// perf --inline prints the inline stack of an address as frames of that address, innermost first, each but the
// outermost marked "(inlined)"; they become one location with a line per frame, as pprof stores inlining (and as
// go tool pprof then marks the inlined functions "(inline)"). perf names the innermost frame after the symbol
// when the line tables say so: a frame at the address right before an "(inlined)" one belongs to that stack too.
class PerfProfileBuilder {
public:
    PerfProfileBuilder(const std::string &sourceName, const ReadOptions &options)
        : m_source(sourceName), m_options(options)
    {
        str("");
        m_p.sampleLocBegin.push_back(0);
        m_commKey = str("comm"), m_pidKey = str("pid"), m_tidKey = str("tid");
    }

    void begin(const Header &h, size_t lineNo)
    {
        m_header = h;
        m_headerLine = lineNo;
        m_frames.clear();
        m_open = true;
    }
    bool open() const { return m_open; }

    // Java frames of perf-map-agent's unfolded inlining, "A->B->C" (A calls B, into which C is inlined), become
    // one address's inline stack, innermost first, as perf --inline prints one: C and B inlined, A the function.
    void frame(const Frame &f)
    {
        const std::string_view name = f.name;
        if (name.find("->") == std::string_view::npos || name.find_first_of("( ") != std::string_view::npos) {
            m_frames.push_back(f);
            return;
        }
        const size_t first = m_frames.size();
        for (size_t end = name.size();;) {
            const size_t arrow = end < 2 ? std::string_view::npos : name.rfind("->", end - 2);
            const size_t begin = arrow == std::string_view::npos ? 0 : arrow + 2;
            Frame part = f;
            part.name = name.substr(begin, end - begin);
            part.inlined = arrow != std::string_view::npos || f.inlined;
            if (part.inlined)
                part.dso = {};
            if (part.name.empty()) {   // "A->" or "->B": not a chain
                m_frames.resize(first);
                m_frames.push_back(f);
                return;
            }
            m_frames.push_back(part);
            if (arrow == std::string_view::npos)
                return;
            end = arrow;
        }
    }
    // The frame a srcline line belongs to: the record's last.
    Frame *lastFrame() { return m_open && !m_frames.empty() ? &m_frames.back() : nullptr; }

    void end()
    {
        if (!m_open)
            return;
        m_open = false;
        m_stack.clear();
        for (size_t i = 0; i < m_frames.size();) {
            size_t j = i;   // the frames [i, j] are one address's inline stack
            while (j + 1 < m_frames.size() && m_frames[j + 1].address == m_frames[j].address &&
                   (m_frames[j].inlined || (j == i && m_frames[j + 1].inlined)))
                ++j;
            m_stack.push_back(location(i, j));
            i = j + 1;
        }
        const uint32_t event = eventIndex();
        const uint32_t comm = m_header.comm.empty() ? 0 : str(m_header.comm);
        const int64_t pid = m_header.pid.value_or(-1), tid = m_header.tid.value_or(-1);
        uint64_t h = m_stack.size() * 0x9e3779b97f4a7c15ull ^ event;
        for (uint64_t v : {uint64_t(comm), uint64_t(pid), uint64_t(tid)})
            h = (h ^ v) * 0x9e3779b97f4a7c15ull + (h >> 29);
        for (uint32_t id : m_stack)
            h = (h ^ id) * 0x9e3779b97f4a7c15ull + (h >> 29);
        for (auto [it, last] = m_sampleOf.equal_range(h); it != last; ++it) {
            Sample &s = m_samples[it->second];
            if (s.event == event && s.comm == comm && s.pid == pid && s.tid == tid && sameStack(it->second)) {
                ++s.count;
                s.period = wrappingAdd(s.period, m_header.period.value_or(0));
                record(it->second);
                return;
            }
        }
        m_sampleOf.emplace(h, uint32_t(m_samples.size()));
        m_samples.push_back(Sample{event, comm, pid, tid, 1, m_header.period.value_or(0)});
        record(uint32_t(m_samples.size() - 1));
        const size_t labels = m_p.labels.size();
        if (comm)
            m_p.labels.push_back(Label{m_commKey, comm, 0, 0});
        if (m_header.pid)
            m_p.labels.push_back(Label{m_pidKey, 0, pid, 0});
        if (m_header.tid)
            m_p.labels.push_back(Label{m_tidKey, 0, tid, 0});
        m_labelSets.setSampleSet(m_p.sampleCount(), m_labelSets.closeAppended(labels));
        m_p.sampleLocations.append(m_stack.begin(), m_stack.end());
        m_p.sampleLocBegin.push_back(locationPosition(m_p.sampleLocations.size()));
    }

    // What is stored so far, with the hash tables' nodes, against the budget of ReadOptions::memoryPerInputByte.
    void checkMemory(size_t inputBytes, size_t lineNo) const
    {
        const uint64_t stored = m_p.strings.bytes() + 4 * (m_p.sampleLocations.size() + m_stack.capacity()) +
                                sizeof(Frame) * m_frames.capacity() + 48 * m_inlineLocations.size() +
                                4 * m_p.sampleLocBegin.size() +
                                24 * m_p.labels.size() + 8 * m_p.labelSetBegin.size() +
                                4 * m_p.sampleLabelSet.size() + m_labelSets.heldBytes() +
                                (sizeof(Location) + sizeof(Line) + 48) * m_p.locations.size() +
                                (sizeof(Function) + 48) * m_p.functions.size() +
                                (sizeof(Mapping) + 48) * m_p.mappings.size() + (sizeof(Sample) + 32) * m_samples.size() +
                                48 * m_strings.size() + m_timeline.bytes();
        const uint64_t budget = uint64_t(m_options.memoryPerInputByte) * inputBytes + (uint64_t(64) << 20);
        if (stored > budget)
            throw ProfileError(m_source + ": line " + std::to_string(lineNo) + ": the perf script input needs more than " +
                               std::to_string(m_options.memoryPerInputByte) +
                               " bytes of memory per byte read (the memoryPerInputByte limit): no real perf output is shaped so");
    }

    std::shared_ptr<const Profile> build()
    {
        if (m_samples.empty())
            throw ProfileError(m_source + ": no samples: the perf script input has no records");
        // One event: samples/count, then the event's periods when it prints them. Several (perf record -e a,b):
        // each event is a sample type of its own, never summed with another: EVENT counts its samples, or, when it
        // prints a period, sums the period and EVENT-samples counts its samples. The first event is the default,
        // as perf report and FlameGraph show it; --sample EVENT picks another.
        const bool several = m_events.size() > 1;
        std::vector<int> countColumn(m_events.size(), 0), periodColumn(m_events.size(), -1);
        if (!several)
            m_p.sampleTypes.push_back(ValueType{str("samples"), str("count")});
        for (size_t e = 0; e < m_events.size(); ++e) {
            const std::string name(m_p.strings[m_events[e].name]);
            if (several) {
                countColumn[e] = int(m_p.sampleTypes.size());
                m_p.sampleTypes.push_back(ValueType{m_events[e].hasPeriod ? str(name + "-samples") : m_events[e].name,
                                                    str("count")});
            }
            if (!m_events[e].hasPeriod)
                continue;
            periodColumn[e] = int(m_p.sampleTypes.size());
            const bool clock = name == "cpu-clock" || name == "task-clock";
            m_p.sampleTypes.push_back(ValueType{m_events[e].name, str(clock ? "nanoseconds" : "count")});
            if (several && e == 0)
                m_p.defaultSampleType = periodColumn[0];
        }
        if (several && periodColumn[0] < 0)
            m_p.defaultSampleType = countColumn[0];
        const size_t types = m_p.sampleTypes.size();
        if (types > m_options.maxSampleTypes)
            throw ProfileError(m_source + ": " + std::to_string(m_events.size()) + " events: more than the maxSampleTypes limit of " +
                               std::to_string(m_options.maxSampleTypes) + " sample types");
        m_p.values.resize(m_samples.size() * types);
        for (size_t i = 0; i < m_samples.size(); ++i) {
            const uint32_t e = m_samples[i].event;
            m_p.values.setWidening(i * types + size_t(countColumn[e]), m_samples[i].count);
            if (periodColumn[e] >= 0)
                m_p.values.setWidening(i * types + size_t(periodColumn[e]), m_samples[i].period);
        }
        // Each record's time, its period its own weight in the period types (time/Timeline.h); none when a
        // record has no time.
        std::vector<uint8_t> weighted(types, 0);
        for (int column : periodColumn)
            if (column >= 0)
                weighted[size_t(column)] = 1;
        if (!m_untimed) {
            // Wall-clock times from -F +tod, or from the time field itself with -k CLOCK_REALTIME.
            if (m_todOffset)
                m_timeline.setWallClock(true);
            m_p.timeline = m_timeline.wallClockIfEpoch().build(std::move(weighted));
        }
        m_p.comments.push_back(str("qflame: imported from perf script"));
        m_p.sourceName = m_source;
        return std::make_shared<Profile>(std::move(m_p));
    }

private:
    struct Sample {
        uint32_t event, comm;
        int64_t pid, tid, count, period;
    };
    struct Event {
        uint32_t name;
        bool hasPeriod;
    };
    struct LocKey {
        uint64_t address;
        uint32_t function, mapping;
        int64_t line;
        bool operator==(const LocKey &) const = default;
    };
    struct LocHash {
        size_t operator()(const LocKey &k) const
        {
            return std::hash<uint64_t>()((k.address * 0x9e3779b97f4a7c15ull ^ (uint64_t(k.function) << 32 | k.mapping)) +
                                         uint64_t(k.line) * 0xff51afd7ed558ccdull);
        }
    };

    // The location of the frames [first, last] of the record: one line each, innermost first. Its mapping is
    // the DSO printed on them (on the outermost; an inline stack whose outer frame perf did not print has none).
    uint32_t location(size_t first, size_t last)
    {
        uint32_t map = kNone;
        for (size_t k = first; k <= last; ++k)
            if (!m_frames[k].dso.empty())
                map = mapping(m_frames[k].dso);
        const uint64_t address = m_frames[first].address.value_or(0);
        m_lines.clear();
        for (size_t k = first; k <= last; ++k)
            m_lines.push_back(Line{function(m_frames[k].name, m_frames[k].file), m_frames[k].line, 0});
        uint32_t *found = nullptr;
        std::string key;
        if (first == last) {
            const LocKey k{address, m_lines[0].function, map, m_lines[0].line};
            auto [it, added] = m_locations.emplace(k, uint32_t(m_p.locations.size()));
            if (!added)
                return it->second;
            found = &it->second;
        } else {
            key.append(reinterpret_cast<const char *>(&address), sizeof address);
            key.append(reinterpret_cast<const char *>(&map), sizeof map);
            for (const Line &l : m_lines) {
                key.append(reinterpret_cast<const char *>(&l.function), sizeof l.function);
                key.append(reinterpret_cast<const char *>(&l.line), sizeof l.line);
            }
            auto [it, added] = m_inlineLocations.emplace(std::move(key), uint32_t(m_p.locations.size()));
            if (!added)
                return it->second;
            found = &it->second;
        }
        Location loc;
        loc.id = m_p.locations.size() + 1;
        loc.mapping = map;
        loc.address = address;
        loc.firstLine = uint32_t(m_p.lines.size());
        loc.lineCount = uint32_t(m_lines.size());
        m_p.lines.insert(m_p.lines.end(), m_lines.begin(), m_lines.end());
        m_p.locations.push_back(loc);
        if (map != kNone) {
            Mapping &m = m_p.mappings[map];
            m.hasInlineFrames = m.hasInlineFrames || m_lines.size() > 1;
            for (const Line &l : m_lines)
                if (l.line > 0)
                    m.hasFilenames = m.hasLineNumbers = true;
        }
        return *found;
    }

    uint32_t str(std::string_view s)
    {
        auto it = m_strings.find(s);
        if (it != m_strings.end())
            return it->second;
        const auto index = uint32_t(m_p.strings.size());
        m_p.strings.push_back(s);
        m_strings.emplace(std::string(s), index);
        return index;
    }

    uint32_t function(std::string_view name, std::string_view file)
    {
        const uint32_t s = str(name), filename = file.empty() ? 0 : str(file);
        auto [it, added] = m_functionOf.emplace(uint64_t(s) << 32 | filename, uint32_t(m_p.functions.size()));
        if (added) {
            Function f;
            f.id = m_p.functions.size() + 1;
            f.name = f.systemName = s;
            f.filename = filename;
            m_p.functions.push_back(f);
        }
        return it->second;
    }

    uint32_t mapping(std::string_view dso)
    {
        const uint32_t s = str(dso);
        auto [it, added] = m_mappingOf.emplace(s, uint32_t(m_p.mappings.size()));
        if (added) {
            Mapping m;
            m.id = m_p.mappings.size() + 1;
            m.file = s;
            m.hasFunctions = true;
            m_p.mappings.push_back(m);
        }
        return it->second;
    }

    // The event's index; an event printed with a period in one record and without in another has no one value.
    uint32_t eventIndex()
    {
        const uint32_t name = str(m_header.event);
        const bool hasPeriod = m_header.period.has_value();
        auto [it, added] = m_eventOf.emplace(name, uint32_t(m_events.size()));
        if (added)
            m_events.push_back(Event{name, hasPeriod});
        else if (m_events[it->second].hasPeriod != hasPeriod)
            throw ProfileError(m_source + ": line " + std::to_string(m_headerLine) + ": event '" +
                               std::string(m_header.event) + "' printed " + (hasPeriod ? "with" : "without") +
                               " a period here but " + (hasPeriod ? "without" : "with") + " one before");
        return it->second;
    }

    // The record's time and thread ("comm pid/tid", as perf prints them) for the timeline.
    void record(uint32_t sample)
    {
        // perf's clock, or (-F tod without time) the time of day; with both, the first record's tod sets the
        // offset from perf's clock to the wall clock, so a change of the zone's offset (summer time) moves nothing.
        // A clock and offset that add up to more than int64 holds (only made-up input has them) leave the
        // whole run untimed, as a record without a time does.
        const std::optional<int64_t> tod = m_header.tod.empty() ? std::nullopt : todEpochNanos(m_header.tod);
        if (m_timeline.size() == 0 && tod) {
            int64_t offset = 0;
            if (m_header.nanos && __builtin_sub_overflow(*tod, *m_header.nanos, &offset))
                m_untimed = true;
            m_todOffset = offset;
        }
        m_untimed = m_untimed || !(m_header.nanos || (tod && m_todOffset));
        int64_t nanos = tod.value_or(0);
        if (!m_untimed && m_header.nanos && __builtin_add_overflow(*m_header.nanos, m_todOffset.value_or(0), &nanos))
            m_untimed = true;
        if (m_untimed)
            return;
        if (sample + 1 == m_samples.size()) {
            std::string name(m_header.comm);
            if (m_header.tid)
                name += (name.empty() ? "" : " ") + (m_header.pid ? std::to_string(*m_header.pid) + "/" : std::string()) +
                        std::to_string(*m_header.tid);
            m_timeline.setSampleThread(sample, m_timeline.thread(name));
        }
        m_timeline.add(sample, nanos, m_header.period.value_or(0));
    }

    bool sameStack(uint32_t sample) const
    {
        const uint64_t b = m_p.sampleLocBegin[sample], e = m_p.sampleLocBegin[sample + 1];
        if (e - b != m_stack.size())
            return false;
        for (size_t k = 0; k < m_stack.size(); ++k)
            if (m_p.sampleLocations[b + k] != m_stack[k])
                return false;
        return true;
    }

    const std::string &m_source;
    const ReadOptions &m_options;
    Profile m_p;
    LabelSetTable m_labelSets{m_p};
    uint32_t m_commKey = 0, m_pidKey = 0, m_tidKey = 0;
    std::unordered_map<std::string, uint32_t, NameHash, std::equal_to<>> m_strings;
    std::unordered_map<uint64_t, uint32_t> m_functionOf;              // name and file strings -> index
    std::unordered_map<uint32_t, uint32_t> m_mappingOf, m_eventOf;   // string -> index
    std::unordered_map<LocKey, uint32_t, LocHash> m_locations;        // of one line
    std::unordered_map<std::string, uint32_t> m_inlineLocations;     // of several: address, mapping, lines
    std::vector<Frame> m_frames;                                      // the record's, innermost first
    std::vector<Line> m_lines;
    std::unordered_multimap<uint64_t, uint32_t> m_sampleOf;   // hash of stack, labels and event -> sample
    std::vector<Sample> m_samples;
    std::vector<Event> m_events;
    Header m_header;
    size_t m_headerLine = 0;
    std::vector<uint32_t> m_stack;   // innermost first, as perf prints and pprof stores
    bool m_open = false;
    TimelineBuilder m_timeline;
    bool m_untimed = false;   // a record without a time: no timeline
    std::optional<int64_t> m_todOffset;   // the first record's tod less its time: perf's clock to the wall clock
};

std::string_view withoutBom(std::string_view text)
{
    if (text.substr(0, 3) == "\xEF\xBB\xBF")
        text.remove_prefix(3);
    return text;
}

std::string quoted(std::string_view line)
{
    return "'" + std::string(line.substr(0, 80)) + (line.size() > 80 ? "...'" : "'");
}

}   // namespace

bool looksLikePerfScript(std::string_view text)
{
    bool result = false;
    forEachLine(withoutBom(text.substr(0, 64 * 1024)), [&](size_t, std::string_view line, size_t) {
        if (isBlankLine(line) || line.front() == '#')
            return true;
        for (char c : line)   // binary data (a raw pprof) is never taken for text
            if (static_cast<unsigned char>(c) < 0x20 && c != '\t')
                return false;
        Header h;
        result = parseHeader(line.front() == ' ' ? trimmed(line) : line, &h) && (!h.comm.empty() || h.tid);
        return false;
    });
    return result;
}

std::shared_ptr<const Profile> readPerfScript(std::string_view text, const std::string &sourceName,
                                              const ReadOptions &options)
{
    text = withoutBom(text);
    PerfProfileBuilder builder(sourceName, options);
    Header h;
    size_t records = 0, frames = 0;
    const auto afterHeader = [&](size_t lineNo, size_t consumed) {
        if (++records % 4096 == 0) {
            builder.checkMemory(consumed, lineNo);
            if (options.progress && !options.progress(double(consumed) / double(text.size())))
                throw Cancelled();
        }
        return true;
    };
    forEachLine(text, [&](size_t lineNo, std::string_view line, size_t consumed) {
        if (isBlankLine(line)) {
            builder.end();
            return true;
        }
        // perf indents call-graph frames with a tab, and pads comm with spaces when a record has no call graph
        // (its frame is on the header line): a space-indented line is a header when it reads as one.
        if (line.front() == ' ' && parseHeader(trimmed(line), &h)) {
            builder.end();
            builder.begin(h, lineNo);
            if (!h.rest.empty())
                builder.frame(parseFrame(h.rest));
            return afterHeader(lineNo, consumed);
        }
        // A srcline below a frame (or below a header's frame): spaces, not perf's tab, and FILE:LINE.
        if (line.front() == ' ' && builder.lastFrame() && parseSrcline(line, builder.lastFrame()))
            return true;
        if (isBlank(line.front())) {
            if (!builder.open())
                throw ProfileError(sourceName + ": line " + std::to_string(lineNo) +
                                   ": not perf script: a stack frame outside a sample record, got " + quoted(line));
            builder.frame(parseFrame(line));
            if (++frames % 65536 == 0)
                builder.checkMemory(consumed, lineNo);
            return true;
        }
        if (line.front() == '#')
            return true;
        // Some tools write a record's frames without perf's indentation ("IP SYM (DSO)" at the line's start), as
        // FlameGraph and inferno read them: inside a record, a line that is no header but starts with an address.
        if (builder.open() && !parseHeader(line, &h) && startsWithAddress(line)) {
            builder.frame(parseFrame(line));
            return true;
        }
        builder.end();
        if (!parseHeader(line, &h))
            throw ProfileError(sourceName + ": line " + std::to_string(lineNo) +
                               ": not a perf script sample header: expected 'COMM PID[/TID] [CPU] TIME: [PERIOD] "
                               "EVENT:', got " + quoted(line));
        builder.begin(h, lineNo);
        if (!h.rest.empty())
            builder.frame(parseFrame(h.rest));
        return afterHeader(lineNo, consumed);
    });
    builder.end();
    builder.checkMemory(text.size(), 0);
    return builder.build();
}

}   // namespace qflame
