#include "source/LineCosts.h"

#include "io/ReadOptions.h"
#include "tree/FrameTable.h"
#include "tree/PprofRegex.h"

#include <algorithm>
#include <unordered_map>

namespace qflame {

namespace {

int sameType(const Profile &p, const std::string &type, const std::string &unit)
{
    for (size_t i = 0; i < p.sampleTypes.size(); ++i)
        if (p.typeName(i) == type && p.unitName(i) == unit)
            return int(i);
    return -1;
}

struct NodeKey {
    uint32_t function = 0;   // index into the name list
    uint32_t file = 0;       // index into the file list
    int64_t line = 0;
    bool operator==(const NodeKey &) const = default;
};

struct NodeKeyHash {
    size_t operator()(const NodeKey &k) const
    {
        return (size_t(k.function) * 0x9E3779B97F4A7C15ull) ^ (size_t(k.file) << 20) ^ size_t(k.line);
    }
};

template <typename Key, typename Map>
uint32_t intern(Map &ids, std::vector<Key> &list, const Key &key)
{
    auto [it, inserted] = ids.try_emplace(key, uint32_t(list.size()));
    if (inserted)
        list.push_back(key);
    return it->second;
}

}   // namespace

LineCosts computeLineCosts(const std::vector<std::shared_ptr<const Profile>> &profiles, size_t sampleType,
                           const Regex &functions,
                           const std::function<std::string(const std::string &)> &displayPath)
{
    LineCosts out;
    if (profiles.empty())
        return out;
    const Profile &first = *profiles.front();
    out.sampleType = first.typeName(sampleType);
    out.unit = first.unitName(sampleType);

    std::unordered_map<std::string, uint32_t> nameIds, fileIds;
    std::vector<std::string> names, files;
    std::unordered_map<NodeKey, uint32_t, NodeKeyHash> nodeIds;
    std::vector<NodeKey> nodes;
    std::vector<LineCost> costs;
    std::vector<uint32_t> stack;
    constexpr uint32_t kUnmatched = UINT32_MAX;

    for (const auto &pp : profiles) {
        const Profile &p = *pp;
        const int t = sameType(p, out.sampleType, out.unit);
        if (t < 0)
            throw ProfileError(p.sourceName + ": no " + out.sampleType + "/" + out.unit + " sample type, which " +
                               first.sourceName + " is listed in");
        // Per function of this profile: its name's id when the regex matches it, and its file's id.
        std::vector<uint32_t> fnName(p.functions.size(), kUnmatched), fnFile(p.functions.size(), 0);
        for (size_t f = 0; f < p.functions.size(); ++f) {
            const std::string name(p.str(p.functions[f].name));
            if (name.empty() || !pprofMatch(functions, name))
                continue;
            fnName[f] = intern(nameIds, names, name);
            const std::string raw(p.str(p.functions[f].filename));
            const std::string shown = raw.empty() ? std::string() : cleanPath(displayPath ? displayPath(raw) : raw);
            fnFile[f] = intern(fileIds, files, shown);
        }
        // Per line of the profile: its node, or kUnmatched.
        std::vector<uint32_t> lineNode(p.lines.size(), kUnmatched);
        for (size_t l = 0; l < p.lines.size(); ++l) {
            const Line &line = p.lines[l];
            if (line.function == kNone || fnName[line.function] == kUnmatched)
                continue;
            const NodeKey key{fnName[line.function], fnFile[line.function], line.line};
            lineNode[l] = intern(nodeIds, nodes, key);
            if (costs.size() < nodes.size())
                costs.resize(nodes.size());
        }
        for (size_t s = 0; s < p.sampleCount(); ++s) {
            const int64_t w = p.value(s, size_t(t));
            out.total = wrappingAdd(out.total, w < 0 ? int64_t(0 - uint64_t(w)) : w);
            const uint64_t begin = p.sampleLocBegin[s], end = p.sampleLocBegin[s + 1];
            if (w == 0 || begin == end)
                continue;
            stack.clear();
            for (uint64_t k = begin; k < end; ++k) {
                const Location &loc = p.locations[p.sampleLocations[k]];
                for (uint32_t i = 0; i < loc.lineCount; ++i)
                    if (lineNode[loc.firstLine + i] != kUnmatched)
                        stack.push_back(lineNode[loc.firstLine + i]);
            }
            // The leaf: the innermost line of the first location, whatever its function.
            const Location &leaf = p.locations[p.sampleLocations[begin]];
            if (leaf.lineCount > 0 && lineNode[leaf.firstLine] != kUnmatched)
                costs[lineNode[leaf.firstLine]].flat = wrappingAdd(costs[lineNode[leaf.firstLine]].flat, w);
            std::sort(stack.begin(), stack.end());
            stack.erase(std::unique(stack.begin(), stack.end()), stack.end());
            for (uint32_t n : stack)
                costs[n].cum = wrappingAdd(costs[n].cum, w);
        }
    }

    // Gather by function name, then file; nodes without any value are not in pprof's graph.
    std::map<std::string, std::map<std::string, FileLineCosts>> byName;
    for (size_t n = 0; n < nodes.size(); ++n) {
        if (costs[n].flat == 0 && costs[n].cum == 0)
            continue;
        auto &perFile = byName[names[nodes[n].function]];
        const std::string &file = files[nodes[n].file];
        FileLineCosts &f = perFile[file];
        f.file = file;
        if (file.empty())
            continue;   // counted for the function's presence, listed as "no source information"
        LineCost &c = f.lines[nodes[n].line];
        c.flat = wrappingAdd(c.flat, costs[n].flat);
        c.cum = wrappingAdd(c.cum, costs[n].cum);
        f.flat = wrappingAdd(f.flat, costs[n].flat);
        f.cum = wrappingAdd(f.cum, costs[n].cum);
    }
    for (auto &[name, perFile] : byName) {
        FunctionLineCosts fn;
        fn.name = name;
        for (auto &[file, costsOfFile] : perFile)
            if (!file.empty())
                fn.files.push_back(std::move(costsOfFile));
        out.functions.push_back(std::move(fn));
    }
    return out;
}

}   // namespace qflame
