#include "pgo/PgoTrim.h"

#include "export/ProfileWriter.h"
#include "formats/ProfileInput.h"
#include "io/ReadOptions.h"
#include "pgo/PgoEdges.h"
#include "pprof/SampleTypes.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

namespace qflame {

namespace {

// Builds the trimmed profile: strings, functions and locations interned by value, so that the same function or
// location in several merged files is one entry (the compiler identifies nodes by value too).
class TrimmedBuilder {
public:
    TrimmedBuilder() : m_out(std::make_shared<Profile>()) { m_out->strings.push_back(""); }

    uint32_t string(std::string_view s)
    {
        auto [it, inserted] = m_strings.try_emplace(std::string(s), uint32_t(m_out->strings.size()));
        if (inserted)
            m_out->strings.push_back(s);
        return it->second;
    }

    // The location `loc` of `p`, as an index into the output's locations.
    uint32_t location(const Profile &p, const Location &loc)
    {
        std::vector<Line> lines;
        for (uint32_t k = 0; k < loc.lineCount; ++k) {
            const Line &line = p.lines[loc.firstLine + k];
            lines.push_back(Line{line.function == kNone ? kNone : function(p, p.functions[line.function]),
                                 line.line, 0});   // the column is no part of the compiler's node
        }
        auto key = std::make_pair(loc.address, lines);
        auto it = m_locations.find(key);
        if (it != m_locations.end())
            return it->second;
        const uint32_t index = uint32_t(m_out->locations.size());
        Location out;
        out.id = index + 1;
        out.address = loc.address;
        out.firstLine = uint32_t(m_out->lines.size());
        out.lineCount = uint32_t(lines.size());
        m_out->lines.insert(m_out->lines.end(), lines.begin(), lines.end());
        m_out->locations.push_back(out);
        m_locations.emplace(std::move(key), index);
        return index;
    }

    Profile &out() { return *m_out; }
    std::shared_ptr<Profile> take() { return std::move(m_out); }

private:
    uint32_t function(const Profile &p, const Function &f)
    {
        const auto key = std::make_tuple(string(p.str(f.name)), string(p.str(f.systemName)),
                                         string(p.str(f.filename)), f.startLine);
        auto [it, inserted] = m_functions.try_emplace(key, uint32_t(m_out->functions.size()));
        if (inserted) {
            auto [name, systemName, filename, startLine] = key;
            m_out->functions.push_back(Function{it->second + 1ull, name, systemName, filename, startLine});
        }
        return it->second;
    }

    struct LineLess {
        bool operator()(const Line &a, const Line &b) const
        {
            return std::tie(a.function, a.line) < std::tie(b.function, b.line);
        }
    };
    struct LocationLess {
        bool operator()(const std::pair<uint64_t, std::vector<Line>> &a,
                        const std::pair<uint64_t, std::vector<Line>> &b) const
        {
            if (a.first != b.first)
                return a.first < b.first;
            return std::lexicographical_compare(a.second.begin(), a.second.end(), b.second.begin(), b.second.end(),
                                                LineLess());
        }
    };

