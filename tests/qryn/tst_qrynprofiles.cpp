// Individual profiles and comparisons with a noise band from a server (issue 19), headless, against a real qryn
// 3.2.39 (ctest fixture qryn_rounds) holding a 20-minute series the test loads: 120 profiles at 10 s steps, each
// with samples/count and cpu/nanoseconds whose values the test chose. The list of a window's profiles
// (qryn/ProfileList.h) must give every profile's exact total at its second; a row must open as exactly that
// profile; a comparison side (qryn/ComparisonSide.h) must carry the samples:count sibling so the diff has a noise
// band. The side's combination and the entry queries are also checked without a server.
#include "diff/DiffTree.h"
#include "qryn/ComparisonSide.h"
#include "qryn/FlamegraphLevels.h"
#include "qryn/ProfileList.h"
#include "qryn/QrynClient.h"
#include "qryn/QrynFixtureEnv.h"
#include "qryn/SeriesLoad.h"
#include "qryn/StacksToTree.h"
#include "tree/CallTree.h"

#include <QDateTime>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace qflame;
using namespace qflame::qryn;

namespace {

const QString kCpu = QStringLiteral("process_cpu:cpu:nanoseconds:cpu:nanoseconds");
constexpr int kSteps = 120, kStepS = 10;

// A flamegraph of main (self `mainSelf`) calling a (self `aSelf`), as qryn encodes it (qryn.md §5.1).
MergedFlamegraph graphOf(int64_t mainSelf, int64_t aSelf, const QString &typeId)
{
    MergedFlamegraph m;
    const int64_t total = mainSelf + aSelf;
    m.graph.names = {"total", "n/a", "main", "a"};
    m.graph.levels = {{0, total, 0, 0}, {0, total, mainSelf, 2}, {0, aSelf, aSelf, 3}, {}};
    m.graph.total = total;
    ProfileType type;
    ProfileType::parse(typeId, &type);
    QString why;
    if (!buildMergedFlamegraph(&m, type, 10'000'000'000, "test", &why))
        qFatal("%s", qPrintable(why));
    return m;
}

}   // namespace

#define SKIP_WITHOUT_FIXTURE()                                                                                     \
    do {                                                                                                           \
        if (!m_env.skipReason.isEmpty())                                                                           \
            QSKIP(qPrintable(m_env.skipReason));                                                                   \
    } while (false)

class tst_QrynProfiles : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void sampleCountType_data();
    void sampleCountType();
    void sideCombinesCounts();
    void entryQueryAndCheck();
    void listsEveryProfile();
    void listSumsToTheWindow();
    void rowOpensItsProfile();
    void sideHasSampleCounts();
    void sideWithoutListedCounts();

private:
    QString selector() const { return QStringLiteral("{service_name=\"%1\"}").arg(m_series.service); }
    // `count` steps from step `first`: up to 1 ms before the next step's second, which the server would merge too.
    TimeRange window(int first, int count) const
    {
        const qint64 from = m_series.steps[size_t(first)].fromS;
        return {from * 1000, (from + count * kStepS) * 1000 - 1};
    }
    test::QrynFixtureEnv m_env;
    QTemporaryDir m_tmp;
    test::LoadedSeries m_series;
    std::unique_ptr<QrynClient> m_client;
};

void tst_QrynProfiles::initTestCase()
{
    m_env = test::readQrynFixture(QStringLiteral(QFLAME_QRYN_FIXTURE), false);
    if (!m_env.skipReason.isEmpty())
        return;   // the headless cases run; those on the fixture skip
    QVERIFY2(m_env.error.isEmpty(), qPrintable(m_env.error));
    QVERIFY(m_tmp.isValid());
    // 20 minutes ending about 10 minutes ago, on whole minutes; a service of its own.
    const qint64 first = (QDateTime::currentSecsSinceEpoch() - 1800) / 60 * 60;
    const QString service = QStringLiteral("svc-series-%1").arg(QRandomGenerator::global()->generate() % 1000000);
    m_series = test::loadSeries(m_env, QStringLiteral(QFLAME_QRYN_SCRIPT), m_tmp.path(), service, first, kSteps, kStepS);
    QVERIFY2(m_series.error.isEmpty(), qPrintable(m_series.error));
    ConnectionSettings settings;
    settings.url = m_env.url();
    m_client = std::make_unique<QrynClient>(settings);
}

void tst_QrynProfiles::sampleCountType_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<QString>("counts");
    QTest::newRow("cpu") << kCpu << "process_cpu:samples:count:cpu:nanoseconds";
    QTest::newRow("the counts themselves") << "process_cpu:samples:count:cpu:nanoseconds" << "";
    QTest::newRow("heap") << "memory:alloc_space:bytes:space:bytes" << "memory:samples:count:space:bytes";
    QTest::newRow("wall") << "wall:wall:nanoseconds:wall:nanoseconds" << "wall:samples:count:wall:nanoseconds";
}

