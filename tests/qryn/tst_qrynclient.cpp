// The qryn client against a real qryn 3.2.39 (npm, on chdb's embedded ClickHouse), started and seeded by the ctest
// fixture qryn_fixture_up (tests/qryn/qryn-fixture.sh): every read method, with the values of tests/qryn/OBSERVED.md
// and the `qflame top` numbers of the same files.
//
// Data set: svc-base = gen__baseline.cpu + gen__heap at B (version=base, env=ci), svc-opt = gen__optimized.cpu at O
// (version=pgo, env=ci); B and O are the seconds in the fixture's seed.env.
#include "formats/ProfileInput.h"
#include "qryn/ExportCheck.h"
#include "qryn/LabelSelector.h"
#include "qryn/QrynClient.h"
#include "qryn/QrynFixtureEnv.h"
#include "qryn/SeriesText.h"
#include "tree/CallTreeBuilder.h"
#include "tree/FlatTable.h"

#include <QDateTime>
#include <QTest>

#include <map>

using namespace qflame;
using namespace qflame::qryn;

Q_DECLARE_METATYPE(qflame::qryn::TimeRange)

namespace {

const QString kCpu = QStringLiteral("process_cpu:cpu:nanoseconds:cpu:nanoseconds");
const QString kSamples = QStringLiteral("process_cpu:samples:count:cpu:nanoseconds");
const QString kAllocSpace = QStringLiteral("memory:alloc_space:bytes:space:bytes");
const QString kBase = QStringLiteral("{service_name=\"svc-base\"}");
const QString kOpt = QStringLiteral("{service_name=\"svc-opt\"}");
constexpr qint64 kHourMs = 3'600'000;

QString profilePath(const char *name)
{
    return QStringLiteral(QFLAME_QRYN_PROFILES "/") + QLatin1String(name);
}

// Function -> flat, for the functions with a flat value: what `qflame top` lists first. Labels without pprof's
// " (inline)" marker, which a server's flamegraph cannot carry.
std::map<std::string, int64_t> flatByFunction(const FlatTable &table)
{
    std::map<std::string, int64_t> out;
    for (const FlatRow &r : table.rows())
        if (r.flat != 0)
            out[table.tree().frames().label(r.frame)] = r.flat;
    return out;
}

std::shared_ptr<const FlatTable> localTop(const QStringList &files, const std::string &sampleType)
{
    std::vector<std::shared_ptr<const Profile>> profiles;
    for (const QString &f : files)
        profiles.push_back(readPprofFile(f));
    const int type = profiles.front()->findSampleType(sampleType);
    return FlatTable::compute(CallTreeBuilder::build(profiles, size_t(type)));
}

QStringList sorted(QStringList l)
{
    l.sort();
    return l;
}

using test::seriesText;

template <class T>
Result<T> get(QFuture<Result<T>> future)
{
    return QrynClient::wait(std::move(future));
}

}   // namespace

class tst_QrynClient : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void profileTypes();
    void labelNames_data();
    void labelNames();
    void labelValues_data();
    void labelValues();
    void series();
    void selectMergeStacktraces_data();
    void selectMergeStacktraces();
    void flamegraphEqualsLocalTop_data();
    void flamegraphEqualsLocalTop();
    void timeWindows_data();
    void timeWindows();
    void selectSeries_data();
    void selectSeries();
    void selectMergeProfile_data();
    void selectMergeProfile();
    void exportCheckReportsTheInflation_data();
    void exportCheckReportsTheInflation();
    void profileStats();
    void connectProtocolAndParallelRequests();

private:
    ProfileQuery query(const QString &type, const QString &selector) const { return {type, selector, m_range}; }

    test::QrynFixtureEnv m_env;
    std::unique_ptr<QrynClient> m_client;
    TimeRange m_range;           // now-1h .. now
    TimeRange m_threeDaysAgo;    // a 1 h window with no data
    qint64 m_b = 0, m_o = 0;     // the load times of svc-base and svc-opt, s
};

