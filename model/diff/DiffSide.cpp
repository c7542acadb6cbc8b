#include "diff/DiffSide.h"

#include "pprof/SampleTypes.h"

#include <utility>

namespace qflame {

namespace {

bool isSampleCountType(const Profile &p, size_t i)
{
    const std::string_view type = p.str(p.sampleTypes[i].type);
    return (type == "samples" || type == "sample") && p.str(p.sampleTypes[i].unit) == "count";
}

// Progress of one of `parts` consecutive builds, as a fraction of the whole.
ProgressFn partOf(const ProgressFn &progress, int part, int parts)
{
    if (!progress)
        return {};
    return [progress, part, parts](double f) { return progress((part + f) / parts); };
}

}   // namespace

DiffSide DiffSide::fromProfiles(const std::vector<std::shared_ptr<const Profile>> &profiles, size_t typeIndex,
                                const BuildOptions &options)
{
    if (profiles.empty())
        throw ProfileError("no profile to compare");
    const Profile &first = *profiles.front();
    if (typeIndex >= first.sampleTypes.size())
        throw ProfileError(first.sourceName + ": the profile has no sample type #" + std::to_string(typeIndex));
    DiffSide side;
    for (const auto &p : profiles)
        side.name += (side.name.empty() ? "" : ", ") + p->sourceName;
    const std::string type = first.typeName(typeIndex), unit = first.unitName(typeIndex);

    // A samples/count type that every merged profile has, other than the compared type itself.
    int countIndex = -1;
    if (!isSampleCountType(first, typeIndex)) {
        for (size_t i = 0; i < first.sampleTypes.size() && countIndex < 0; ++i)
            if (isSampleCountType(first, i))
                countIndex = int(i);
        for (const auto &p : profiles)
            if (countIndex >= 0 &&
                findExactSampleType(*p, first.typeName(size_t(countIndex)), first.unitName(size_t(countIndex))) < 0)
                countIndex = -1;
    }

    BuildOptions valueOptions = options;
    valueOptions.progress = partOf(options.progress, 0, countIndex >= 0 ? 2 : 1);
    side.tree = CallTreeBuilder::build(profiles, typeIndex, valueOptions);

    if (isSampleCountType(first, typeIndex)) {
        side.valuePerSample = 1;
        side.countSource = "the values are sample counts";
        return side;
    }
    if (countIndex >= 0) {
        // The count tree must cover the samples of the value tree and no others: a sample whose compared value
        // is 0 adds nothing to the value tree, so it must add no count either.
        std::vector<std::pair<const Profile *, size_t>> valueIndex;
        for (const auto &p : profiles)
            valueIndex.emplace_back(p.get(),
                                    p.get() == &first ? typeIndex : size_t(findExactSampleType(*p, type, unit)));
        BuildOptions countOptions = options;
        countOptions.progress = partOf(options.progress, 1, 2);
        countOptions.sampleFilter = [userFilter = options.sampleFilter,
                                     valueIndex = std::move(valueIndex)](const Profile &p, size_t sample) {
            for (const auto &[profile, index] : valueIndex)
                if (profile == &p)
                    return p.value(sample, index) != 0 && (!userFilter || userFilter(p, sample));
            return false;
        };
        side.countTree = CallTreeBuilder::build(profiles, size_t(countIndex), countOptions);
        side.countSource = first.typeName(size_t(countIndex)) + "/" + first.unitName(size_t(countIndex));
        return side;
    }

    // value / period, when every profile samples the compared quantity with the same period.
    bool periodFits = first.period > 0;
    for (const auto &p : profiles)
        periodFits = periodFits && p->period == first.period && p->str(p->periodType.type) == type &&
                     p->str(p->periodType.unit) == unit;
    if (periodFits) {
        side.valuePerSample = double(first.period);
        side.countSource = "value / period (" + std::to_string(first.period) + " " + unit + ")";
    }
    return side;
}

DiffSide DiffSide::fromProfiles(const std::vector<std::shared_ptr<const Profile>> &profiles,
                                const SampleTypeInfo &type, const BuildOptions &options)
{
    if (profiles.empty())
        throw ProfileError("no profile to compare");
    const Profile &first = *profiles.front();
    const int index = findExactSampleType(first, type.type, type.unit);
    if (index < 0)
        throw ProfileError(first.sourceName + ": has no sample type " + type.type + "/" + type.unit +
                           " to compare with (it has: " + sampleTypeList(first) + ")");
    return fromProfiles(profiles, size_t(index), options);
}

}   // namespace qflame