    std::shared_ptr<Profile> m_out;
    std::unordered_map<std::string, uint32_t> m_strings;
    std::map<std::tuple<uint32_t, uint32_t, uint32_t, int64_t>, uint32_t> m_functions;
    std::map<std::pair<uint64_t, std::vector<Line>>, uint32_t, LocationLess> m_locations;
};


}   // namespace

std::shared_ptr<Profile> trimForPgo(const std::vector<std::shared_ptr<const Profile>> &profiles)
{
    TrimmedBuilder b;
    Profile &out = b.out();
    out.sampleLocBegin.push_back(0);
    if (profiles.empty())
        return b.take();
    const Profile &first = *profiles.front();
    if (pgoSampleTypeIndex(first) < 0)
        computePgoEdges(profiles);   // throws the compiler's complaint, worded once, there

    // The kept types, in the first file's order; a later file may lack one of them (not the one the compiler
    // uses: computePgoEdges has checked that), whose values are then 0.
    std::vector<std::pair<std::string, std::string>> kept;
    for (size_t i = 0; i < first.sampleTypes.size(); ++i) {
        const std::string type = first.typeName(i), unit = first.unitName(i);
        if ((type == "samples" && unit == "count") || (type == "cpu" && unit == "nanoseconds"))
            kept.emplace_back(type, unit);
    }
    for (const auto &[type, unit] : kept)
        out.sampleTypes.push_back(ValueType{b.string(type), b.string(unit)});
    const size_t nTypes = kept.size();

    // The header as pprof's merge combines it: the earliest time, the summed duration, the largest period.
    out.periodType = ValueType{b.string(first.str(first.periodType.type)), b.string(first.str(first.periodType.unit))};
    for (const auto &pp : profiles) {
        if (pp->timeNanos != 0 && (out.timeNanos == 0 || pp->timeNanos < out.timeNanos))
            out.timeNanos = pp->timeNanos;
        out.durationNanos = wrappingAdd(out.durationNanos, pp->durationNanos);
        out.period = std::max(out.period, pp->period);
    }

    std::map<std::pair<uint32_t, uint32_t>, size_t> sampleOf;   // (leaf, caller or kNone) -> output sample
    for (const auto &pp : profiles) {
        const Profile &p = *pp;
        std::vector<int> typeIndex;
        for (const auto &[type, unit] : kept)
            typeIndex.push_back(findExactSampleType(p, type, unit));
        std::vector<uint32_t> locationMap(p.locations.size(), kNone);   // built as the samples meet them
        auto mapped = [&](uint32_t loc) {
            if (locationMap[loc] == kNone)
                locationMap[loc] = b.location(p, p.locations[loc]);
            return locationMap[loc];
        };
        for (size_t s = 0; s < p.sampleCount(); ++s) {
            const uint64_t begin = p.sampleLocBegin[s], end = p.sampleLocBegin[s + 1];
            bool anyValue = false;
            for (int t : typeIndex)
                anyValue = anyValue || (t >= 0 && p.value(s, size_t(t)) != 0);
            if (begin == end || !anyValue)
                continue;
            const uint32_t leaf = mapped(p.sampleLocations[begin]);
            const uint32_t caller = end - begin >= 2 ? mapped(p.sampleLocations[begin + 1]) : kNone;
            auto [it, inserted] = sampleOf.try_emplace({leaf, caller}, out.sampleCount());
            if (inserted) {
                out.sampleLocations.push_back(leaf);
                if (caller != kNone)
                    out.sampleLocations.push_back(caller);
                out.sampleLocBegin.push_back(locationPosition(out.sampleLocations.size()));
                out.values.resize(out.values.size() + nTypes);
            }
            for (size_t k = 0; k < nTypes; ++k)
                if (typeIndex[k] >= 0) {
                    const size_t at = it->second * nTypes + k;
                    out.values.setWidening(at, wrappingAdd(out.values[at], p.value(s, size_t(typeIndex[k]))));
                }
        }
    }
    out.sourceName = first.sourceName + (profiles.size() > 1 ? " (and " + std::to_string(profiles.size() - 1) +
                                                                   " more), trimmed for go build -pgo"
                                                             : ", trimmed for go build -pgo");
    return b.take();
}

PgoTrimmedFile encodeTrimmedForPgo(const std::vector<std::shared_ptr<const Profile>> &profiles)
{
    const PgoEdges before = computePgoEdges(profiles);
    const std::shared_ptr<const Profile> trimmed = trimForPgo(profiles);
    PgoTrimmedFile file;
    file.pprofBytes = encodePprof(*trimmed);
    file.gzipBytes = gzipCompress(file.pprofBytes);
    file.edges = before.edges.size();
    // Read back as the compiler would get it: the promise is the identical edge list, so it is checked, not hoped.
    const PgoEdges after = computePgoEdges({readPprof(file.gzipBytes, trimmed->sourceName, ReadOptions{})});
    if (after.edges != before.edges || after.totalWeight != before.totalWeight)
        throw std::logic_error("the profile trimmed for go build -pgo gives other edges than its input (a bug in "
                               "qflame)");
    return file;
}

}   // namespace qflame