void tst_QrynClient::initTestCase()
{
    m_env = test::readQrynFixture(QStringLiteral(QFLAME_QRYN_FIXTURE));
    if (!m_env.skipReason.isEmpty())
        QSKIP(qPrintable(m_env.skipReason));
    QVERIFY2(m_env.error.isEmpty(), qPrintable(m_env.error));
    m_b = m_env.number(QStringLiteral("SEED_BASE_FROM_S"));
    m_o = m_env.number(QStringLiteral("SEED_OPT_FROM_S"));
    QCOMPARE(m_o - m_b, 300);
    ConnectionSettings s;
    s.url = m_env.url();
    s.timeoutMs = 20'000;
    m_client = std::make_unique<QrynClient>(s);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    m_range = {now - kHourMs, now};
    m_threeDaysAgo = {now - 72 * kHourMs, now - 71 * kHourMs};
}

void tst_QrynClient::profileTypes()
{
    const auto r = get(m_client->profileTypes(m_range));
    QVERIFY2(r.ok(), qPrintable(r.error.message));
    QStringList got;
    for (const ProfileType &t : r.value)
        got << QStringList{t.id, t.name, t.sampleType, t.sampleUnit, t.periodType, t.periodUnit}.join(u' ');
    QCOMPARE(sorted(got), (QStringList{
                              "memory:alloc_objects:count:space:bytes memory alloc_objects count space bytes",
                              "memory:alloc_space:bytes:space:bytes memory alloc_space bytes space bytes",
                              "memory:inuse_objects:count:space:bytes memory inuse_objects count space bytes",
                              "memory:inuse_space:bytes:space:bytes memory inuse_space bytes space bytes",
                              "process_cpu:cpu:nanoseconds:cpu:nanoseconds process_cpu cpu nanoseconds cpu nanoseconds",
                              "process_cpu:samples:count:cpu:nanoseconds process_cpu samples count cpu nanoseconds",
                          }));
}

void tst_QrynClient::labelNames_data()
{
    QTest::addColumn<QStringList>("matchers");
    QTest::addColumn<bool>("recent");
    QTest::addColumn<QStringList>("expected");
    const QStringList all{"env", "service_name", "version"};
    QTest::newRow("all") << QStringList{} << true << all;
    QTest::newRow("svc-base") << QStringList{kBase} << true << all;
    QTest::newRow("3 days ago") << QStringList{} << false << QStringList{};
}

void tst_QrynClient::labelNames()
{
    QFETCH(QStringList, matchers);
    QFETCH(bool, recent);
    QFETCH(QStringList, expected);
    const auto r = get(m_client->labelNames(matchers, recent ? m_range : m_threeDaysAgo));
    QVERIFY2(r.ok(), qPrintable(r.error.message));
    QCOMPARE(sorted(r.value), expected);
}

void tst_QrynClient::labelValues_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QStringList>("matchers");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("service_name") << "service_name" << QStringList{} << QStringList{"svc-base", "svc-opt"};
    QTest::newRow("version") << "version" << QStringList{} << QStringList{"base", "pgo"};
    QTest::newRow("env") << "env" << QStringList{} << QStringList{"ci"};
    QTest::newRow("version of svc-opt") << "version" << QStringList{kOpt} << QStringList{"pgo"};
    QTest::newRow("built selector") << "service_name"
                                    << QStringList{formatSelector({{"version", "=", "base"}})}
                                    << QStringList{"svc-base"};
}

void tst_QrynClient::labelValues()
{
    QFETCH(QString, name);
    QFETCH(QStringList, matchers);
    QFETCH(QStringList, expected);
    const auto r = get(m_client->labelValues(name, matchers, m_range));
    QVERIFY2(r.ok(), qPrintable(r.error.message));
    QCOMPARE(sorted(r.value), expected);
}

