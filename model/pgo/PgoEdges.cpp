#include "pgo/PgoEdges.h"

#include "io/ReadOptions.h"
#include "pprof/SampleTypes.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <tuple>
#include <unordered_map>

namespace qflame {

namespace {

// internal/profile's NodeInfo as the compiler fills it: the node's identity is this value, not the location.
struct NodeKey {
    uint64_t address = 0;
    std::string name;
    int64_t startLine = 0;
    int64_t line = 0;
    bool operator==(const NodeKey &) const = default;
};

struct NodeKeyHash {
    size_t operator()(const NodeKey &k) const
    {
        size_t h = std::hash<std::string>()(k.name);
        for (uint64_t v : {k.address, uint64_t(k.startLine), uint64_t(k.line)})
            h = (h ^ std::hash<uint64_t>()(v)) * 0x100000001b3ull;
        return h;
    }
};

// Every node met so far, across the merged profiles, by value.
class NodeTable {
public:
    uint32_t intern(NodeKey key)
    {
        auto [it, inserted] = m_ids.try_emplace(std::move(key), uint32_t(m_nodes.size()));
        if (inserted)
            m_nodes.push_back(&it->first);   // unordered_map keeps its elements in place
        return it->second;
    }
    const NodeKey &node(uint32_t id) const { return *m_nodes[id]; }

private:
    std::unordered_map<NodeKey, uint32_t, NodeKeyHash> m_ids;
    std::vector<const NodeKey *> m_nodes;
};

// The nodes of each location of `p`, outermost inline frame first (Line[last] .. Line[0]).
std::vector<std::vector<uint32_t>> locationNodes(const Profile &p, NodeTable &table)
{
    std::vector<std::vector<uint32_t>> nodes(p.locations.size());
    for (size_t i = 0; i < p.locations.size(); ++i) {
        const Location &loc = p.locations[i];
        if (loc.lineCount == 0) {
            nodes[i].push_back(table.intern(NodeKey{loc.address, {}, 0, 0}));
            continue;
        }
        for (uint32_t k = loc.lineCount; k-- > 0;) {
            const Line &line = p.lines[loc.firstLine + k];
            if (line.function == kNone) {
                nodes[i].push_back(table.intern(NodeKey{loc.address, {}, 0, 0}));
                continue;
            }
            const Function &f = p.functions[line.function];
            nodes[i].push_back(table.intern(NodeKey{loc.address, std::string(p.str(f.name)), f.startLine, line.line}));
        }
    }
    return nodes;
}

}   // namespace

int pgoSampleTypeIndex(const Profile &profile)
{
    // samples/count is what the profiler counted; cpu/nanoseconds is the same scaled by the period.
    const int count = findExactSampleType(profile, "samples", "count");
    return count >= 0 ? count : findExactSampleType(profile, "cpu", "nanoseconds");
}

double pgoPercent(int64_t value, int64_t total)
{
    return (double(value) / double(total)) * 100;   // this order of operations, as the compiler rounds
}

size_t markHotEdges(std::vector<PgoEdge> &edges, int64_t totalWeight, double threshold)
{
    const size_t hot = hotEdgeCount(edges, totalWeight, threshold);
    for (size_t i = 0; i < edges.size(); ++i)
        edges[i].hot = i < hot;
    return hot;
}

size_t hotEdgeCount(const std::vector<PgoEdge> &edges, int64_t totalWeight, double threshold)
{
    // Threshold 0: the first edge's share is above 0, so it alone is hot. Threshold 100: a share never exceeds
    // 100 (the cumulative weight reaches the total only at the last edge, where the share is exactly 100), so no
    // edge crosses and, as in the compiler, every edge is hot.
    size_t hot = edges.size();
    int64_t cum = 0;
    for (size_t i = 0; i < edges.size(); ++i) {
        cum = wrappingAdd(cum, edges[i].weight);
        if (pgoPercent(cum, totalWeight) > threshold) {
            hot = i + 1;   // the crossing edge itself is hot
            break;
        }
    }
    return hot;
}

std::vector<int64_t> cumulativeWeights(const std::vector<PgoEdge> &edges)
{
    std::vector<int64_t> cum;
    cum.reserve(edges.size());
    int64_t sum = 0;
    for (const PgoEdge &e : edges)
        cum.push_back(sum = wrappingAdd(sum, e.weight));
    return cum;
}

std::string pgoShareText(double percent)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f%%", percent);
    return buf;
}

