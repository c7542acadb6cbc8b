#include "pgo/InliningChanges.h"

#include "io/ReadOptions.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

namespace qflame {

namespace {

// Function names as small ids, shared by both sides so that a pair means the same on each.
class NameTable {
public:
    uint32_t id(std::string_view name)
    {
        auto [it, inserted] = m_ids.try_emplace(std::string(name), uint32_t(m_names.size()));
        if (inserted)
            m_names.push_back(&it->first);
        return it->second;
    }
    const std::string &name(uint32_t id) const { return *m_names[id]; }

private:
    std::unordered_map<std::string, uint32_t> m_ids;
    std::vector<const std::string *> m_names;
};

constexpr uint32_t kNoName = UINT32_MAX;

// (caller << 32 | callee) -> weights, over whole stacks.
using PairWeights = std::unordered_map<uint64_t, CallWeights>;

std::string typeOf(const Profile &p, size_t t) { return p.typeName(t) + "/" + p.unitName(t); }

int sameType(const Profile &p, const std::string &type)
{
    for (size_t i = 0; i < p.sampleTypes.size(); ++i)
        if (typeOf(p, i) == type)
            return int(i);
    return -1;
}

void addProfile(const Profile &p, int type, NameTable &names, PairWeights &pairs)
{
    // Per location, its function names outermost inline frame first (Line[last] .. Line[0]); a line without a
    // function has no name, and no pair is made across it.
    std::vector<std::vector<uint32_t>> locNames(p.locations.size());
    for (size_t i = 0; i < p.locations.size(); ++i) {
        const Location &loc = p.locations[i];
        for (uint32_t k = loc.lineCount; k-- > 0;) {
            const Line &line = p.lines[loc.firstLine + k];
            locNames[i].push_back(line.function == kNone ? kNoName : names.id(p.str(p.functions[line.function].name)));
        }
        if (locNames[i].empty())
            locNames[i].push_back(kNoName);
    }
    struct Seen {
        uint64_t pair;
        bool inlined;
        bool operator<(const Seen &o) const { return std::tie(pair, inlined) < std::tie(o.pair, o.inlined); }
        bool operator==(const Seen &o) const { return pair == o.pair && inlined == o.inlined; }
    };
    std::vector<Seen> seen;
    for (size_t s = 0; s < p.sampleCount(); ++s) {
        const int64_t w = p.value(s, size_t(type));
        if (w == 0)
            continue;
        seen.clear();
        uint32_t above = kNoName;   // the innermost name of the location above (the caller of a real call)
        for (uint64_t k = p.sampleLocBegin[s + 1]; k-- > p.sampleLocBegin[s];) {   // root first
            const auto &ns = locNames[p.sampleLocations[k]];
            if (above != kNoName && ns.front() != kNoName)
                seen.push_back({uint64_t(above) << 32 | ns.front(), false});
            for (size_t j = 1; j < ns.size(); ++j)
                if (ns[j - 1] != kNoName && ns[j] != kNoName)
                    seen.push_back({uint64_t(ns[j - 1]) << 32 | ns[j], true});
            above = ns.back();
        }
        // Once per sample, pair and kind: a recursive stack passes through a call many times but costs once.
        std::sort(seen.begin(), seen.end());
        seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
        for (const Seen &e : seen) {
            CallWeights &cw = pairs[e.pair];
            int64_t &slot = e.inlined ? cw.inlined : cw.called;
            slot = wrappingAdd(slot, w);
        }
    }
}

PairWeights sidePairs(const std::vector<std::shared_ptr<const Profile>> &side, const std::string &type,
                      NameTable &names)
{
    PairWeights pairs;
    for (const auto &p : side) {
        const int t = sameType(*p, type);
        if (t < 0)
            throw ProfileError(p->sourceName + ": no " + type + " sample type, which the inlining changes are "
                               "computed in");
        addProfile(*p, t, names, pairs);
    }
    return pairs;
}

bool kindOf(InlineState base, InlineState next, InliningChange::Kind *kind)
{
    using K = InliningChange::Kind;
    using S = InlineState;
    if (base == next)
        return false;
    if (next == S::Inlined)
        *kind = K::BecameInlined;
    else if (next == S::Called)
        *kind = K::NoLongerInlined;
    else
        *kind = base == S::Called ? K::PartlyInlined : K::PartlyCalled;
    return true;
}

int64_t totalOf(const CallWeights &w) { return wrappingAdd(w.called, w.inlined); }

// The hot edges of one side, by (caller, callee, offset), with their weight.
std::map<std::tuple<std::string, std::string, int64_t>, std::pair<int64_t, bool>>
edgeMap(const std::vector<std::shared_ptr<const Profile>> &side, double threshold)
{
    std::map<std::tuple<std::string, std::string, int64_t>, std::pair<int64_t, bool>> out;
    for (const PgoEdge &e : computePgoEdges(side, threshold).edges)
        out[{e.caller, e.callee, e.offset}] = {e.weight, e.hot};
    return out;
}

}   // namespace

InlineState CallWeights::state() const
{
    if (called != 0 && inlined != 0)
        return InlineState::Both;
    return inlined != 0 ? InlineState::Inlined : InlineState::Called;
}

const char *inliningKindName(InliningChange::Kind kind)
{
    switch (kind) {
    case InliningChange::Kind::BecameInlined: return "became inlined";
    case InliningChange::Kind::NoLongerInlined: return "no longer inlined";
    case InliningChange::Kind::PartlyInlined: return "partly inlined";
    case InliningChange::Kind::PartlyCalled: return "partly called";
    }
    return "";
}

InliningChanges computeInliningChanges(const std::vector<std::shared_ptr<const Profile>> &base,
                                       const std::vector<std::shared_ptr<const Profile>> &next, int sampleIndex,
                                       double threshold)
{
    InliningChanges result;
    if (base.empty() || next.empty())
        return result;
    const Profile &first = *base.front();
    int t = sampleIndex;
    if (t < 0)
        t = pgoSampleTypeIndex(first);
    if (t < 0)
        t = first.effectiveDefaultType();
    if (t < 0 || size_t(t) >= first.sampleTypes.size())
        throw ProfileError(first.sourceName + ": the profile has no sample types");
    result.sampleType = typeOf(first, size_t(t));

    NameTable names;
    const PairWeights b = sidePairs(base, result.sampleType, names), n = sidePairs(next, result.sampleType, names);
    for (const auto &[pair, bw] : b) {
        auto it = n.find(pair);
        if (it == n.end() || totalOf(bw) == 0 || totalOf(it->second) == 0)
            continue;
        InliningChange c;
        if (!kindOf(bw.state(), it->second.state(), &c.kind))
            continue;
        c.caller = names.name(uint32_t(pair >> 32));
        c.callee = names.name(uint32_t(pair));
        c.base = bw;
        c.next = it->second;
        result.inlining.push_back(std::move(c));
    }
    std::sort(result.inlining.begin(), result.inlining.end(), [](const InliningChange &x, const InliningChange &y) {
        const int64_t wx = std::max(totalOf(x.base), totalOf(x.next)), wy = std::max(totalOf(y.base), totalOf(y.next));
        return std::tie(wy, x.caller, x.callee) < std::tie(wx, y.caller, y.callee);
    });

    // The hot edges exist only where both sides carry the compiler's sample type.
    if (pgoSampleTypeIndex(first) < 0 || pgoSampleTypeIndex(*next.front()) < 0)
        return result;
    const auto be = edgeMap(base, threshold), ne = edgeMap(next, threshold);
    auto collect = [&](const auto &from, const auto &other, bool appeared) {
        std::vector<HotEdgeChange> found;
        for (const auto &[key, wh] : from) {
            if (!wh.second)
                continue;
            auto it = other.find(key);
            if (it != other.end() && it->second.second)
                continue;
            HotEdgeChange h;
            h.appeared = appeared;
            std::tie(h.caller, h.callee, h.offset) = key;
            const int64_t otherWeight = it == other.end() ? 0 : it->second.first;
            h.baseWeight = appeared ? otherWeight : wh.first;
            h.nextWeight = appeared ? wh.first : otherWeight;
            found.push_back(std::move(h));
        }
        std::stable_sort(found.begin(), found.end(), [&](const HotEdgeChange &x, const HotEdgeChange &y) {
            return (appeared ? x.nextWeight : x.baseWeight) > (appeared ? y.nextWeight : y.baseWeight);
        });   // `from` is in name order, so ties stay in caller, callee, offset order
        result.hotEdges.insert(result.hotEdges.end(), found.begin(), found.end());
    };
    collect(ne, be, true);
    collect(be, ne, false);
    return result;
}

}   // namespace qflame
