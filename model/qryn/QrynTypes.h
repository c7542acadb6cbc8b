// What the qryn client sends and hands back, as plain values: no protobuf and no QObject, so they copy freely
// between the decoding thread and the GUI.
//
// Times are milliseconds since the epoch everywhere, because that is what the querier protocol carries (qryn
// 3.2.39 reads start/end as ms whatever the caller meant).
#pragma once

#include "layout/FlameLayout.h"
#include "pprof/Profile.h"
#include "tree/CallTree.h"
#include "tree/FlatTable.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace qflame::qryn {

struct TimeRange {
    qint64 startMs = 0;
    qint64 endMs = 0;
    qint64 lengthMs() const { return endMs - startMs; }
};

// A profile type ID, "name:sample_type:sample_unit:period_type:period_unit", e.g.
// "process_cpu:cpu:nanoseconds:cpu:nanoseconds".
struct ProfileType {
    QString id, name, sampleType, sampleUnit, periodType, periodUnit;

    // Splits an ID as qryn does (exactly five non-empty parts without ':'); false otherwise.
    static bool parse(const QString &id, ProfileType *out);
    bool operator==(const ProfileType &) const = default;
};

struct LabelPair {
    QString name, value;
    bool operator==(const LabelPair &) const = default;
};
using LabelSet = QList<LabelPair>;

// The value of a label in a set, or a null QString.
QString labelValue(const LabelSet &labels, const QString &name);

struct SeriesPoint {
    qint64 timestampMs = 0;   // start of the bucket
    double value = 0;
    bool operator==(const SeriesPoint &) const = default;
};

struct Series {
    LabelSet labels;
    QList<SeriesPoint> points;
};

enum class Aggregation { Sum, Average };

struct SeriesOptions {
    QStringList groupBy;
    double stepSeconds = 60;   // bucket width; qryn truncates it to whole seconds and refuses < 1
    Aggregation aggregation = Aggregation::Sum;
};

// What to merge: one profile type, a label selector ("" or "{}" = everything) and a time range.
struct ProfileQuery {
    QString profileTypeId;
    QString labelSelector;
    TimeRange range;
};

// What to tell people when a query's answer is empty (no profile of the type, or none in the range, or the
// selector matches nothing: the server cannot say which): "no profiles of type T match S between A and B".
QString noProfilesMessage(const ProfileQuery &query);

struct ProfileStats {
    bool dataIngested = false;
    qint64 oldestProfileMs = 0;
    qint64 newestProfileMs = 0;
};

// A flamegraph exactly as the server encodes it (qryn.md §5.1): a name table, and per depth the nodes as
// quadruples [x_offset (delta-encoded), total, self, name index]. Level 0 is the "total" root.
struct Flamegraph {
    std::vector<std::string> names;
    std::vector<std::vector<int64_t>> levels;
    int64_t total = 0;
    int64_t maxSelf = 0;
};

// SelectMergeStacktraces' answer, and the same numbers as our model: a CallTree of the query's sample type
// (function granularity, the only one the server's flamegraph has) and its flat table. These are the numbers
// to show: they are right where SelectMergeProfile's are not (qryn 3.2.39, see ExportCheck.h).
struct MergedFlamegraph {
    Flamegraph graph;
    // The flamegraph as a pprof: one sample per node with self > 0; its duration is the query window's length,
    // what per-second comparisons of two windows divide by.
    std::shared_ptr<const Profile> profile;
    std::shared_ptr<const CallTree> tree;
    std::shared_ptr<const FlameLayout> layout;   // of tree, laid out with the decode, off the GUI thread
    std::shared_ptr<const FlatTable> flat;
    bool isEmpty() const { return graph.total == 0; }
};

// SelectMergeProfile's answer: the merged pprof as served (uncompressed protobuf; empty when nothing matched),
// and that pprof decoded by our reader. For export and for line/address granularity.
struct MergedProfile {
    QByteArray pprof;
    std::shared_ptr<const Profile> profile;   // null when pprof is empty
    bool isEmpty() const { return pprof.isEmpty(); }
};

}   // namespace qflame::qryn
