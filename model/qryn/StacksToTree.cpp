#include "qryn/StacksToTree.h"

#include "formats/StackProfile.h"
#include "io/ReadOptions.h"
#include "tree/CallTreeBuilder.h"
#include "tree/FlatTable.h"

#include <unordered_map>
#include <string_view>

namespace qflame::qryn {

std::shared_ptr<const Profile> stacksToProfile(const StackSet &stacks, const StackProfileSpec &spec,
                                               const std::string &sourceName)
{
    std::vector<StackProfileBuilder::SampleType> types;
    for (const SampleTypeInfo &t : spec.sampleTypes)
        types.push_back({t.type, t.unit});
    StackProfileBuilder builder(std::move(types));
    if (!spec.periodType.type.empty())
        builder.setPeriod({spec.periodType.type, spec.periodType.unit}, spec.period);
    builder.setDurationNanos(spec.durationNanos);
    std::vector<uint64_t> locationOf(stacks.names.size(), 0);   // per name index, looked up once
    std::vector<uint64_t> ids;
    for (size_t i = 0; i < stacks.stacks.size(); ++i) {
        ids.clear();
        const std::vector<uint32_t> &rootFirst = stacks.stacks[i];
        for (size_t k = rootFirst.size(); k-- > 0;) {   // leaf first
            uint64_t &id = locationOf[rootFirst[k]];
            if (id == 0)   // the names are the flamegraph's list: one location each, made on first use
                id = builder.addLocation(stacks.names[rootFirst[k]]);
            ids.push_back(id);
        }
        builder.appendStackIds(ids, stacks.values[i]);   // one stack per node, or per distinct merged path
    }
    return builder.build(sourceName);
}

StackProfileSpec specFor(const ProfileType &type)
{
    StackProfileSpec spec;
    spec.sampleTypes = {{type.sampleType.toStdString(), type.sampleUnit.toStdString()}};
    spec.periodType = {type.periodType.toStdString(), type.periodUnit.toStdString()};
    return spec;
}

std::shared_ptr<const Profile> flamegraphToProfile(const Flamegraph &graph, const ProfileType &type,
                                                   int64_t durationNanos, const std::string &sourceName,
                                                   QString *why, uint64_t answerBytes)
{
    std::vector<FlameNode> nodes;
    if (!decodeLevels(graph.levels, graph.names.size(), kSingleLayout, &nodes, why))
        return nullptr;
    StackProfileSpec spec = specFor(type);
    spec.durationNanos = durationNanos;
    StackSet stacks;
    const uint64_t maxFrames = answerBytes ? memoryBudget(ReadOptions{}, answerBytes) / 8 : UINT64_MAX;
    if (!stacksFromNodes(nodes, graph.names, maxFrames, &stacks, why))
        return nullptr;
    std::vector<FlameNode>().swap(nodes);
    return stacksToProfile(stacks, spec, sourceName);
}

std::shared_ptr<const Profile> flamegraphsToProfile(const std::vector<Flamegraph> &graphs,
                                                    const std::vector<ProfileType> &types, int64_t durationNanos,
                                                    const std::string &sourceName, QString *why)
{
    StackProfileSpec spec;
    for (const ProfileType &t : types)
        spec.sampleTypes.push_back({t.sampleType.toStdString(), t.sampleUnit.toStdString()});
    if (!types.empty())
        spec.periodType = {types[0].periodType.toStdString(), types[0].periodUnit.toStdString()};
    spec.durationNanos = durationNanos;
    // Stacks keyed by merged name indexes in hash maps: two 400,000-node graphs are as many stacks each.
    struct PathHash {
        size_t operator()(const std::vector<uint32_t> &path) const
        {
            uint64_t h = path.size();
            for (uint32_t n : path)
                h = (h ^ n) * 0x9e3779b97f4a7c15ull + (h >> 29);
            return size_t(h);
        }
    };
    StackSet merged;
    std::unordered_map<std::vector<uint32_t>, size_t, PathHash> stackIndex;
    std::unordered_map<std::string, uint32_t> nameIndex;
    for (size_t g = 0; g < graphs.size(); ++g) {
        std::vector<FlameNode> nodes;
        if (!decodeLevels(graphs[g].levels, graphs[g].names.size(), kSingleLayout, &nodes, why))
            return nullptr;
        const StackSet one = stacksFromNodes(nodes, graphs[g].names);
        std::vector<uint32_t> mergedName(one.names.size());
        for (size_t n = 0; n < one.names.size(); ++n) {
            auto [ni, newName] = nameIndex.try_emplace(one.names[n], uint32_t(merged.names.size()));
            if (newName)
                merged.names.push_back(one.names[n]);
            mergedName[n] = ni->second;
        }
        std::vector<uint32_t> path;
        for (size_t i = 0; i < one.stacks.size(); ++i) {
            path.clear();
            for (uint32_t n : one.stacks[i])
                path.push_back(mergedName[n]);
            auto [it, added] = stackIndex.try_emplace(path, merged.stacks.size());
            if (added) {
                merged.stacks.push_back(path);
                merged.values.emplace_back(graphs.size(), 0);
            }
            merged.values[it->second][g] += one.values[i][0];
        }
    }
    return stacksToProfile(merged, spec, sourceName);
}

void buildTree(MergedFlamegraph *out)
{
    out->tree = CallTreeBuilder::build({out->profile}, 0);
    out->layout = std::make_shared<const FlameLayout>(*out->tree);
    out->flat = FlatTable::compute(out->tree);
}

bool buildMergedFlamegraph(MergedFlamegraph *out, const ProfileType &type, int64_t durationNanos,
                           const std::string &sourceName, QString *why, uint64_t answerBytes)
{
    out->profile = flamegraphToProfile(out->graph, type, durationNanos, sourceName, why, answerBytes);
    if (!out->profile)
        return false;
    buildTree(out);
    return true;
}

}   // namespace qflame::qryn
