#include "StacksToTree.h"

#include "CallTreeBuilder.h"
#include "FlatTable.h"
#include "StackProfile.h"

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
                                                   const std::string &sourceName, QString *why)
{
    std::vector<FlameNode> nodes;
    if (!decodeLevels(graph.levels, graph.names.size(), kSingleLayout, &nodes, why))
        return nullptr;
    return stacksToProfile(stacksFromNodes(nodes, graph.names), specFor(type), sourceName);
}

void buildTree(MergedFlamegraph *out)
{
    out->tree = CallTreeBuilder::build({out->profile}, 0);
    out->flat = FlatTable::compute(out->tree);
}

bool buildMergedFlamegraph(MergedFlamegraph *out, const ProfileType &type, const std::string &sourceName,
                           QString *why)
{
    out->profile = flamegraphToProfile(out->graph, type, sourceName, why);
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
