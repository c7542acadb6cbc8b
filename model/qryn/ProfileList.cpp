#include "qryn/ProfileList.h"

#include "io/ReadOptions.h"
#include "pprof/Units.h"
#include "qryn/LabelSelector.h"
#include "qryn/QrynClient.h"
#include "qryn/TimeSpec.h"

#include <algorithm>
#include <cmath>

namespace qflame::qryn {

namespace {

constexpr qint64 kSecondMs = 1000;

bool labelsLess(const LabelSet &a, const LabelSet &b)
{
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(),
                                        [](const LabelPair &x, const LabelPair &y) {
                                            return x.name != y.name ? x.name < y.name : x.value < y.value;
                                        });
}

}   // namespace

std::vector<ProfileEntry> profileEntries(const QList<Series> &series, const TimeRange &range)
{
    // The seconds SelectMergeStacktraces merges for this range: from floor(start) to floor(end), both included.
    const qint64 first = range.startMs / kSecondMs * kSecondMs, last = range.endMs / kSecondMs * kSecondMs;
    std::vector<ProfileEntry> out;
    for (const Series &s : series) {
        LabelSet labels = s.labels;
        std::sort(labels.begin(), labels.end(),
                  [](const LabelPair &a, const LabelPair &b) { return a.name < b.name; });
        for (const SeriesPoint &p : s.points)
            if (p.timestampMs >= first && p.timestampMs <= last)
                out.push_back({p.timestampMs, labels, p.value});
    }
    std::sort(out.begin(), out.end(), [](const ProfileEntry &a, const ProfileEntry &b) {
        return a.timestampMs != b.timestampMs ? a.timestampMs < b.timestampMs : labelsLess(a.labels, b.labels);
    });
    return out;
}

QFuture<Result<std::vector<ProfileEntry>>> listProfiles(QrynClient &client, const ProfileQuery &query)
{
    SeriesOptions options;
    options.stepSeconds = 1;   // qryn's finest: a bucket per second
    ProfileQuery asked = query;
    asked.range.endMs += kSecondMs;   // the client keeps points before the end; the last second is wanted too
    return client.selectSeries(asked, options)
        .then(QtFuture::Launch::Async, [range = query.range](Result<QList<Series>> r) {
            Result<std::vector<ProfileEntry>> out;
            out.error = r.error;
            if (r.ok())
                out.value = profileEntries(r.value, range);
            return out;
        });
}

ProfileQuery entryQuery(const ProfileEntry &entry, const ProfileQuery &listed)
{
    QString why;
    std::optional<QList<Matcher>> matchers = parseSelector(listed.labelSelector, &why);
    if (!matchers)
        throw ProfileError("the selector " + listed.labelSelector.toStdString() + " does not parse: " +
                           why.toStdString());
    for (const LabelPair &l : entry.labels) {
        const Matcher m{l.name, QStringLiteral("="), l.value};
        if (!matchers->contains(m))
            matchers->push_back(m);
    }
    const qint64 second = entry.timestampMs / kSecondMs * kSecondMs;
    return {listed.profileTypeId, formatSelector(*matchers), {second, second + kSecondMs - 1}};
}

QString labelsText(const LabelSet &labels)
{
    QStringList parts;
    for (const LabelPair &l : labels)
        parts << l.name + QLatin1Char('=') + quoteValue(l.value);
    return parts.join(QStringLiteral(", "));
}

QString checkEntryTotal(const ProfileEntry &entry, int64_t mergedTotal, const QString &unit)
{
    if (double(mergedTotal) == entry.total)
        return {};
    const std::string u = unit.toStdString();
    return QStringLiteral("the merge of %1 under {%2} totals %3 (%4 %5), the listed row %6 (%7): the selector also "
                          "matches profiles of another series stamped in that second (one with more labels)")
        .arg(formatTimeMs(entry.timestampMs), labelsText(entry.labels),
             QString::fromStdString(formatValue(double(mergedTotal), u)), QString::number(mergedTotal), unit,
             QString::fromStdString(formatValue(entry.total, u)), QString::number(entry.total, 'f', 0));
}

}   // namespace qflame::qryn