void tst_QrynProfiles::sampleCountType()
{
    QFETCH(QString, type);
    QFETCH(QString, counts);
    ProfileType t;
    QVERIFY(ProfileType::parse(type, &t));
    QCOMPARE(sampleCountTypeId(t), counts);
}

// The two answers become one profile [samples/count, cpu/nanoseconds] stack by stack; counts the server does not
// hold (an empty flamegraph) are left out; either answer's error is the side's; nothing matched is a null profile.
void tst_QrynProfiles::sideCombinesCounts()
{
    const ProfileQuery q{kCpu, QStringLiteral("{}"), {0, 10'000}};
    Result<MergedFlamegraph> values{graphOf(10'000'000, 20'000'000, kCpu), {}};
    Result<MergedFlamegraph> counts{graphOf(1, 2, QStringLiteral("process_cpu:samples:count:cpu:nanoseconds")), {}};
    SideResult side = comparisonSide(q, values, counts);
    QVERIFY(side.ok());
    QVERIFY(side.value);
    const Profile &p = *side.value;
    QCOMPARE(p.sampleTypes.size(), size_t(2));
    QCOMPARE(p.typeName(0) + "/" + p.unitName(0), std::string("samples/count"));
    QCOMPARE(p.typeName(1) + "/" + p.unitName(1), std::string("cpu/nanoseconds"));
    QCOMPARE(p.total(0), int64_t(3));
    QCOMPARE(p.total(1), int64_t(30'000'000));
    QCOMPARE(p.durationNanos, int64_t(10'000'000'000));
    // The counts stand behind the values node by node: a's 2 samples are its 20 ms.
    const DiffSide d = DiffSide::fromProfiles({side.value}, SampleTypeInfo{"cpu", "nanoseconds"});
    QVERIFY(d.countTree);
    QCOMPARE(d.countSource, std::string("samples/count"));
    QCOMPARE(d.countTree->total(CallTree::kRoot), int64_t(3));

    Result<MergedFlamegraph> noCounts{MergedFlamegraph{}, {}};
    side = comparisonSide(q, values, noCounts);
    QVERIFY(side.ok());
    QCOMPARE(side.value, values.value.profile);   // the values alone
    side = comparisonSide(q, values, std::nullopt);
    QCOMPARE(side.value, values.value.profile);

    Result<MergedFlamegraph> failed;
    failed.error = {ErrorKind::ServerError, 500, QStringLiteral("SelectMergeStacktraces at x: HTTP 500")};
    side = comparisonSide(q, values, failed);
    QCOMPARE(side.error.message, failed.error.message);
    side = comparisonSide(q, failed, counts);
    QCOMPARE(side.error.message, failed.error.message);
    side = comparisonSide(q, Result<MergedFlamegraph>{MergedFlamegraph{}, {}}, counts);
    QVERIFY(side.ok());
    QVERIFY(!side.value);   // nothing matched
}

// A row opens as its second under the listed selector and its labels; a merge that is not the row's total says so.
void tst_QrynProfiles::entryQueryAndCheck()
{
    const ProfileEntry e{1'790'000'123'456, {{"env", "ci"}, {"service_name", "svc \"a\""}}, 9760000000.0};
    const ProfileQuery listed{kCpu, QStringLiteral("{service_name=\"svc \\\"a\\\"\"}"), {0, 1}};
    const ProfileQuery q = entryQuery(e, listed);
    QCOMPARE(q.profileTypeId, kCpu);
    QCOMPARE(q.labelSelector, QStringLiteral("{service_name=\"svc \\\"a\\\"\", env=\"ci\"}"));
    QCOMPARE(q.range.startMs, qint64(1'790'000'123'000));
    QCOMPARE(q.range.endMs, qint64(1'790'000'123'999));
    QCOMPARE(labelsText(e.labels), QStringLiteral("env=\"ci\", service_name=\"svc \\\"a\\\"\""));
    QCOMPARE(checkEntryTotal(e, 9760000000, QStringLiteral("nanoseconds")), QString());
    QCOMPARE(checkEntryTotal(e, 19420000000, QStringLiteral("nanoseconds")),
             QStringLiteral("the merge of 2026-09-21T14:15:23.456Z under {env=\"ci\", service_name=\"svc \\\"a\\\"\"} "
                            "totals 19.4 s (19420000000 nanoseconds), the listed row 9.76 s (9760000000): the "
                            "selector also matches profiles of another series stamped in that second (one with more "
                            "labels)"));
    QVERIFY_THROWS_EXCEPTION(ProfileError, entryQuery(e, {kCpu, QStringLiteral("{env=a}"), {0, 1}}));
}

void tst_QrynProfiles::listsEveryProfile()
{
    SKIP_WITHOUT_FIXTURE();
    const auto r = QrynClient::wait(listProfiles(*m_client, {kCpu, selector(), window(0, kSteps)}));
    QVERIFY2(r.ok(), qPrintable(r.error.message));
    QCOMPARE(r.value.size(), size_t(kSteps));
    const LabelSet labels{{"env", "series"}, {"service_name", m_series.service}};
    for (int i = 0; i < kSteps; ++i) {
        const ProfileEntry &e = r.value[size_t(i)];
        const test::SeriesStep &s = m_series.steps[size_t(i)];
        QCOMPARE(e.timestampMs, s.fromS * 1000);
        QCOMPARE(e.total, double(s.cpu()));   // exactly the profile's values_agg
        QCOMPARE(e.labels, labels);
    }
    // A sub-window lists its own seconds only: steps 30..39.
    const auto part = QrynClient::wait(listProfiles(*m_client, {kCpu, selector(), window(30, 10)}));
    QVERIFY2(part.ok(), qPrintable(part.error.message));
    QCOMPARE(part.value.size(), size_t(10));
    QCOMPARE(part.value.front().timestampMs, m_series.steps[30].fromS * 1000);
    QCOMPARE(part.value.back().total, double(m_series.steps[39].cpu()));
    // A window ending on a profile's second lists it, as the window's merge holds it.
    const TimeRange toStep40{m_series.steps[30].fromS * 1000, m_series.steps[40].fromS * 1000};
    const auto inclusive = QrynClient::wait(listProfiles(*m_client, {kCpu, selector(), toStep40}));
    QVERIFY2(inclusive.ok(), qPrintable(inclusive.error.message));
    QCOMPARE(inclusive.value.size(), size_t(11));
    const auto merged = QrynClient::wait(m_client->selectMergeStacktraces({kCpu, selector(), toStep40}));
    double sum = 0;
    for (const ProfileEntry &e : inclusive.value)
        sum += e.total;
    QCOMPARE(double(merged.value.graph.total), sum);
}

void tst_QrynProfiles::listSumsToTheWindow()
{
    SKIP_WITHOUT_FIXTURE();
    const ProfileQuery q{kCpu, selector(), window(0, kSteps)};
    const auto list = QrynClient::wait(listProfiles(*m_client, q));
    const auto merged = QrynClient::wait(m_client->selectMergeStacktraces(q));
    QVERIFY2(list.ok() && merged.ok(), qPrintable(list.error.message + merged.error.message));
    double sum = 0;
    int64_t ingested = 0;
    for (const ProfileEntry &e : list.value)
        sum += e.total;
    for (const test::SeriesStep &s : m_series.steps)
        ingested += s.cpu();
    QCOMPARE(merged.value.graph.total, ingested);
    QCOMPARE(sum, double(ingested));
}

// Rows 0, 37 and 119 open as their own profile: the merge of the second has the row's total and the profile's stacks.
void tst_QrynProfiles::rowOpensItsProfile()
{
    SKIP_WITHOUT_FIXTURE();
    const ProfileQuery listed{kCpu, selector(), window(0, kSteps)};
    const auto list = QrynClient::wait(listProfiles(*m_client, listed));
    QVERIFY2(list.ok(), qPrintable(list.error.message));
    QCOMPARE(list.value.size(), size_t(kSteps));
    for (int i : {0, 37, 119}) {
        const ProfileEntry &e = list.value[size_t(i)];
        const ProfileQuery q = entryQuery(e, listed);
        QCOMPARE(q.labelSelector, QStringLiteral("{service_name=\"%1\", env=\"series\"}").arg(m_series.service));
        const auto r = QrynClient::wait(m_client->selectMergeStacktraces(q));
        QVERIFY2(r.ok(), qPrintable(r.error.message));
        const test::SeriesStep &s = m_series.steps[size_t(i)];
        QCOMPARE(r.value.graph.total, s.cpu());
        QCOMPARE(checkEntryTotal(e, r.value.graph.total, QStringLiteral("nanoseconds")), QString());
        // main;work;hot holds exactly the step's hot samples.
        const FlatTable &flat = *r.value.flat;
        int64_t hot = -1;
        for (size_t row = 0; row < flat.rows().size(); ++row)
            if (flat.label(row) == "hot")
                hot = flat.rows()[row].flat;
        QCOMPARE(hot, int64_t(s.hot) * test::SeriesStep::kPeriod);
    }
}

// The first and the second 10 minutes as comparison sides: each with its samples/count sibling, so the diff has
// a noise band; per node, the counts are the loaded samples.
void tst_QrynProfiles::sideHasSampleCounts()
{
    SKIP_WITHOUT_FIXTURE();
    const ProfileQuery first{kCpu, selector(), window(0, 60)}, second{kCpu, selector(), window(60, 60)};
    const SideResult a = QrynClient::wait(fetchComparisonSide(*m_client, first));
    const SideResult b = QrynClient::wait(fetchComparisonSide(*m_client, second));
    QVERIFY2(a.ok() && b.ok(), qPrintable(a.error.message + b.error.message));
    QVERIFY(a.value && b.value);
    int64_t samples = 0, cpu = 0;
    for (int i = 0; i < 60; ++i) {
        samples += m_series.steps[size_t(i)].samples();
        cpu += m_series.steps[size_t(i)].cpu();
    }
    QCOMPARE(a.value->sampleTypes.size(), size_t(2));
    QCOMPARE(a.value->typeName(0), std::string("samples"));
    QCOMPARE(a.value->total(0), samples);
    QCOMPARE(a.value->total(1), cpu);
    QCOMPARE(a.value->durationNanos, int64_t(599'999'000'000));   // the window's length
    DiffOptions options;
    options.normalization = Normalization::PerSecond;
    const SampleTypeInfo type{"cpu", "nanoseconds"};
    const auto diff = DiffTree::build(DiffSide::fromProfiles({a.value}, type), DiffSide::fromProfiles({b.value}, type),
                                      options);
    QCOMPARE(diff->noiseDescription(),
             std::string("within noise: |delta| < 2 standard errors (counts: samples/count)"));
    QCOMPARE(diff->beforeTotalRaw(DiffTree::kRoot), cpu);
}

// Where the server's types do not list the counts (memory profiles have none), none are asked for: the noise is
// unknown, not made up.
void tst_QrynProfiles::sideWithoutListedCounts()
{
    SKIP_WITHOUT_FIXTURE();
    const QStringList known{kCpu};
    const SideResult a = QrynClient::wait(fetchComparisonSide(*m_client, {kCpu, selector(), window(0, 60)}, &known));
    const SideResult b = QrynClient::wait(fetchComparisonSide(*m_client, {kCpu, selector(), window(60, 60)}, &known));
    QVERIFY2(a.ok() && b.ok(), qPrintable(a.error.message + b.error.message));
    QCOMPARE(a.value->sampleTypes.size(), size_t(1));
    const auto diff = DiffTree::build(DiffSide::fromProfiles({a.value}, 0), DiffSide::fromProfiles({b.value}, 0));
    QCOMPARE(diff->noiseDescription(), std::string("noise unknown: neither side has sample counts (no samples/count "
                                                   "type, no period of this type)"));
}

QTEST_GUILESS_MAIN(tst_QrynProfiles)
#include "tst_qrynprofiles.moc"
