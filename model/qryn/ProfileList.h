// The individual profiles of a query's window, as far as qryn 3.2.39 can tell them apart (grafana/pyroscope#3016
// asks for such a list). qryn serves no list of raw profiles: ClickHouse's `profiles` rows are reached only merged.
// What comes closest is SelectSeries at its finest step, 1 s: one point per series (label set) and second, whose
// value is the sum of the values_agg totals of the profiles stamped in that second (qryn.md §4.7). An ingester
// sends one profile per series every 10 s or so (Go's pprof, Pyroscope's agents), so a row is one profile; two
// profiles of one series stamped in the same second would be one row, their sum, and nothing can part them.
//
// A row opens as the merge of its second under its labels: SelectMergeStacktraces over [t, t + 999 ms] (qryn floors
// both ends to seconds and includes the end, so exactly second t) with the listed selector narrowed to the row's
// labels. A selector names labels that must be there, not the absence of others, so a series with more labels
// stamped in the same second would be merged too: the row's total tells (checkEntryTotal).
#pragma once

#include "qryn/QrynError.h"
#include "qryn/QrynTypes.h"

#include <QFuture>

#include <vector>

namespace qflame::qryn {

class QrynClient;

struct ProfileEntry {
    qint64 timestampMs = 0;   // the second the profiles were stamped in (their collection's start), ms
    LabelSet labels;          // the series' labels, service_name among them, sorted by name
    double total = 0;         // in the query type's unit: exact for integer totals below 2^53
};

// The rows of SelectSeries answers at a 1 s step within `range`: the seconds from floor(start) to floor(end), both
// included, which are those SelectMergeStacktraces merges for the range (so the rows add up to the range's merge),
// ordered by time, then by labels.
std::vector<ProfileEntry> profileEntries(const QList<Series> &series, const TimeRange &range);

// Lists the profiles of `query`'s window (SelectSeries at 1 s, no grouping, then profileEntries).
QFuture<Result<std::vector<ProfileEntry>>> listProfiles(QrynClient &client, const ProfileQuery &query);

// The query that opens one row: the row's second under `listed`'s type and selector narrowed to the row's labels
// (matchers of the row's labels added to the listed selector's, which must parse; ProfileError otherwise).
ProfileQuery entryQuery(const ProfileEntry &entry, const ProfileQuery &listed);

// The labels as a selector's body, for people: `env="ci", service_name="svc"`.
QString labelsText(const LabelSet &labels);

// Empty when the merge of an entry's query has the row's total; else one line saying the selector also matched
// profiles of another series in that second (and both totals).
QString checkEntryTotal(const ProfileEntry &entry, int64_t mergedTotal, const QString &unit);

}   // namespace qflame::qryn
