#include "diff/DiffTree.h"

#include "pprof/Units.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace qflame {

const char *diffClassName(DiffClass c)
{
    switch (c) {
    case DiffClass::Unchanged: return "unchanged";
    case DiffClass::WithinNoise: return "noise";
    case DiffClass::Slower: return "slower";
    case DiffClass::Faster: return "faster";
    case DiffClass::New: return "new";
    case DiffClass::Removed: return "removed";
    }
    return "unchanged";
}

const char *normalizationName(Normalization n)
{
    switch (n) {
    case Normalization::None: return "none";
    case Normalization::PerSecond: return "per-second";
    case Normalization::Total: return "total";
    case Normalization::Factor: return "factor";
    }
    return "none";
}

bool parseNormalization(std::string_view text, DiffOptions *options)
{
    for (Normalization n : {Normalization::None, Normalization::PerSecond, Normalization::Total})
        if (text == normalizationName(n)) {
            options->normalization = n;
            return true;
        }
    double factor = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), factor);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(factor) || factor <= 0)
        return false;
    options->normalization = Normalization::Factor;
    options->factor = factor;
    return true;
}

DiffClass classifyDelta(bool inBefore, bool inAfter, double delta, double standardError, double k)
{
    if (inAfter && !inBefore)
        return DiffClass::New;
    if (inBefore && !inAfter)
        return DiffClass::Removed;
    if (delta == 0)
        return DiffClass::Unchanged;
    if (k > 0 && standardError > 0 && std::fabs(delta) < k * standardError)
        return DiffClass::WithinNoise;
    return delta > 0 ? DiffClass::Slower : DiffClass::Faster;
}

double deltaStandardError(double before, double beforeSamples, double after, double afterSamples)
{
    double variance = 0;
    if (beforeSamples > 0)
        variance += before * before / beforeSamples;
    if (afterSamples > 0)
        variance += after * after / afterSamples;
    return std::sqrt(variance);
}

std::string formatExact(double value)
{
    char buf[64];
    const double a = std::fabs(value);
    const auto format = a == 0 || (a >= 1e-6 && a < 1e21) ? std::chars_format::fixed : std::chars_format::scientific;
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value, format);
    return ec == std::errc() ? std::string(buf, end) : std::string("nan");
}

namespace {

// Three significant digits, also below 1: changes of a few hundredths of a core matter.
std::string formatCores(double cores)
{
    char buf[48];
    snprintf(buf, sizeof buf, std::fabs(cores) >= 100 ? "%.0f cores" : "%.3g cores", cores);
    return buf;
}

}   // namespace

std::vector<NodeId> DiffTree::pathTo(NodeId n) const
{
    std::vector<NodeId> path;
    for (; n != kRoot; n = d->parent[n])
        path.push_back(n);
    return {path.rbegin(), path.rend()};
}

double DiffTree::samples(int side, NodeId n, bool total) const
{
    const DiffSide &s = d->sides[side];
    if (s.countTree)
        return (total ? d->countTotal[side] : d->countSelf[side])[n];
    if (s.valuePerSample > 0)
        return double(total ? d->total[side][n] : d->self[side][n]) / s.valuePerSample;
    return 0;
}

double DiffTree::standardError(NodeId n) const
{
    if (!d->countsKnown)
        return 0;
    return deltaStandardError(beforeTotal(n), beforeSamples(n), afterTotal(n), afterSamples(n));
}

double DiffTree::standardErrorSelf(NodeId n) const
{
    if (!d->countsKnown)
        return 0;
    return deltaStandardError(beforeSelf(n), beforeSelfSamples(n), afterSelf(n), afterSelfSamples(n));
}

DiffClass DiffTree::classOf(NodeId n) const
{
    return classifyDelta(inBefore(n), inAfter(n), deltaTotal(n), standardError(n), m_options.noiseK);
}

DiffClass DiffTree::selfClassOf(NodeId n) const
{
    return classifyDelta(inBefore(n), inAfter(n), deltaSelf(n), standardErrorSelf(n), m_options.noiseK);
}

std::shared_ptr<const DiffTree> DiffTree::withOptions(const DiffOptions &options) const
{
    std::shared_ptr<DiffTree> tree(new DiffTree(*this));
    tree->applyOptions(options);
    return tree;
}

NormalizationScales normalizationScales(const DiffOptions &o, const int64_t durationNanos[2], const int64_t totals[2],
                                        const std::string names[2])
{
    NormalizationScales sc;
    static const char *const sideName[2] = {"baseline", "comparison"};
    switch (o.normalization) {
    case Normalization::None:
        break;
    case Normalization::PerSecond:
        for (int s = 0; s < 2; ++s) {
            if (durationNanos[s] <= 0)
                throw ProfileError(std::string("cannot normalise per second: the ") + sideName[s] + " (" + names[s] +
                                   ") records no duration");
            sc.num[s] = 1e9;
            sc.den[s] = double(durationNanos[s]);
        }
        break;
    case Normalization::Total:
        if (totals[0] == 0 || totals[1] == 0)
            throw ProfileError(std::string("cannot scale to the baseline total: the ") +
                               sideName[totals[0] == 0 ? 0 : 1] + " total is 0");
        sc.num[1] = double(totals[0]);
        sc.den[1] = double(totals[1]);
        break;
    case Normalization::Factor:
        if (!std::isfinite(o.factor) || o.factor <= 0)
            throw ProfileError("the normalisation factor must be a positive number, not " + formatExact(o.factor));
        sc.num[1] = o.factor;
        break;
    }
    return sc;
}

