#include "graph/GraphWalk.h"

#include "tree/FlatHashMap.h"
#include "tree/LabelFrames.h"
#include "tree/ProfileFrames.h"
#include "tree/SampleFilter.h"
#include "tree/TagFilter.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <tuple>

namespace qflame::detail {

namespace {

constexpr FrameId kNoFrame = ~FrameId(0);

bool isSampleCountType(const Profile &p, size_t i)
{
    const std::string_view type = p.str(p.sampleTypes[i].type);
    return (type == "samples" || type == "sample") && p.str(p.sampleTypes[i].unit) == "count";
}

// measurement.ScaledLabel(v, unit, outputUnit): how pprof names a "bytes" tag, so that values that print alike
// are one tag, as in pprof.
std::string scaledLabel(int64_t value, const std::string &unit, const std::string &outputUnit)
{
    const ScaledValue s = scaleMeasurement(value, unit, outputUnit);
    char buf[64];
    snprintf(buf, sizeof buf, "%.2f", s.value);
    std::string text = buf;
    if (text.size() > 3 && text.compare(text.size() - 3, 3, ".00") == 0)
        text.resize(text.size() - 3);
    if (text == "0" || text == "-0")
        return "0";
    return text + s.unit;
}

}   // namespace

struct GraphWalk::Input {
    const Profile *p = nullptr;
    int side = 1;
    size_t type = 0;
    // How many samples stand behind a value: the value itself (a samples/count type), another type's value,
    // the value over the period, or unknown.
    enum class Count { Value, Type, Period, Unknown } count = Count::Unknown;
    size_t countType = 0;
    double period = 0;
    std::unique_ptr<ProfileFrames> frames;

