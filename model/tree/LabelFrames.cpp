#include "tree/LabelFrames.h"

#include "pprof/PprofLabels.h"
#include "tree/SampleFilter.h"

#include <algorithm>
#include <map>
#include <utility>

namespace qflame {

std::vector<std::string> labelKeyList(std::string_view text)
{
    std::vector<std::string> keys;
    size_t i = 0;
    while (i <= text.size()) {
        size_t j = text.find(',', i);
        if (j == std::string_view::npos)
            j = text.size();
        if (j > i)
            keys.emplace_back(text.substr(i, j - i));
        i = j + 1;
    }
    return keys;
}

std::string labelFrameName(const Profile &p, size_t sample, std::string_view key)
{
    // pprof keeps a sample's string values and numeric values of a key apart (Sample.Label, Sample.NumLabel) and
    // lists the strings first; a label with neither a string, a number nor a unit is no label at all.
    std::string strings, numbers;
    auto append = [](std::string &out, std::string_view v) {
        if (!out.empty())
            out += ',';
        out += v;
    };
    for (const Label &l : p.sampleLabels(sample)) {
        if (p.str(l.key) != key)
            continue;
        if (l.str != 0)
            append(strings, p.str(l.str));
        else if (l.num != 0 || l.numUnit != 0)
            append(numbers, pprofScaledLabel(l.num, p.str(l.numUnit)));
    }
    if (numbers.empty())
        return strings;
    if (strings.empty())
        return numbers;
    return strings + ',' + numbers;
}

std::shared_ptr<const Profile> withLabelFrames(const Profile &in, const std::vector<std::string> &rootKeys,
                                               const std::vector<std::string> &leafKeys)
{
    auto out = std::make_shared<Profile>(in);
    Profile &p = *out;
    uint64_t nextFunctionId = 1, nextLocationId = 1;
    for (const Function &f : p.functions)
        nextFunctionId = std::max(nextFunctionId, f.id + 1);
    for (const Location &l : p.locations)
        nextLocationId = std::max(nextLocationId, l.id + 1);
    std::map<std::string, uint32_t, std::less<>> strings;   // the strings this adds
    auto internString = [&](const std::string &s) {
        auto [it, added] = strings.try_emplace(s, uint32_t(p.strings.size()));
        if (added)
            p.strings.push_back(s);
        return it->second;
    };
    std::map<std::pair<std::string, std::string>, uint32_t> locations;   // (value text, key) -> location
    auto location = [&](std::string name, const std::string &key) {
        auto [it, added] = locations.try_emplace({std::move(name), key}, uint32_t(p.locations.size()));
        if (added) {
            Function f;
            f.id = nextFunctionId++;
            f.name = it->first.first.empty() ? 0 : internString(it->first.first);
            f.filename = internString(key);
            p.functions.push_back(f);
            Line line;
            line.function = uint32_t(p.functions.size() - 1);
            p.lines.push_back(line);
            Location loc;
            loc.id = nextLocationId++;
            loc.firstLine = uint32_t(p.lines.size() - 1);
            loc.lineCount = 1;
            p.locations.push_back(loc);
        }
        return it->second;
    };
    // A key's frame is the same for every sample of a label set: made once per set (-1: not yet).
    auto framesOfSets = [&](const std::vector<std::string> &keys) {
        return std::vector<std::vector<uint32_t>>(keys.size(), std::vector<uint32_t>(in.labelSetCount(), UINT32_MAX));
    };
    std::vector<std::vector<uint32_t>> leafFrames = framesOfSets(leafKeys), rootFrames = framesOfSets(rootKeys);
    auto frame = [&](std::vector<uint32_t> &ofSet, size_t sample, const std::string &key) {
        uint32_t &loc = ofSet[in.labelSetOf(sample)];
        if (loc == UINT32_MAX)
            loc = location(labelFrameName(in, sample, key), key);
        return loc;
    };
    LocationIndexes sampleLocations;
    std::vector<uint32_t> sampleLocBegin;
    sampleLocations.reserve(in.sampleLocations.size() + in.sampleCount() * (rootKeys.size() + leafKeys.size()));
    sampleLocBegin.reserve(in.sampleLocBegin.size());
    for (size_t s = 0; s < in.sampleCount(); ++s) {
        sampleLocBegin.push_back(locationPosition(sampleLocations.size()));
        // Leaf first, as stored: the last leaf key is innermost, then the others, the stack, and the root keys
        // from the last to the first, which ends outermost.
        for (size_t k = leafKeys.size(); k-- > 0;)
            sampleLocations.push_back(frame(leafFrames[k], s, leafKeys[k]));
        sampleLocations.append(in.sampleLocations, in.sampleLocBegin[s], in.sampleLocBegin[s + 1]);
        for (size_t k = rootKeys.size(); k-- > 0;)
            sampleLocations.push_back(frame(rootFrames[k], s, rootKeys[k]));
    }
    sampleLocBegin.push_back(locationPosition(sampleLocations.size()));
    if (in.sampleCount() == 0)
        sampleLocBegin = in.sampleLocBegin;
    p.sampleLocations = std::move(sampleLocations);
    p.sampleLocBegin = std::move(sampleLocBegin);
    return out;
}

std::vector<std::shared_ptr<const Profile>> withLabelFrames(const std::vector<std::shared_ptr<const Profile>> &profiles,
                                                            const SampleFilters &filters)
{
    if (!filters.addsLabelFrames())
        return profiles;
    const std::vector<std::string> root = labelKeyList(filters.tagRoot), leaf = labelKeyList(filters.tagLeaf);
    if (root.empty() && leaf.empty())
        return profiles;
    std::vector<std::shared_ptr<const Profile>> out;
    out.reserve(profiles.size());
    for (const auto &p : profiles)
        out.push_back(withLabelFrames(*p, root, leaf));
    return out;
}

}   // namespace qflame