void tst_QrynClient::series()
{
    const QString selector =
        formatSelector({{"service_name", "=", "svc-base"}, {"__profile_type__", "=", kCpu}});
    const auto r = get(m_client->series({selector}, {}, m_range));
    QVERIFY2(r.ok(), qPrintable(r.error.message));
    QStringList got;
    for (const LabelSet &set : r.value) {
        QStringList labels;
        for (const LabelPair &l : set)
            labels << l.name + QLatin1Char('=') + l.value;
        labels.sort();
        got << labels.join(QLatin1Char(','));
    }
    const QString common = QStringLiteral("__name__=process_cpu,__period_type__=cpu,__period_unit__=nanoseconds,");
    QCOMPARE(sorted(got),
             (QStringList{common + "__profile_type__=process_cpu:cpu:nanoseconds:cpu:nanoseconds,__sample_type__=cpu,"
                                   "__sample_unit__=nanoseconds,env=ci,service_name=svc-base,version=base",
                          common + "__profile_type__=process_cpu:samples:count:cpu:nanoseconds,__sample_type__=samples,"
                                   "__sample_unit__=count,env=ci,service_name=svc-base,version=base"}));
    // label_names limits what comes back.
    const auto limited = get(m_client->series({selector}, {"__sample_type__"}, m_range));
    QVERIFY2(limited.ok(), qPrintable(limited.error.message));
    QStringList types;
    for (const LabelSet &set : limited.value) {
        QCOMPARE(set.size(), 1);
        types << labelValue(set, "__sample_type__");
    }
    QCOMPARE(sorted(types), (QStringList{"cpu", "samples"}));
}

void tst_QrynClient::selectMergeStacktraces_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<QString>("selector");
    QTest::addColumn<qint64>("total");
    QTest::addColumn<qint64>("maxSelf");   // -1: not recorded
    QTest::addColumn<int>("names");        // -1: not recorded
    QTest::addColumn<int>("levels");
    QTest::newRow("cpu svc-base") << kCpu << kBase << 9760000000LL << 1920000000LL << 176 << 26;
    QTest::newRow("samples svc-base") << kSamples << kBase << 976LL << 192LL << 176 << 26;
    QTest::newRow("cpu svc-opt") << kCpu << kOpt << 9660000000LL << 1150000000LL << 150 << 26;
    QTest::newRow("samples svc-opt") << kSamples << kOpt << 966LL << 115LL << 150 << 26;
    QTest::newRow("cpu {}") << kCpu << "{}" << 19420000000LL << 3070000000LL << 197 << 26;
    QTest::newRow("cpu empty selector") << kCpu << "" << 19420000000LL << 3070000000LL << 197 << 26;
    QTest::newRow("two matchers") << kCpu << "{service_name=\"svc-base\",version=\"base\"}" << 9760000000LL
                                  << 1920000000LL << 176 << 26;
    QTest::newRow("no such combination") << kCpu << "{service_name=\"svc-base\", version=\"pgo\"}" << 0LL << 0LL
                                         << 2 << 2;
    QTest::newRow("version pgo") << kCpu << "{version=\"pgo\"}" << 9660000000LL << -1LL << -1 << -1;
    QTest::newRow("not pgo") << kCpu << "{version!=\"pgo\"}" << 9760000000LL << -1LL << -1 << -1;
    QTest::newRow("unanchored regex") << kCpu << "{version=~\"as\"}" << 9760000000LL << -1LL << -1 << -1;
    QTest::newRow("anchoredRegex") << kCpu << formatSelector({{"version", "=~", anchoredRegex("as")}}) << 0LL << 0LL
                                   << 2 << 2;
    QTest::newRow("anchored by hand") << kCpu << "{version=~\"^base$\"}" << 9760000000LL << -1LL << -1 << -1;
    QTest::newRow("not matching b") << kCpu << "{version!~\"b\"}" << 9660000000LL << -1LL << -1 << -1;
    QTest::newRow("no braces") << kCpu << "service_name=\"svc-base\"" << 9760000000LL << -1LL << -1 << -1;
    QTest::newRow("alloc_space") << kAllocSpace << kBase << 62869263LL << 27297726LL << 30 << 11;
    QTest::newRow("inuse_space") << "memory:inuse_space:bytes:space:bytes" << kBase << 21286415LL << 13107201LL
                                 << 30 << 11;
    QTest::newRow("alloc_objects") << "memory:alloc_objects:count:space:bytes" << kBase << 307827LL << 201567LL
                                   << 30 << 11;
    QTest::newRow("inuse_objects") << "memory:inuse_objects:count:space:bytes" << kBase << 82191LL << 51011LL
                                   << 30 << 11;
}

