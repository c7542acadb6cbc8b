#include "StacksToTree.h"

#include "CallTreeBuilder.h"
#include "FlatTable.h"
#include "StackProfile.h"

#include <map>
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
    std::vector<std::string_view> frames;
    for (size_t i = 0; i < stacks.stacks.size(); ++i) {
        frames.clear();
        for (uint32_t name : stacks.stacks[i])
            frames.push_back(stacks.names[name]);
        builder.addStack(frames, stacks.values[i]);
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
                                                   QString *why)
{
    std::vector<FlameNode> nodes;
    if (!decodeLevels(graph.levels, graph.names.size(), kSingleLayout, &nodes, why))
        return nullptr;
    StackProfileSpec spec = specFor(type);
    spec.durationNanos = durationNanos;
    return stacksToProfile(stacksFromNodes(nodes, graph.names), spec, sourceName);
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
    StackSet merged;
    std::map<std::vector<std::string>, size_t> stackIndex;
    std::map<std::string, uint32_t> nameIndex;
    for (size_t g = 0; g < graphs.size(); ++g) {
        std::vector<FlameNode> nodes;
        if (!decodeLevels(graphs[g].levels, graphs[g].names.size(), kSingleLayout, &nodes, why))
            return nullptr;
        const StackSet one = stacksFromNodes(nodes, graphs[g].names);
        for (size_t i = 0; i < one.stacks.size(); ++i) {
            std::vector<std::string> path;
            for (uint32_t n : one.stacks[i])
                path.push_back(one.names[n]);
            auto [it, added] = stackIndex.try_emplace(path, merged.stacks.size());
            if (added) {
                std::vector<uint32_t> frames;
                for (const std::string &name : path) {
                    auto [ni, newName] = nameIndex.try_emplace(name, uint32_t(merged.names.size()));
                    if (newName)
                        merged.names.push_back(name);
                    frames.push_back(ni->second);
                }
                merged.stacks.push_back(std::move(frames));
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
    out->flat = FlatTable::compute(out->tree);
}

bool buildMergedFlamegraph(MergedFlamegraph *out, const ProfileType &type, int64_t durationNanos,
                           const std::string &sourceName, QString *why)
{
    out->profile = flamegraphToProfile(out->graph, type, durationNanos, sourceName, why);
    if (!out->profile)
        return false;
    buildTree(out);
    return true;
}

bool buildDiffProfiles(RenderDiffResult *out, const ProfileType &type, QString *why)
{
    std::vector<FlameNode> left, right;
    if (!decodeLevels(out->graph.levels, out->graph.names.size(), kDiffLeftLayout, &left, why) ||
        !decodeLevels(out->graph.levels, out->graph.names.size(), kDiffRightLayout, &right, why))
        return false;
    out->left = stacksToProfile(stacksFromNodes(left, out->graph.names), specFor(type), "render-diff left");
    out->right = stacksToProfile(stacksFromNodes(right, out->graph.names), specFor(type), "render-diff right");
    return true;
}

}   // namespace qflame::qryn
