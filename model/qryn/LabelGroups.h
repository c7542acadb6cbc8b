// The explorer's query grouped by one label: a row per value of the label with its total over the window, its
// rate ± SE measured from the value's steps by the rounds' rule (rounds/RoundStats.h: the ratio estimator over
// the steps' observations, every step one observation, an empty step 0; gauges the mean of the steps' values),
// and its share of all values' totals. The chart shows the values of largest total, and the rest summed as one
// series "other", which the note states.
#pragma once

#include "qryn/TimelineSteps.h"

#include <QString>

#include <vector>

namespace qflame::qryn {

struct LabelGroup {
    QString value;            // the label's value; "" for samples without the label; the rest: ""
    bool isOther = false;     // the values beyond the top ones, summed
    size_t valueCount = 1;    // how many values it stands for
    int64_t total = 0;        // rates: Σ of its steps' totals in the sample unit; gauges: Σ of its steps' means
    RateEstimate estimate;    // per second (rates) or the mean level (gauges), with the spread's standard error
    double share = 0;         // of the totals of all values, 0..1
    std::vector<Observation> observations;   // rates: one per step
    std::vector<double> values;              // per step, as the chart shows it
};

struct LabelGroups {
    QString key;
    RateUnit unit;
    std::vector<LabelGroup> groups;   // the top values by total (largest first), then "other" when there is a rest
    size_t valueCount = 0;            // values in the window
    int64_t total = 0;                // Σ of all values' totals
    // "3 values of version"; "the top 8 of 12 values of pod by total; the other 4 summed as \"other\"".
    QString note() const;
};

// `timeline` must be grouped by `key` (planTimeline's groupBy): one series per value.
LabelGroups groupByLabel(const StepTimeline &timeline, const QString &key, size_t topValues = 8);

// The chart's timeline: a series per group, "other" labelled `key="other (N values)"`; totals unchanged.
StepTimeline groupedTimeline(const StepTimeline &timeline, const LabelGroups &groups);

// The selector of one value: `selector` with key="value" added (a value of "" selects the samples without it).
QString selectorWithValue(const QString &selector, const QString &key, const QString &value);

}   // namespace qflame::qryn
