#include "qryn/TimelineSteps.h"

#include "qryn/ServerRounds.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace qflame::qryn {

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

qint64 floorDiv(qint64 a, qint64 b)
{
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

QString labelsText(const LabelSet &labels)
{
    QStringList parts;
    for (const LabelPair &l : labels)
        parts << l.name + QLatin1Char('=') + l.value;
    return parts.join(QLatin1Char(','));
}

// Each label set's profiles averaged per step: one point per profile (asked at 1 s), summed and counted.
std::vector<double> gaugeMeans(const Series &s, const std::vector<TimeRange> &steps)
{
    std::vector<double> sum(steps.size(), 0.0), count(steps.size(), 0.0);
    const qint64 width = steps.front().endMs - steps.front().startMs;
    for (const SeriesPoint &p : s.points) {
        if (p.timestampMs < steps.front().startMs || p.timestampMs >= steps.back().endMs)
            continue;
        const size_t i = size_t((p.timestampMs - steps.front().startMs) / width);
        sum[i] += p.value;
        count[i] += 1;
    }
    for (size_t i = 0; i < sum.size(); ++i)
        sum[i] = count[i] > 0 ? sum[i] / count[i] : kNan;
    return sum;
}

// NaN (no profile) plus a value is the value; NaN only where neither has one.
void addGauge(std::vector<double> *into, const std::vector<double> &values)
{
    for (size_t i = 0; i < values.size(); ++i)
        if (!std::isnan(values[i]))
            (*into)[i] = std::isnan((*into)[i]) ? values[i] : (*into)[i] + values[i];
}

}   // namespace

RateUnit rateUnitOf(const ProfileType &type)
{
    return rateUnit(type.sampleType.toStdString(), type.sampleUnit.toStdString());
}

TimeRange snapToSteps(const TimeRange &range, qint64 stepSeconds)
{
    if (stepSeconds <= 0)
        return range;
    const qint64 stepMs = stepSeconds * 1000;
    return {floorDiv(range.startMs, stepMs) * stepMs, -floorDiv(-range.endMs, stepMs) * stepMs};
}

TimelinePlan planTimeline(const ProfileQuery &query, const ProfileType &type, qint64 chosenStepSeconds,
                          const QString &groupBy)
{
    TimelinePlan plan;
    plan.unit = rateUnitOf(type);
    plan.stepSeconds = roundStepSeconds(query.range, chosenStepSeconds);
    plan.groupBy = groupBy;
    const TimeRange span = snapToSteps(query.range, plan.stepSeconds);
    plan.steps = roundSteps(span, plan.stepSeconds);
    plan.query = {query.profileTypeId, query.labelSelector, span};
    if (plan.unit.kind == ValueKind::Gauge) {
        plan.options.stepSeconds = 1;
    } else {
        plan.options.stepSeconds = double(plan.stepSeconds);
        if (!groupBy.isEmpty())
            plan.options.groupBy = {groupBy};
    }
    return plan;
}

int StepTimeline::stepAt(qint64 ms) const
{
    if (steps.empty() || ms < steps.front().startMs || ms >= steps.back().endMs)
        return -1;
    return int((ms - steps.front().startMs) / (steps.front().endMs - steps.front().startMs));
}

StepTimeline stepTimeline(const QList<Series> &answer, const TimelinePlan &plan)
{
    StepTimeline t;
    t.unit = plan.unit;
    t.stepSeconds = plan.stepSeconds;
    t.steps = plan.steps;
    if (t.steps.empty())
        return t;
    std::map<QString, StepSeries> byLabels;   // ordered by the labels' text
    if (plan.unit.kind == ValueKind::Rate) {
        for (const Series &s : answer) {
            StepSeries one{s.labels, {}, observationsFromSeries({s}, t.steps, "timeline")};
            for (const Observation &o : one.observations)
                one.values.push_back(double(o.value) / double(o.durationNanos) * 1e9);
            byLabels.emplace(labelsText(s.labels), std::move(one));
        }
        t.totals = observationsFromSeries(answer, t.steps, "timeline");
        for (const Observation &o : t.totals)
            t.totalValues.push_back(double(o.value) / double(o.durationNanos) * 1e9);
    } else {
        t.totalValues.assign(t.steps.size(), kNan);
        for (const Series &s : answer) {
            const std::vector<double> means = gaugeMeans(s, t.steps);
            LabelSet labels = s.labels;
            if (!plan.groupBy.isEmpty()) {
                const QString value = labelValue(s.labels, plan.groupBy);
                labels = value.isNull() ? LabelSet{} : LabelSet{{plan.groupBy, value}};
            }
            auto [it, fresh] = byLabels.try_emplace(labelsText(labels), StepSeries{labels, {}, {}});
            if (fresh)
                it->second.values.assign(t.steps.size(), kNan);
            addGauge(&it->second.values, means);
            addGauge(&t.totalValues, means);
        }
    }
    for (auto &[key, s] : byLabels)
        t.series.push_back(std::move(s));
    return t;
}

std::vector<Observation> rangeObservations(const StepTimeline &timeline, const TimeRange &range)
{
    std::vector<Observation> out;
    for (size_t i = 0; i < timeline.totals.size(); ++i)
        if (timeline.steps[i].startMs >= range.startMs && timeline.steps[i].startMs < range.endMs)
            out.push_back(timeline.totals[i]);
    return out;
}

RateEstimate rangeEstimate(const StepTimeline &timeline, const TimeRange &range)
{
    if (timeline.unit.kind == ValueKind::Rate)
        return estimateRate(rangeObservations(timeline, range));
    std::vector<double> values;
    for (size_t i = 0; i < timeline.steps.size(); ++i)
        if (timeline.steps[i].startMs >= range.startMs && timeline.steps[i].startMs < range.endMs &&
            !std::isnan(timeline.totalValues[i]))
            values.push_back(timeline.totalValues[i]);
    return estimateMean(values);
}

}   // namespace qflame::qryn