void tst_QrynClient::selectMergeStacktraces()
{
    QFETCH(QString, type);
    QFETCH(QString, selector);
    QFETCH(qint64, total);
    QFETCH(qint64, maxSelf);
    QFETCH(int, names);
    QFETCH(int, levels);
    const auto r = get(m_client->selectMergeStacktraces(query(type, selector)));
    QVERIFY2(r.ok(), qPrintable(r.error.message));
    const MergedFlamegraph &m = r.value;
    QCOMPARE(m.graph.total, total);
    if (maxSelf >= 0)
        QCOMPARE(m.graph.maxSelf, maxSelf);
    if (names >= 0)
        QCOMPARE(int(m.graph.names.size()), names);
    if (levels >= 0)
        QCOMPARE(int(m.graph.levels.size()), levels);
    QCOMPARE(m.graph.names.at(0), std::string("total"));
    QCOMPARE(m.graph.levels.at(0), (std::vector<int64_t>{0, total, 0, 0}));
    QVERIFY(m.graph.levels.back().empty());
    // The same numbers as our model, with the query's sample type.
    ProfileType t;
    QVERIFY(ProfileType::parse(type, &t));
    QCOMPARE(m.tree->total(CallTree::kRoot), total);
    QCOMPARE(m.flat->total(), total);
    QCOMPARE(QString::fromStdString(m.tree->sampleType().type), t.sampleType);
    QCOMPARE(QString::fromStdString(m.tree->sampleType().unit), t.sampleUnit);
    QCOMPARE(m.isEmpty(), total == 0);
    QCOMPARE(m.tree->durationNanos(), kHourMs * 1'000'000);   // the window, for per-second comparisons
}

void tst_QrynClient::flamegraphEqualsLocalTop_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<QString>("selector");
    QTest::addColumn<QStringList>("files");
    QTest::addColumn<QString>("sampleType");
    const QString base = profilePath("gen__baseline.cpu.pb.gz"), opt = profilePath("gen__optimized.cpu.pb.gz");
    QTest::newRow("cpu svc-base") << kCpu << kBase << QStringList{base} << "cpu";
    QTest::newRow("samples svc-base") << kSamples << kBase << QStringList{base} << "samples";
    QTest::newRow("cpu svc-opt") << kCpu << kOpt << QStringList{opt} << "cpu";
    QTest::newRow("cpu both merged") << kCpu << "{}" << QStringList{base, opt} << "cpu";
    QTest::newRow("alloc_space") << kAllocSpace << kBase << QStringList{profilePath("gen__heap.pb.gz")}
                                 << "alloc_space";
}

// The totals and every function's flat value equal `qflame top` of the same files (cum differs where inlined
// callers are involved: qryn keeps only the innermost function of a location).
void tst_QrynClient::flamegraphEqualsLocalTop()
{
    QFETCH(QString, type);
    QFETCH(QString, selector);
    QFETCH(QStringList, files);
    QFETCH(QString, sampleType);
    const auto r = get(m_client->selectMergeStacktraces(query(type, selector)));
    QVERIFY2(r.ok(), qPrintable(r.error.message));
    const auto local = localTop(files, sampleType.toStdString());
    QCOMPARE(r.value.flat->total(), local->total());
    const auto remoteFlat = flatByFunction(*r.value.flat), localFlat = flatByFunction(*local);
    QVERIFY(localFlat.size() > 10);
    QCOMPARE(remoteFlat, localFlat);
}