std::string normalizationSentence(const DiffOptions &o, const NormalizationScales &scales, const std::string &unit)
{
    switch (o.normalization) {
    case Normalization::None:
        return "none (absolute values in " + unit + ")";
    case Normalization::PerSecond:
        return "per-second (each side divided by its own duration)";
    case Normalization::Total:
        return "total: the share view, not cost (the comparison scaled by " + formatExact(scales.scale(1)) +
               " to the baseline total)";
    case Normalization::Factor:
        return "factor (the comparison multiplied by " + formatExact(o.factor) + ")";
    }
    return {};
}

void DiffTree::applyOptions(const DiffOptions &o)
{
    if (!std::isfinite(o.noiseK) || o.noiseK < 0)
        throw ProfileError("the noise threshold must be a number of standard errors >= 0 (0 turns it off)");
    const int64_t durations[2] = {d->sides[0].tree->durationNanos(), d->sides[1].tree->durationNanos()};
    const int64_t totals[2] = {d->sides[0].tree->total(CallTree::kRoot), d->sides[1].tree->total(CallTree::kRoot)};
    const std::string names[2] = {d->sides[0].name, d->sides[1].name};
    const NormalizationScales sc = normalizationScales(o, durations, totals, names);
    m_options = o;
    for (int s = 0; s < 2; ++s) {
        m_num[s] = sc.num[s];
        m_den[s] = sc.den[s];
    }
}

bool DiffTree::durationsDiffer() const
{
    const double before = double(beforeDurationNanos()), after = double(afterDurationNanos());
    return before > 0 && after > 0 && std::fabs(after - before) > 0.05 * before;
}

double DiffTree::durationRatio() const
{
    const double before = double(beforeDurationNanos()), after = double(afterDurationNanos());
    return before > 0 && after > 0 ? after / before : 0;
}

std::string DiffTree::normalizationDescription() const
{
    NormalizationScales sc;
    for (int s = 0; s < 2; ++s) {
        sc.num[s] = m_num[s];
        sc.den[s] = m_den[s];
    }
    return normalizationSentence(m_options, sc, sampleType().unit);
}

std::string DiffTree::durationDescription() const
{
    auto duration = [](int64_t ns) { return ns > 0 ? qflame::formatValue(double(ns), "nanoseconds") : "unknown"; };
    std::string text = "durations " + duration(beforeDurationNanos()) + " -> " + duration(afterDurationNanos());
    if (durationsDiffer()) {
        char pct[32];
        snprintf(pct, sizeof pct, "%+.1f%%", 100.0 * (durationRatio() - 1.0));
        text += std::string(" (") + pct + ", more than 5% apart";
        text += m_options.normalization == Normalization::PerSecond ? ")" : ": consider per-second)";
    }
    return text;
}

std::string DiffTree::noiseDescription() const
{
    if (!d->countsKnown) {
        const bool before = d->sides[0].hasSampleCounts(), after = d->sides[1].hasSampleCounts();
        const std::string who = !before && !after ? "neither side has"
                                : !before         ? "the baseline has no"
                                                  : "the comparison has no";
        return "noise unknown: " + who + " sample counts (no samples/count type, no period of this type)";
    }
    if (m_options.noiseK == 0)
        return "noise test off";
    std::string source = d->sides[0].countSource;
    if (d->sides[1].countSource != source)
        source = "baseline " + source + ", comparison " + d->sides[1].countSource;
    return "within noise: |delta| < " + formatExact(m_options.noiseK) + " standard errors (counts: " + source + ")";
}

std::string DiffTree::valueUnit() const
{
    const std::string &unit = sampleType().unit;
    return m_options.normalization == Normalization::PerSecond ? unit + "/s" : unit;
}

std::string formatNormalizedValue(double value, const std::string &unit, Normalization n, bool sign)
{
    std::string text;
    if (n != Normalization::PerSecond)
        text = qflame::formatValue(value, unit);
    else if (unitKind(unit) == UnitKind::Time)   // seconds of CPU per second: cores busy
        text = formatCores(value * unitScale(unit) / 1e9);
    else
        text = qflame::formatValue(value, unit) + "/s";
    if (sign && value > 0)
        text.insert(0, "+");
    return text;
}

std::string DiffTree::formatValue(double value, bool sign) const
{
    return formatNormalizedValue(value, sampleType().unit, m_options.normalization, sign);
}

}   // namespace qflame