    double samplesOf(size_t s, int64_t v) const
    {
        switch (count) {
        case Count::Value: return double(v);
        case Count::Type: return double(p->value(s, countType));
        case Count::Period: return double(v) / period;
        case Count::Unknown: break;
        }
        return 0;
    }
};

GraphWalk::GraphWalk(const std::vector<std::shared_ptr<const Profile>> &before,
                     const std::vector<std::shared_ptr<const Profile>> &after, size_t typeIndex,
                     const BuildOptions &build)
    : m_frames(std::make_shared<FrameTable>()), m_build(build)
{
    const auto &firstSide = before.empty() ? after : before;
    checkInputs(firstSide, typeIndex);
    if (after.empty())
        throw ProfileError("no profile to compare with");
    const Profile &first = *firstSide.front();
    m_type = {first.typeName(typeIndex), first.unitName(typeIndex)};
    m_profiles = before;
    m_profiles.insert(m_profiles.end(), after.begin(), after.end());
    m_profiles = withLabelFrames(m_profiles, build.filters);   // --tagroot, --tagleaf: label values as frames
    m_compiled = std::make_unique<CompiledFilters>(build.filters, m_profiles);
    const NumLabelUnits units = identifyNumLabelUnits(m_profiles);
    if (auto it = units.find("bytes"); it != units.end())
        m_bytesUnit = it->second;
    for (const auto &pp : m_profiles) {
        auto in = std::make_unique<Input>();
        const Profile &p = *pp;
        in->p = &p;
        in->side = m_inputs.size() < before.size() ? 0 : 1;
        in->type = size_t(mergedType(first, typeIndex, p));
        const std::string type = p.typeName(in->type), unit = p.unitName(in->type);
        if (isSampleCountType(p, in->type)) {
            in->count = Input::Count::Value;
        } else {
            for (size_t i = 0; i < p.sampleTypes.size() && in->count == Input::Count::Unknown; ++i)
                if (isSampleCountType(p, i)) {
                    in->count = Input::Count::Type;
                    in->countType = i;
                }
            if (in->count == Input::Count::Unknown && p.period > 0 && p.str(p.periodType.type) == type &&
                p.str(p.periodType.unit) == unit) {
                in->count = Input::Count::Period;
                in->period = double(p.period);
            }
        }
        m_countsKnown = m_countsKnown && in->count != Input::Count::Unknown;
        in->frames = std::make_unique<ProfileFrames>(p, *m_compiled, build, *m_frames);
        for (const Label &l : p.labels)
            m_hasTags = m_hasTags || l.str != 0 || p.str(l.key) == "bytes";
        m_inputs.push_back(std::move(in));
    }
    // pprof's total: |values| of the samples kept, of the baseline only in a comparison.
    int64_t total[2] = {0, 0};
    forEachSample([&](Input &in, size_t, int64_t v, size_t, size_t) {
        total[in.side] += std::llabs(v);
        m_sideTotal[in.side] += v;
    });
    for (size_t i = 0; i < before.size() + after.size(); ++i) {
        const Profile &p = i < before.size() ? *before[i] : *after[i - before.size()];
        const int side = i < before.size() ? 0 : 1;
        m_duration[side] += p.durationNanos;
        if (m_sideName[side].empty())
            m_sideName[side] = p.sourceName;
    }
    m_total = before.empty() || total[0] == 0 ? total[0] + total[1] : total[0];
}

GraphWalk::~GraphWalk() = default;

template <typename Visit>
void GraphWalk::forEachSample(const Visit &visit)
{
    for (auto &inPtr : m_inputs) {
        Input &in = *inPtr;
        const Profile &p = *in.p;
        const size_t n = p.sampleCount();
        for (size_t s = 0; s < n; ++s) {
            if ((s & 0x7fff) == 0x7fff && m_build.progress && !m_build.progress(0.5))
                throw Cancelled();
            const int64_t v = p.value(s, in.type);
            if (v == 0 || (m_build.sampleFilter && !m_build.sampleFilter(p, s)))
                continue;
            size_t begin, end;
            if (!in.frames->sampleRange(s, begin, end))
                continue;
            visit(in, s, v, begin, end);
        }
    }
}

GraphSums GraphWalk::run(const std::vector<uint8_t> *kept)
{
    const size_t nf = m_frames->size();
    GraphSums g;
    for (int side = 0; side < 2; ++side) {
        g.flat[side].assign(nf, 0);
        g.cum[side].assign(nf, 0);
        g.samples[side].assign(nf, 0);
    }
    g.sides.assign(nf, 0);
    std::vector<uint32_t> nodeStamp(nf, 0), edgeStamp;
    FlatHashMap edges(1024);
    uint32_t stamp = 0;
    forEachSample([&](Input &in, size_t s, int64_t v, size_t begin, size_t end) {
        const Profile &p = *in.p;
        const ProfileFrames &pf = *in.frames;
        const int side = in.side;
        const double count = in.samplesOf(s, v);
        ++stamp;
        FrameId parent = kNoFrame;
        bool residual = false;
        for (size_t k = end; k-- > begin;) {
            const uint32_t loc = p.sampleLocations[k];
            for (uint32_t i = pf.locBegin[loc]; i < pf.locBegin[loc + 1]; ++i) {
                const FrameId f = pf.locFrames[i];
                if (kept && !(*kept)[f]) {
                    residual = true;
                    continue;
                }
                if (nodeStamp[f] != stamp) {   // cum once per sample, however deep the recursion
                    nodeStamp[f] = stamp;
                    g.cum[side][f] += v;
                    g.samples[side][f] += count;
                    g.sides[f] |= uint8_t(1u << side);
                }
                if (parent != kNoFrame && f != parent) {
                    bool inserted = false;
                    const uint32_t e = edges.findOrInsert((uint64_t(parent) << 32) | f, uint32_t(g.edgeKey.size()),
                                                          &inserted);
                    if (inserted) {
                        g.edgeKey.push_back((uint64_t(parent) << 32) | f);
                        for (int t = 0; t < 2; ++t) {
                            g.weight[t].push_back(0);
                            g.edgeSamples[t].push_back(0);
                        }
                        g.edgeSides.push_back(0);
                        g.edgeResidual.push_back(0);
                        g.edgeCalled.push_back(0);
                        edgeStamp.push_back(0);
                    }
                    if (edgeStamp[e] != stamp) {   // and each pair once per sample
                        edgeStamp[e] = stamp;
                        g.weight[side][e] += v;
                        g.edgeSamples[side][e] += count;
                        g.edgeSides[e] |= uint8_t(1u << side);
                        g.edgeResidual[e] |= residual;
                        g.edgeCalled[e] |= (pf.locKinds[i] & CallTree::kCalled) != 0;
                    }
                }
                parent = f;
                residual = false;
            }
        }
        if (parent != kNoFrame && !residual)   // a leaf that was dropped gives no flat to anyone
            g.flat[side][parent] += v;
    });
    return g;
}

std::vector<size_t> GraphWalk::tagCounts(const std::vector<uint8_t> *kept, const std::vector<FrameId> &candidates,
                                         int64_t cutoff, const std::string &outputUnit)
{
    std::vector<size_t> counts(candidates.size(), 0);
    if (!m_hasTags || candidates.empty())
        return counts;
    const size_t nf = m_frames->size();
    std::vector<int32_t> candidate(nf, -1);
    for (size_t c = 0; c < candidates.size(); ++c)
        candidate[candidates[c]] = int32_t(c);
    // (candidate, numeric?, label set, formatted value) -> flat, cum
    std::map<std::tuple<int32_t, int, uint32_t, uint32_t>, std::pair<int64_t, int64_t>> tags;
    std::map<std::string, uint32_t> strings{{"", 0}};
    auto intern = [&](const std::string &s) { return strings.emplace(s, uint32_t(strings.size())).first->second; };
    std::vector<uint32_t> nodeStamp(nf, 0);
    uint32_t stamp = 0;
    std::vector<std::string> pairs;
    std::vector<uint32_t> numeric;
    forEachSample([&](Input &in, size_t s, int64_t value, size_t begin, size_t end) {
        const Profile &p = *in.p;
        const ProfileFrames &pf = *in.frames;
        const int64_t w = in.side == 0 ? -value : value;   // -diff_base negates the baseline
        pairs.clear();
        numeric.clear();
        for (const Label &label : p.sampleLabels(s)) {
            if (label.str != 0)
                pairs.push_back(std::string(p.str(label.key)) + ":" + std::string(p.str(label.str)));
        }
        std::sort(pairs.begin(), pairs.end());
        std::string joined;
        for (const std::string &pr : pairs)
            joined += (joined.empty() ? "" : "\\n") + pr;
        const uint32_t labels = intern(joined);
        for (const Label &label : p.sampleLabels(s)) {
            if (label.str == 0 && p.str(label.key) == "bytes")
                numeric.push_back(intern(scaledLabel(label.num, m_bytesUnit, outputUnit)));
        }
        auto add = [&](int32_t c, bool flat) {
            auto bump = [&](std::pair<int64_t, int64_t> &t) { (flat ? t.first : t.second) += w; };
            if (labels != 0)
                bump(tags[{c, 0, labels, 0}]);
            for (uint32_t v : numeric)
                bump(tags[{c, 1, labels, v}]);
        };
        ++stamp;
        FrameId parent = kNoFrame;
        bool residual = false;
        for (size_t k = end; k-- > begin;) {
            const uint32_t loc = p.sampleLocations[k];
            for (uint32_t i = pf.locBegin[loc]; i < pf.locBegin[loc + 1]; ++i) {
                const FrameId f = pf.locFrames[i];
                if (kept && !(*kept)[f]) {
                    residual = true;
                    continue;
                }
                if (nodeStamp[f] != stamp) {
                    nodeStamp[f] = stamp;
                    if (candidate[f] >= 0)
                        add(candidate[f], false);
                }
                parent = f;
                residual = false;
            }
        }
        if (parent != kNoFrame && !residual && candidate[parent] >= 0)
            add(candidate[parent], true);
    });
    for (const auto &[key, t] : tags)
        if (t.first != 0 && (std::llabs(t.first) >= cutoff || std::llabs(t.second) >= cutoff))
            ++counts[size_t(std::get<0>(key))];
    return counts;
}

}   // namespace qflame::detail