void tst_QrynClient::timeWindows_data()
{
    QTest::addColumn<qint64>("start");
    QTest::addColumn<qint64>("end");
    QTest::addColumn<qint64>("total");
    const qint64 b = m_b * 1000, o = m_o * 1000;
    QTest::newRow("the base second") << b << b + 999 << 9760000000LL;
    QTest::newRow("between the two") << b + 1000 << o - 1000 << 0LL;
    QTest::newRow("from opt on") << o << m_range.endMs << 9660000000LL;
    QTest::newRow("start = end = opt (both ends count)") << o << o << 9660000000LL;
    QTest::newRow("3 days ago") << m_threeDaysAgo.startMs << m_threeDaysAgo.endMs << 0LL;
    QTest::newRow("start after end") << m_range.endMs << m_range.startMs << 0LL;
}

void tst_QrynClient::timeWindows()
{
    QFETCH(qint64, start);
    QFETCH(qint64, end);
    QFETCH(qint64, total);
    const auto r = get(m_client->selectMergeStacktraces({kCpu, "{}", {start, end}}));
    QVERIFY2(r.ok(), qPrintable(r.error.message));
    QCOMPARE(r.value.graph.total, total);
    QCOMPARE(r.value.tree->total(CallTree::kRoot), total);
    if (total == 0) {   // qryn's empty flamegraph, exactly
        QCOMPARE(r.value.graph.names, (std::vector<std::string>{"total", "n/a"}));
        QCOMPARE(r.value.graph.levels, (std::vector<std::vector<int64_t>>{{0, 0, 0, 0}, {}}));
        QCOMPARE(r.value.tree->size(), size_t(1));
    }
}

void tst_QrynClient::selectSeries_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<QString>("selector");
    QTest::addColumn<double>("step");
    QTest::addColumn<QStringList>("groupBy");
    QTest::addColumn<TimeRange>("range");
    QTest::addColumn<QStringList>("expected");
    auto at = [](qint64 s, qint64 step) { return QString::number(s / step * step * 1000); };
    const TimeRange now = m_range;
    QTest::newRow("cpu by service, 60 s")
        << kCpu << "{}" << 60.0 << QStringList{"service_name"} << now
        << QStringList{"service_name=svc-base@" + at(m_b, 60) + "=9760000000",
                       "service_name=svc-opt@" + at(m_o, 60) + "=9660000000"};
    QTest::newRow("cpu, all labels") << kCpu << "{}" << 60.0 << QStringList{} << now
                                     << QStringList{"env=ci,service_name=svc-base,version=base@" + at(m_b, 60) +
                                                        "=9760000000",
                                                    "env=ci,service_name=svc-opt,version=pgo@" + at(m_o, 60) +
                                                        "=9660000000"};
    QTest::newRow("samples by version, 15 s") << kSamples << kBase << 15.0 << QStringList{"version"} << now
                                              << QStringList{"version=base@" + at(m_b, 15) + "=976"};
    QTest::newRow("cpu, hourly") << kCpu << "{}" << 3600.0 << QStringList{"service_name"} << now
                                 << QStringList{"service_name=svc-base@" + at(m_b, 3600) + "=9760000000",
                                                "service_name=svc-opt@" + at(m_o, 3600) + "=9660000000"};
    // qryn 3.2.39 answers these two with the same points as above (it ignores the range); the client keeps the
    // buckets that overlap the range.
    QTest::newRow("from opt on: base dropped")
        << kCpu << "{}" << 60.0 << QStringList{"service_name"} << TimeRange{m_o * 1000, m_range.endMs}
        << QStringList{"service_name=svc-opt@" + at(m_o, 60) + "=9660000000"};
    QTest::newRow("3 days ago: nothing") << kCpu << "{}" << 60.0 << QStringList{"service_name"}
                                         << m_threeDaysAgo << QStringList{};
    QTest::newRow("unknown type") << "nope:nope:nope:nope:nope" << "{}" << 60.0 << QStringList{} << now
                                  << QStringList{};
}

