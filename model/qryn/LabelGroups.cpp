#include "qryn/LabelGroups.h"

#include "qryn/LabelSelector.h"

#include <algorithm>
#include <cmath>

namespace qflame::qryn {

namespace {

void estimate(LabelGroup &g, ValueKind kind)
{
    if (kind == ValueKind::Rate) {
        g.estimate = estimateRate(g.observations);
        g.total = g.estimate.total;
        return;
    }
    std::vector<double> present;
    for (double v : g.values)
        if (!std::isnan(v))
            present.push_back(v);
    g.estimate = estimateMean(present);
    g.total = g.estimate.total;
}

}   // namespace

LabelGroups groupByLabel(const StepTimeline &timeline, const QString &key, size_t topValues)
{
    LabelGroups out;
    out.key = key;
    out.unit = timeline.unit;
    const bool rates = timeline.unit.kind == ValueKind::Rate;
    std::vector<LabelGroup> all;
    for (const StepSeries &s : timeline.series) {
        LabelGroup g;
        g.value = labelValue(s.labels, key);
        if (g.value.isNull())
            g.value = QString(QLatin1String(""));
        g.observations = s.observations;
        g.values = s.values;
        estimate(g, timeline.unit.kind);
        all.push_back(std::move(g));
    }
    out.valueCount = all.size();
    // Largest total first; equal totals in the order of their values, so the table does not shuffle.
    std::stable_sort(all.begin(), all.end(), [](const LabelGroup &a, const LabelGroup &b) { return a.total > b.total; });
    for (const LabelGroup &g : all)
        out.total = wrappingAdd(out.total, g.total);
    const size_t kept = std::min(all.size(), std::max<size_t>(topValues, 1));
    for (size_t i = 0; i < kept; ++i)
        out.groups.push_back(std::move(all[i]));
    if (kept < all.size()) {
        LabelGroup other;
        other.isOther = true;
        other.valueCount = all.size() - kept;
        const size_t steps = timeline.steps.size();
        if (rates) {
            other.observations.assign(steps, Observation{});
            for (size_t i = kept; i < all.size(); ++i)
                for (size_t k = 0; k < steps && k < all[i].observations.size(); ++k) {
                    Observation &o = other.observations[k];
                    o.value = wrappingAdd(o.value, all[i].observations[k].value);
                    o.durationNanos = all[i].observations[k].durationNanos;
                    o.source = all[i].observations[k].source;
                }
            for (const Observation &o : other.observations)
                other.values.push_back(o.durationNanos > 0 ? double(o.value) / double(o.durationNanos) * 1e9 : 0.0);
        } else {   // gauges: a step's level is the sum of the values' levels where any has one
            other.values.assign(steps, std::nan(""));
            for (size_t i = kept; i < all.size(); ++i)
                for (size_t k = 0; k < steps && k < all[i].values.size(); ++k)
                    if (!std::isnan(all[i].values[k]))
                        other.values[k] = (std::isnan(other.values[k]) ? 0.0 : other.values[k]) + all[i].values[k];
        }
        estimate(other, timeline.unit.kind);
        out.groups.push_back(std::move(other));
    }
    for (LabelGroup &g : out.groups)
        g.share = out.total != 0 ? double(g.total) / double(out.total) : 0.0;
    return out;
}

QString LabelGroups::note() const
{
    const size_t shown = groups.size() - (!groups.empty() && groups.back().isOther ? 1 : 0);
    if (shown == valueCount)
        return valueCount == 1 ? QStringLiteral("1 value of %1").arg(key)
                               : QStringLiteral("%1 values of %2").arg(valueCount).arg(key);
    return QStringLiteral("the top %1 of %2 values of %3 by total; the other %4 summed as \"other\"")
        .arg(shown)
        .arg(valueCount)
        .arg(key)
        .arg(valueCount - shown);
}

StepTimeline groupedTimeline(const StepTimeline &timeline, const LabelGroups &groups)
{
    StepTimeline t = timeline;
    t.series.clear();
    for (const LabelGroup &g : groups.groups) {
        const QString value = g.isOther ? QStringLiteral("other (%1 values)").arg(g.valueCount) : g.value;
        t.series.push_back({LabelSet{{groups.key, value}}, g.values, g.observations});
    }
    return t;
}

QString selectorWithValue(const QString &selector, const QString &key, const QString &value)
{
    QString why;
    QList<Matcher> matchers = parseSelector(selector, &why).value_or(QList<Matcher>{});
    matchers.erase(std::remove_if(matchers.begin(), matchers.end(), [&](const Matcher &m) { return m.name == key; }),
                   matchers.end());
    matchers.push_back({key, QStringLiteral("="), value});
    return formatSelector(matchers);
}

}   // namespace qflame::qryn