PgoEdges computePgoEdges(const std::vector<std::shared_ptr<const Profile>> &profiles, double threshold)
{
    PgoEdges result;
    if (profiles.empty())
        return result;
    const Profile &first = *profiles.front();
    const int firstType = pgoSampleTypeIndex(first);
    if (firstType < 0)
        throw ProfileError(first.sourceName + ": no samples/count or cpu/nanoseconds sample type: go build -pgo "
                           "rejects this profile; it has: " + sampleTypeList(first));
    const std::string type = first.typeName(size_t(firstType)), unit = first.unitName(size_t(firstType));
    result.sampleType = type + "/" + unit;

    NodeTable table;
    std::unordered_map<uint64_t, int64_t> nodeEdges;   // (caller << 32 | callee) -> weight
    std::vector<uint32_t> walk;
    std::vector<uint64_t> seen;   // the node edges already counted for this sample: a handful at most
    for (const auto &profilePtr : profiles) {
        const Profile &p = *profilePtr;
        const int typeIndex = findExactSampleType(p, type, unit);
        if (typeIndex < 0)
            throw ProfileError(p.sourceName + ": no " + result.sampleType + " sample type, which " + first.sourceName +
                               " uses: profiles merged for go build -pgo must share it; it has: " + sampleTypeList(p));
        const auto nodesOf = locationNodes(p, table);
        for (size_t s = 0; s < p.sampleCount(); ++s) {
            const int64_t w = p.value(s, size_t(typeIndex));
            const uint64_t begin = p.sampleLocBegin[s], end = p.sampleLocBegin[s + 1];
            if (w == 0 || begin == end)
                continue;
            walk.clear();
            // The last two physical frames only: higher up, edges rarely repeat calls (the compiler's comment:
            // runtime.main calling main.main), and without a branch profile their weight would mislead.
            for (uint64_t k = std::min<uint64_t>(end - begin, 2); k-- > 0;) {
                const auto &nodes = nodesOf[p.sampleLocations[begin + k]];
                walk.insert(walk.end(), nodes.begin(), nodes.end());
            }
            seen.clear();
            for (size_t i = 1; i < walk.size(); ++i) {
                if (walk[i] == walk[i - 1])
                    continue;
                const uint64_t key = uint64_t(walk[i - 1]) << 32 | walk[i];
                if (std::find(seen.begin(), seen.end(), key) != seen.end())
                    continue;
                seen.push_back(key);
                nodeEdges[key] = wrappingAdd(nodeEdges[key], w);
            }
            for (uint32_t n : walk)
                result.hasStartLines = result.hasStartLines || table.node(n).startLine != 0;
        }
    }

    std::map<std::tuple<std::string, std::string, int64_t>, int64_t> named;
    for (const auto &[key, weight] : nodeEdges) {
        const NodeKey &caller = table.node(uint32_t(key >> 32)), &callee = table.node(uint32_t(key));
        int64_t &sum = named[{caller.name, callee.name, caller.line - caller.startLine}];
        sum = wrappingAdd(sum, weight);
        result.totalWeight = wrappingAdd(result.totalWeight, weight);
    }
    if (result.totalWeight == 0)
        return result;   // the compiler accepts such a profile and ignores it: no edges
    result.edges.reserve(named.size());
    for (auto &[key, weight] : named) {
        auto &[caller, callee, offset] = key;
        result.edges.push_back(PgoEdge{caller, callee, offset, weight, false});
        if (caller.empty() || callee.empty())
            ++result.unnamedEdges, result.unnamedWeight = wrappingAdd(result.unnamedWeight, weight);
    }
    // `named` is already in (caller, callee, offset) order, so a stable sort by weight gives the full order.
    std::stable_sort(result.edges.begin(), result.edges.end(),
                     [](const PgoEdge &a, const PgoEdge &b) { return a.weight > b.weight; });
    result.hotCount = markHotEdges(result.edges, result.totalWeight, threshold);
    return result;
}

}   // namespace qflame