void tst_QrynClient::selectSeries()
{
    QFETCH(QString, type);
    QFETCH(QString, selector);
    QFETCH(double, step);
    QFETCH(QStringList, groupBy);
    QFETCH(TimeRange, range);
    QFETCH(QStringList, expected);
    SeriesOptions options;
    options.stepSeconds = step;
    options.groupBy = groupBy;
    const auto r = get(m_client->selectSeries({type, selector, range}, options));
    QVERIFY2(r.ok(), qPrintable(r.error.message));
    QCOMPARE(seriesText(r.value), expected);
}

void tst_QrynClient::selectMergeProfile_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<QString>("selector");
    QTest::addColumn<int>("samples");
    QTest::addColumn<QStringList>("sampleTypes");
    QTest::addColumn<QList<qint64>>("totals");   // inflated by qryn 3.2.39, as served
    QTest::addColumn<QString>("period");
    QTest::addColumn<qint64>("duration");
    const QStringList cpuTypes{"samples/count", "cpu/nanoseconds"};
    QTest::newRow("cpu svc-base") << kCpu << kBase << 611 << cpuTypes << QList<qint64>{1587, 15870000000}
                                  << "10000000 cpu/nanoseconds" << 10111935549LL;
    QTest::newRow("cpu svc-opt") << kCpu << kOpt << 632 << cpuTypes << QList<qint64>{1598, 15980000000}
                                 << "10000000 cpu/nanoseconds" << -1LL;
    QTest::newRow("cpu {}") << kCpu << "{}" << 1083 << cpuTypes << QList<qint64>{3025, 30250000000}
                            << "10000000 cpu/nanoseconds" << 20268291059LL;
    QTest::newRow("heap") << kAllocSpace << kBase << 15
                          << QStringList{"alloc_objects/count", "alloc_space/bytes", "inuse_objects/count",
                                         "inuse_space/bytes"}
                          << QList<qint64>{417075, 98904639, 116597, 37381955} << "4096 space/bytes" << 0LL;
}

void tst_QrynClient::selectMergeProfile()
{
    QFETCH(QString, type);
    QFETCH(QString, selector);
    QFETCH(int, samples);
    QFETCH(QStringList, sampleTypes);
    QFETCH(QList<qint64>, totals);
    QFETCH(QString, period);
    QFETCH(qint64, duration);
    const auto r = get(m_client->selectMergeProfile(query(type, selector)));
    QVERIFY2(r.ok(), qPrintable(r.error.message));
    QVERIFY(!r.value.isEmpty());
    const Profile &p = *r.value.profile;   // decoded by readPprof
    QCOMPARE(int(p.sampleCount()), samples);
    QStringList types;
    QList<qint64> gotTotals;
    for (size_t i = 0; i < p.sampleTypes.size(); ++i) {
        types << QString::fromStdString(p.typeName(i) + "/" + p.unitName(i));
        gotTotals << p.total(i);
    }
    QCOMPARE(types, sampleTypes);
    QCOMPARE(gotTotals, totals);
    QCOMPARE(QString::fromStdString(std::to_string(p.period) + " " + std::string(p.str(p.periodType.type)) + "/" +
                                    std::string(p.str(p.periodType.unit))),
             period);
    if (duration >= 0)
        QCOMPARE(p.durationNanos, duration);
    // The bytes are the served pprof: reading them again gives the same profile.
    QCOMPARE(readPprof(r.value.pprof.toStdString(), "again")->total(1), totals.at(1));
}

