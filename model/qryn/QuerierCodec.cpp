#include "qryn/QuerierCodec.h"

#include "io/ReadOptions.h"
#include "querier.pb.h"
#include "types/v1/types.pb.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include <cmath>
#include <cstring>

namespace qflame::qryn::codec {

namespace {

QByteArray serialize(const google::protobuf::MessageLite &m)
{
    QByteArray out(qsizetype(m.ByteSizeLong()), Qt::Uninitialized);
    m.SerializeToArray(out.data(), int(out.size()));
    return out;
}

template <class M>
std::optional<M> parse(const QByteArray &body)
{
    M m;
    if (!m.ParseFromArray(body.constData(), int(body.size())))
        return std::nullopt;
    return m;
}

std::string utf8(const QString &s)
{
    return s.toStdString();
}

QString qstr(const std::string &s)
{
    return QString::fromStdString(s);
}

template <class Repeated>
void addAll(Repeated *field, const QStringList &values)
{
    for (const QString &v : values)
        field->Add(utf8(v));
}

template <class Repeated>
QStringList toStringList(const Repeated &field)
{
    QStringList out;
    out.reserve(field.size());
    for (const std::string &s : field)
        out << qstr(s);
    return out;
}

template <class Repeated>
LabelSet toLabels(const Repeated &pairs)
{
    LabelSet out;
    for (const types::v1::LabelPair &l : pairs)
        out.push_back({qstr(l.name()), qstr(l.value())});
    return out;
}

template <class Request>
void setQuery(Request *r, const ProfileQuery &q)
{
    r->set_profile_typeid(utf8(q.profileTypeId));
    r->set_label_selector(utf8(q.labelSelector));
    r->set_start(q.range.startMs);
    r->set_end(q.range.endMs);
}

// What a SelectMergeStacktraces answer holds, counted from its wire format by libprotobuf's CodedInputStream
// without making a message: every value takes at least one byte there and 8 in memory, every name 2 bytes there
// and 40 in a message (std::string and its pointer).
struct FlamegraphCount {
    uint64_t names = 0, nameHeap = 0, levels = 0, values = 0;
};

bool countFlamegraph(const QByteArray &body, FlamegraphCount *c)
{
    namespace io = google::protobuf::io;
    using google::protobuf::internal::WireFormatLite;
    io::CodedInputStream in(reinterpret_cast<const uint8_t *>(body.constData()), int(body.size()));
    in.SetTotalBytesLimit(INT_MAX);
    auto lengthThen = [&in](auto &&inside) {
        uint32_t length = 0;
        if (!in.ReadVarint32(&length))
            return false;
        const io::CodedInputStream::Limit limit = in.PushLimit(int(length));
        const bool ok = inside(length);
        in.PopLimit(limit);
        return ok;
    };
    for (uint32_t tag; (tag = in.ReadTag()) != 0;) {
        if (tag != (1u << 3 | 2)) {   // not the flamegraph (the tree bytes, unknown fields): its size is its cost
            if (!WireFormatLite::SkipField(&in, tag))
                return false;
            continue;
        }
        const bool ok = lengthThen([&](uint32_t) {
            for (uint32_t t; (t = in.ReadTag()) != 0;) {
                if (t == (1u << 3 | 2)) {   // a name
                    if (!lengthThen([&](uint32_t length) {
                            ++c->names;
                            c->nameHeap += length > 15 ? length + 1 : 0;
                            return in.Skip(int(length));
                        }))
                        return false;
                } else if (t == (2u << 3 | 2)) {   // a level
                    ++c->levels;
                    if (!lengthThen([&](uint32_t) {
                            for (uint32_t v; (v = in.ReadTag()) != 0;) {
                                if (v == (1u << 3 | 2)) {   // packed values: one byte at least each
                                    if (!lengthThen([&](uint32_t length) {
                                            c->values += length;
                                            return in.Skip(int(length));
                                        }))
                                        return false;
                                } else {
                                    c->values += v == (1u << 3 | 0);
                                    if (!WireFormatLite::SkipField(&in, v))
                                        return false;
                                }
                            }
                            return true;
                        }))
                        return false;
                } else if (!WireFormatLite::SkipField(&in, t)) {
                    return false;
                }
            }
            return true;
        });
        if (!ok)
            return false;
    }
    return true;
}

}   // namespace

QByteArray profileTypesRequest(const TimeRange &range)
{
    querier::v1::ProfileTypesRequest r;
    r.set_start(range.startMs);
    r.set_end(range.endMs);
    return serialize(r);
}

QByteArray labelNamesRequest(const QStringList &matchers, const TimeRange &range)
{
    types::v1::LabelNamesRequest r;
    addAll(r.mutable_matchers(), matchers);
    r.set_start(range.startMs);
    r.set_end(range.endMs);
    return serialize(r);
}

QByteArray labelValuesRequest(const QString &name, const QStringList &matchers, const TimeRange &range)
{
    types::v1::LabelValuesRequest r;
    r.set_name(utf8(name));
    addAll(r.mutable_matchers(), matchers);
    r.set_start(range.startMs);
    r.set_end(range.endMs);
    return serialize(r);
}

QByteArray seriesRequest(const QStringList &matchers, const QStringList &labelNames, const TimeRange &range)
{
    querier::v1::SeriesRequest r;
    addAll(r.mutable_matchers(), matchers);
    addAll(r.mutable_label_names(), labelNames);
    r.set_start(range.startMs);
    r.set_end(range.endMs);
    return serialize(r);
}

QByteArray selectMergeStacktracesRequest(const ProfileQuery &query)
{
    querier::v1::SelectMergeStacktracesRequest r;
    setQuery(&r, query);
    return serialize(r);
}

QByteArray selectMergeProfileRequest(const ProfileQuery &query)
{
    querier::v1::SelectMergeProfileRequest r;
    setQuery(&r, query);
    return serialize(r);
}

QByteArray selectSeriesRequest(const ProfileQuery &query, const SeriesOptions &options)
{
    querier::v1::SelectSeriesRequest r;
    setQuery(&r, query);
    addAll(r.mutable_group_by(), options.groupBy);
    r.set_step(options.stepSeconds);
    // Only sent when not the default: qryn 3.2.39 answers AVERAGE with HTTP 500, and SUM is what it does anyway.
    if (options.aggregation == Aggregation::Average)
        r.set_aggregation(types::v1::TIME_SERIES_AGGREGATION_TYPE_AVERAGE);
    return serialize(r);
}

QByteArray profileStatsRequest()
{
    return serialize(types::v1::GetProfileStatsRequest());
}

std::optional<QList<ProfileType>> profileTypesResponse(const QByteArray &body)
{
    const auto m = parse<querier::v1::ProfileTypesResponse>(body);
    if (!m)
        return std::nullopt;
    QList<ProfileType> out;
    for (const types::v1::ProfileType &t : m->profile_types())
        out.push_back({qstr(t.id()), qstr(t.name()), qstr(t.sample_type()), qstr(t.sample_unit()),
                       qstr(t.period_type()), qstr(t.period_unit())});
    return out;
}

std::optional<QStringList> labelNamesResponse(const QByteArray &body)
{
    const auto m = parse<types::v1::LabelNamesResponse>(body);
    return m ? std::optional(toStringList(m->names())) : std::nullopt;
}

std::optional<QStringList> labelValuesResponse(const QByteArray &body)
{
    const auto m = parse<types::v1::LabelValuesResponse>(body);
    return m ? std::optional(toStringList(m->names())) : std::nullopt;
}

std::optional<QList<LabelSet>> seriesResponse(const QByteArray &body)
{
    const auto m = parse<querier::v1::SeriesResponse>(body);
    if (!m)
        return std::nullopt;
    QList<LabelSet> out;
    for (const types::v1::Labels &l : m->labels_set())
        out.push_back(toLabels(l.labels()));
    return out;
}

std::optional<Flamegraph> selectMergeStacktracesResponse(const QByteArray &body, QString *tooLarge)
{
    // The message and our copy: names (a std::string and a pointer in the message, the string moved to ours),
    // levels (a message, a pointer and a vector), values (8 bytes in each).
    FlamegraphCount c;
    if (countFlamegraph(body, &c)) {
        const uint64_t need = c.names * 72 + c.nameHeap + c.levels * 96 + c.values * 16;
        const uint64_t budget = memoryBudget(ReadOptions{}, uint64_t(body.size()));
        if (need > budget) {
            if (tooLarge)
                *tooLarge = QStringLiteral("its flamegraph (%1 names, %2 levels, %3 values in %4 bytes) would take %5 "
                                           "bytes in memory to decode, more than the limit of %6 (3 per byte of the "
                                           "answer + 64 MiB): no real flamegraph is shaped so")
                                .arg(c.names).arg(c.levels).arg(c.values).arg(body.size()).arg(need).arg(budget);
            return std::nullopt;
        }
    }
    auto m = parse<querier::v1::SelectMergeStacktracesResponse>(body);
    if (!m)
        return std::nullopt;
    querier::v1::FlameGraph &fg = *m->mutable_flamegraph();
    Flamegraph out;
    out.names.reserve(size_t(fg.names_size()));
    for (std::string &name : *fg.mutable_names())
        out.names.push_back(std::move(name));   // moved, not copied: a name is in memory once
    out.levels.reserve(size_t(fg.levels_size()));
    for (const querier::v1::Level &l : fg.levels())
        out.levels.emplace_back(l.values().begin(), l.values().end());
    out.total = fg.total();
    out.maxSelf = fg.max_self();
    return out;
}

std::optional<QList<Series>> selectSeriesResponse(const QByteArray &body)
{
    const auto m = parse<querier::v1::SelectSeriesResponse>(body);
    if (!m)
        return std::nullopt;
    QList<Series> out;
    for (const types::v1::Series &s : m->series()) {
        Series series;
        series.labels = toLabels(s.labels());
        for (const types::v1::Point &p : s.points())
            series.points.push_back({p.timestamp(), p.value()});
        out.push_back(std::move(series));
    }
    return out;
}

std::optional<ProfileStats> profileStatsResponse(const QByteArray &body)
{
    const auto m = parse<types::v1::GetProfileStatsResponse>(body);
    if (!m)
        return std::nullopt;
    return ProfileStats{m->data_ingested(), m->oldest_profile_time(), m->newest_profile_time()};
}

QList<Series> pointsInRange(const QList<Series> &series, const TimeRange &range, double stepSeconds)
{
    const qint64 stepMs = std::max<qint64>(1, qint64(std::llround(stepSeconds * 1000)));
    QList<Series> out;
    for (const Series &s : series) {
        Series kept{s.labels, {}};
        for (const SeriesPoint &p : s.points)
            if (p.timestampMs < range.endMs && p.timestampMs + stepMs > range.startMs)
                kept.points.push_back(p);
        if (!kept.points.isEmpty())
            out.push_back(std::move(kept));
    }
    return out;
}

const char *responseTypeName(const char *method)
{
    static const struct {
        const char *method, *type;
    } kTypes[] = {
        {"ProfileTypes", "querier.v1.ProfileTypesResponse"},
        {"LabelNames", "types.v1.LabelNamesResponse"},
        {"LabelValues", "types.v1.LabelValuesResponse"},
        {"Series", "querier.v1.SeriesResponse"},
        {"SelectMergeStacktraces", "querier.v1.SelectMergeStacktracesResponse"},
        {"SelectMergeProfile", "google.v1.Profile (pprof)"},
        {"SelectSeries", "querier.v1.SelectSeriesResponse"},
        {"GetProfileStats", "types.v1.GetProfileStatsResponse"},
    };
    for (const auto &t : kTypes)
        if (std::strcmp(t.method, method) == 0)
            return t.type;
    return "the expected answer";
}

}   // namespace qflame::qryn::codec
