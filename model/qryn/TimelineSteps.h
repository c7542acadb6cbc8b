// The explorer's timeline as numbers: which SelectSeries to ask for a window, the steps the chart shows, each
// series' value per step in its unit of time (rounds/RateUnit.h), and a brushed range's average ± SE over its steps
// by the rounds model (rounds/RoundStats.h), so that the chart, its hover, its range averages and the summary line
// are the same numbers, tested headless.
//
// Steps: the rounds' rule for their length (ServerRounds' roundStepSeconds: about 60 steps, none shorter than 10 s)
// or the length the user chose, and aligned to multiples of the step since the epoch, as qryn aligns SelectSeries'
// buckets (qryn.md §4.7): asked with the step itself, each bucket is a step and nothing straddles an edge. A brushed
// range is snapped to these steps, so its observations are whole steps, and the rounds of that range asked with the
// same step (ServerRoundsQuery::stepSeconds) are the same observations.
//
// Rates (CPU, allocations, contentions): a step's value is the sum of its profiles' totals over the step's length,
// per second; an empty step is 0, and a range's observations are its steps, each its total over the step, as a
// server round's are. Gauges (inuse_*, goroutine): a step's value is the mean over its profiles, so a step of two
// profiles of 100 goroutines shows 100, not 200. SelectSeries only sums (qryn 3.2.39 refuses AVERAGE), so a gauge is
// asked at 1 s, one point per profile (ingesters stamp whole seconds), ungrouped, and each label set's profiles are
// averaged per step before the series are summed (or grouped) here; a step without a profile has no value (not 0),
// and a range's average is the mean of its steps' values (estimateMean). That costs one point per profile of the
// last 7 days (qryn sends 7 days whatever the range), bounded by the client's response cap.
#pragma once

#include "qryn/QrynTypes.h"
#include "rounds/RateUnit.h"
#include "rounds/RoundStats.h"

#include <vector>

namespace qflame::qryn {

// The unit of a profile type's sample type ("process_cpu:cpu:nanoseconds:..." -> cores).
RateUnit rateUnitOf(const ProfileType &type);

// [floor(start / step) · step, ceil(end / step) · step) in ms, the step in seconds; unchanged for a step <= 0.
TimeRange snapToSteps(const TimeRange &range, qint64 stepSeconds);

// What the timeline of a query asks and shows.
struct TimelinePlan {
    RateUnit unit;
    qint64 stepSeconds = 0;         // the chart's step
    std::vector<TimeRange> steps;   // epoch-aligned, covering the query's window
    QString groupBy;                // "" = a series per label set
    ProfileQuery query;             // what to ask SelectSeries: the query over the steps' span
    SeriesOptions options;          // rates: the step and groupBy; gauges: 1 s, no groupBy (grouped here)
};

// `chosenStepSeconds` <= 0: Auto, roundStepSeconds(window, 0).
TimelinePlan planTimeline(const ProfileQuery &query, const ProfileType &type, qint64 chosenStepSeconds,
                          const QString &groupBy);

struct StepSeries {
    LabelSet labels;
    // Per step: per second of the step in the sample unit (rates), or the mean of the step's profiles in the unit
    // (gauges; NaN for a step without one).
    std::vector<double> values;
    // Rates: per step, the series' total over the step as the rounds' observation (empty for gauges).
    std::vector<Observation> observations;
};

struct StepTimeline {
    RateUnit unit;
    qint64 stepSeconds = 0;
    std::vector<TimeRange> steps;
    std::vector<StepSeries> series;      // in the order of their labels' text
    // Per step, over all series: the total and the step's length as the rounds' observation (rates; empty for
    // gauges), and the value as the series show it (gauges: NaN where no series has a profile).
    std::vector<Observation> totals;
    std::vector<double> totalValues;

    qint64 stepMs() const { return stepSeconds * 1000; }
    // The step holding `ms`, or -1.
    int stepAt(qint64 ms) const;
    bool isEmpty() const { return series.empty(); }
};

// The answer of plan.query / plan.options made into the plan's steps.
StepTimeline stepTimeline(const QList<Series> &answer, const TimelinePlan &plan);

// A range of the timeline (a brush): the steps whose start lies in it. Rates: their observations, one per step (an
// empty step an observation of 0), and estimateRate of them; gauges: estimateMean of the steps' values (steps
// without a profile left out), and no observations.
std::vector<Observation> rangeObservations(const StepTimeline &timeline, const TimeRange &range);
RateEstimate rangeEstimate(const StepTimeline &timeline, const TimeRange &range);

}   // namespace qflame::qryn