void tst_QrynClient::exportCheckReportsTheInflation_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<qint64>("flamegraph");
    QTest::addColumn<qint64>("exported");
    QTest::addColumn<QString>("message");
    QTest::newRow("cpu") << kCpu << 9760000000LL << 15870000000LL
                         << "the merged pprof (SelectMergeProfile) has a cpu/nanoseconds total of 15870000000 (15.9 s), "
                            "the flamegraph (SelectMergeStacktraces) 9760000000 (9.76 s) (+62.6%); qryn 3.2.39 inflates "
                            "SelectMergeProfile values (a known server bug), so the flamegraph's numbers are the right "
                            "ones";
    QTest::newRow("alloc_space") << kAllocSpace << 62869263LL << 98904639LL
                                 << "the merged pprof (SelectMergeProfile) has a alloc_space/bytes total of 98904639 "
                                    "(94.3 MiB), the flamegraph (SelectMergeStacktraces) 62869263 (60.0 MiB) (+57.3%); "
                                    "qryn 3.2.39 inflates SelectMergeProfile values (a known server bug), so the "
                                    "flamegraph's numbers are the right ones";
}

void tst_QrynClient::exportCheckReportsTheInflation()
{
    QFETCH(QString, type);
    QFETCH(qint64, flamegraph);
    QFETCH(qint64, exported);
    QFETCH(QString, message);
    auto graphFuture = m_client->selectMergeStacktraces(query(type, kBase));
    auto profileFuture = m_client->selectMergeProfile(query(type, kBase));
    const auto graph = get(graphFuture);
    const auto profile = get(profileFuture);
    QVERIFY2(graph.ok() && profile.ok(), qPrintable(graph.error.message + profile.error.message));
    ProfileType t;
    QVERIFY(ProfileType::parse(type, &t));
    const TotalsCheck c = checkExportTotals(graph.value.graph.total, profile.value.profile.get(), t);
    QVERIFY(!c.agree);
    QVERIFY(c.exportHasType);
    QCOMPARE(c.flamegraphTotal, flamegraph);
    QCOMPARE(c.exportTotal, exported);
    QCOMPARE(c.message, message);
}

void tst_QrynClient::profileStats()
{
    const auto r = get(m_client->profileStats());
    QVERIFY2(r.ok(), qPrintable(r.error.message));
    QCOMPARE(r.value.dataIngested, true);
    QCOMPARE(r.value.oldestProfileMs, m_b * 1000);
    QCOMPARE(r.value.newestProfileMs, m_o * 1000);
}

void tst_QrynClient::connectProtocolAndParallelRequests()
{
    ConnectionSettings s = m_client->settings();
    s.protocol = WireProtocol::Connect;   // qryn ignores the Connect header: same answers
    QrynClient client(s);
    std::vector<QFuture<Result<MergedFlamegraph>>> graphs;
    for (const QString &selector : {kBase, kOpt, QStringLiteral("{}"), kBase, kOpt, QStringLiteral("{}")})
        graphs.push_back(client.selectMergeStacktraces(query(kCpu, selector)));
    auto types = client.profileTypes(m_range);
    auto stats = client.profileStats();
    QCOMPARE(client.pendingCount(), 8);
    const qint64 expected[] = {9760000000, 9660000000, 19420000000, 9760000000, 9660000000, 19420000000};
    for (size_t i = 0; i < graphs.size(); ++i) {
        const auto r = get(graphs[i]);
        QVERIFY2(r.ok(), qPrintable(r.error.message));
        QCOMPARE(r.value.graph.total, expected[i]);
    }
    QCOMPARE(get(types).value.size(), 6);
    QCOMPARE(get(stats).value.newestProfileMs, m_o * 1000);
    QCOMPARE(client.pendingCount(), 0);
}

QTEST_GUILESS_MAIN(tst_QrynClient)
#include "tst_qrynclient.moc"
