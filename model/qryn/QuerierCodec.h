// The querier.v1 protobuf messages, written and read through the protoc-generated classes: request bodies from
// plain values, answers into plain values. No network here, so all of it is tested headless.
//
// An empty body is a valid answer (the empty message): qryn 3.2.39 sends 0 bytes for "no profile types" and
// for a SelectMergeProfile that matched nothing.
#pragma once

#include "qryn/QrynTypes.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace qflame::qryn::codec {

QByteArray profileTypesRequest(const TimeRange &range);
QByteArray labelNamesRequest(const QStringList &matchers, const TimeRange &range);
QByteArray labelValuesRequest(const QString &name, const QStringList &matchers, const TimeRange &range);
QByteArray seriesRequest(const QStringList &matchers, const QStringList &labelNames, const TimeRange &range);
QByteArray selectMergeStacktracesRequest(const ProfileQuery &query);
QByteArray selectMergeProfileRequest(const ProfileQuery &query);
QByteArray selectSeriesRequest(const ProfileQuery &query, const SeriesOptions &options);
QByteArray profileStatsRequest();

// Each returns nullopt when the body is not the expected message.
std::optional<QList<ProfileType>> profileTypesResponse(const QByteArray &body);
std::optional<QStringList> labelNamesResponse(const QByteArray &body);
std::optional<QStringList> labelValuesResponse(const QByteArray &body);
std::optional<QList<LabelSet>> seriesResponse(const QByteArray &body);
// A SelectMergeStacktraces answer is first counted on the wire (names, levels, values; nothing parsed): when
// libprotobuf's message and our copy of it would take more than memoryBudget() of ReadOptions' defaults (3 bytes
// per byte of the answer + 64 MiB), it is refused with nullopt and *tooLarge says so (an answer of empty names or
// of zero values costs 40 or 16 bytes per byte decoded).
std::optional<Flamegraph> selectMergeStacktracesResponse(const QByteArray &body, QString *tooLarge = nullptr);
std::optional<QList<Series>> selectSeriesResponse(const QByteArray &body);
std::optional<ProfileStats> profileStatsResponse(const QByteArray &body);

// SelectSeries of qryn 3.2.39 ignores start and end (it always answers now-7d..now): keeps the points whose
// bucket [t, t + step) overlaps [range.startMs, range.endMs), and the series that keep a point. A server that
// honours the range (Pyroscope) loses nothing.
QList<Series> pointsInRange(const QList<Series> &series, const TimeRange &range, double stepSeconds);

// The protobuf message names, for "does not decode" messages.
const char *responseTypeName(const char *method);

}   // namespace qflame::qryn::codec
