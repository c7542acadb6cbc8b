// The explorer's query grouped by a label (qryn/LabelGroups.h) against a real qryn 3.2.39 (the rounds' fixture):
// three builds of one service side by side, version=v1|v2|v3, each sending one profile per 10 s step for five
// minutes with totals the test chose. Grouped by version: a row per version whose total is what was loaded for it,
// whose rate ± SE is the rounds' ratio estimator over its 30 steps worked out here, and whose share is its part of
// the three totals; with room for two values, the third is "other", with its own steps.
#include "ProfileFactory.h"
#include "diff/DiffTable.h"
#include "explorer/LabelGroupView.h"
#include "explorer/QrynExplorer.h"
#include "explorer/TimelineView.h"
#include "explorer/TimelineWidget.h"
#include "qryn/LabelGroups.h"
#include "qryn/QrynClient.h"
#include "qryn/QrynFixtureEnv.h"

#include <QDateTime>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <memory>

using namespace qflame;
using namespace qflame::qryn;

namespace {

const QString kCpu = QStringLiteral("process_cpu:cpu:nanoseconds:cpu:nanoseconds");
constexpr int64_t kPeriod = 10'000'000;   // 10 ms of CPU per sample
constexpr int kSteps = 30;
constexpr int64_t kStepNanos = 10'000'000'000;

// The samples of version v (0..2) in step i: v2 the dearest, v3 the cheapest, each with its own wobble.
int samples(int v, int i)
{
    static const int base[] = {60, 75, 40};
    return base[v] + (i * (3 + 2 * v)) % 9 - 4;
}
int64_t total(int v, int i)
{
    return int64_t(samples(v, i)) * kPeriod;
}

// The rounds' rule by hand: R = Σv/Σd per second, SE = sqrt(k/(k-1) Σ(v - R d)²) / Σd.
struct Expected {
    int64_t total = 0;
    double rate = 0, se = 0;
};
Expected expect(int v)
{
    Expected e;
    for (int i = 0; i < kSteps; ++i)
        e.total += total(v, i);
    const double d = double(kStepNanos) * kSteps, r = double(e.total) / d;
    double ss = 0;
    for (int i = 0; i < kSteps; ++i)
        ss += std::pow(double(total(v, i)) - r * double(kStepNanos), 2);
    e.rate = r * 1e9;
    e.se = std::sqrt(double(kSteps) / double(kSteps - 1) * ss) / d * 1e9;
    return e;
}

}   // namespace

class tst_QrynLabelGroups : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void groupsAsIngested();
    void theRestIsOther();
    void selectorOfAValue();
    void explorerTableAndCompare();

private:
    StepTimeline fetch();

    test::QrynFixtureEnv m_env;
    QTemporaryDir m_tmp;
    QString m_service;
    qint64 m_from = 0;
    std::unique_ptr<QrynClient> m_client;
};

void tst_QrynLabelGroups::initTestCase()
{
    m_env = test::readQrynFixture(QStringLiteral(QFLAME_QRYN_FIXTURE), false);
    if (!m_env.skipReason.isEmpty())
        QSKIP(qPrintable(m_env.skipReason));
    QVERIFY2(m_env.error.isEmpty(), qPrintable(m_env.error));
    QVERIFY(m_tmp.isValid());
    m_service = QStringLiteral("svc-groups-%1").arg(QRandomGenerator::global()->generate() % 1000000);
    // Three hours ago on a whole minute, away from the other tests' windows; profiles 4 s into their step.
    m_from = (QDateTime::currentSecsSinceEpoch() - 10800) / 60 * 60;
    QFile list(m_tmp.filePath(QStringLiteral("loads.tsv")));
    QVERIFY(list.open(QIODevice::WriteOnly));
    for (int v = 0; v < 3; ++v) {
        for (int i = 0; i < kSteps; ++i) {
            test::FoldedProfile spec;
            spec.sampleTypes = {{"samples", "count"}, {"cpu", "nanoseconds"}};
            spec.periodType = {"cpu", "nanoseconds"};
            spec.period = kPeriod;
            spec.durationNanos = kStepNanos;
            const int n = samples(v, i), hot = n / 2;
            spec.folded = "main;serve;encode " + std::to_string(hot) + " " + std::to_string(hot * kPeriod) +
                          "\nmain;serve;parse " + std::to_string(n - hot) + " " + std::to_string((n - hot) * kPeriod) + "\n";
            const QString file = m_tmp.filePath(QStringLiteral("v%1-%2.pb").arg(v).arg(i));
            QFile f(file);
            const std::string bytes = test::pprofBytes(spec);
            QVERIFY(f.open(QIODevice::WriteOnly) && f.write(bytes.data(), qint64(bytes.size())) == qint64(bytes.size()));
            const qint64 at = m_from + i * 10 + 4;
            list.write(QStringLiteral("%1\t%2\t%3\t%4\tenv=bench,version=v%5\n")
                           .arg(file, m_service)
                           .arg(at)
                           .arg(at + 10)
                           .arg(v + 1)
                           .toUtf8());
        }
    }
    list.close();
    QProcess p;
    p.start(QStringLiteral(QFLAME_QRYN_SCRIPT), {QStringLiteral("load-batch"), m_env.dir, list.fileName()});
    QVERIFY(p.waitForFinished(300000));
    QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, p.readAllStandardError().constData());
    ConnectionSettings settings;
    settings.url = m_env.url();
    m_client = std::make_unique<QrynClient>(settings);
}

StepTimeline tst_QrynLabelGroups::fetch()
{
    ProfileType type;
    ProfileType::parse(kCpu, &type);
    const ProfileQuery query{kCpu, QStringLiteral("{service_name=\"%1\"}").arg(m_service),
                             {m_from * 1000, (m_from + kSteps * 10) * 1000}};
    const TimelinePlan plan = planTimeline(query, type, 10, QStringLiteral("version"));
    const auto r = QrynClient::wait(m_client->selectSeries(plan.query, plan.options));
    if (!r.ok())
        qFatal("SelectSeries: %s", qPrintable(r.error.message));
    return stepTimeline(r.value, plan);
}

void tst_QrynLabelGroups::groupsAsIngested()
{
    const StepTimeline t = fetch();
    QCOMPARE(t.steps.size(), size_t(kSteps));
    const LabelGroups g = groupByLabel(t, QStringLiteral("version"));
    QCOMPARE(g.valueCount, size_t(3));
    QCOMPARE(g.groups.size(), size_t(3));
    QCOMPARE(g.note(), QStringLiteral("3 values of version"));
    // Largest total first: v2, v1, v3.
    const int order[] = {1, 0, 2};
    int64_t all = 0;
    for (int v = 0; v < 3; ++v)
        all += expect(v).total;
    QCOMPARE(g.total, all);
    for (size_t row = 0; row < 3; ++row) {
        const int v = order[row];
        const LabelGroup &group = g.groups[row];
        const Expected x = expect(v);
        QCOMPARE(group.value, QStringLiteral("v%1").arg(v + 1));
        QVERIFY(!group.isOther);
        QCOMPARE(group.total, x.total);
        QCOMPARE(group.estimate.k, size_t(kSteps));
        QCOMPARE(group.estimate.basis, ErrorBasis::Spread);
        QCOMPARE(group.estimate.rate, x.rate);
        QCOMPARE(group.estimate.standardError, x.se);
        QCOMPARE(group.share, double(x.total) / double(all));
        for (int i = 0; i < kSteps; ++i)   // each step the one profile loaded into it
            QCOMPARE(group.observations[size_t(i)].value, total(v, i));
    }
}

void tst_QrynLabelGroups::theRestIsOther()
{
    const StepTimeline t = fetch();
    const LabelGroups g = groupByLabel(t, QStringLiteral("version"), 2);
    QCOMPARE(g.groups.size(), size_t(3));
    QCOMPARE(g.note(), QStringLiteral("the top 2 of 3 values of version by total; the other 1 summed as \"other\""));
    const LabelGroup &other = g.groups.back();
    QVERIFY(other.isOther);
    QCOMPARE(other.valueCount, size_t(1));
    const Expected x = expect(2);   // v3, the cheapest
    QCOMPARE(other.total, x.total);
    QCOMPARE(other.estimate.rate, x.rate);
    QCOMPARE(other.estimate.standardError, x.se);
    // The chart: a series per row, the rest named as such.
    const StepTimeline chart = groupedTimeline(t, g);
    QCOMPARE(chart.series.size(), size_t(3));
    QCOMPARE(chart.series[2].labels, (LabelSet{{QStringLiteral("version"), QStringLiteral("other (1 values)")}}));
    QCOMPARE(std::llround(chart.series[2].values[0] * 10), total(2, 0));
}

void tst_QrynLabelGroups::selectorOfAValue()
{
    QCOMPARE(selectorWithValue(QStringLiteral("{service_name=\"api\", version=\"x\"}"), QStringLiteral("version"),
                               QStringLiteral("v2")),
             QStringLiteral("{service_name=\"api\", version=\"v2\"}"));
    // The selector of one version selects that version's profiles only: its merge is its total.
    const QString sel = selectorWithValue(QStringLiteral("{service_name=\"%1\"}").arg(m_service), QStringLiteral("version"),
                                          QStringLiteral("v3"));
    const ProfileQuery q{kCpu, sel, {m_from * 1000, (m_from + kSteps * 10) * 1000}};
    const auto merged = QrynClient::wait(m_client->selectMergeStacktraces(q));
    QVERIFY2(merged.ok(), qPrintable(merged.error.message));
    QCOMPARE(merged.value.tree->total(CallTree::kRoot), expect(2).total);
}

// The explorer tab grouped by version: its table is groupByLabel's, and two values picked open their comparison
// with the noise their steps measured (the rounds' SEs of the two, per second).
void tst_QrynLabelGroups::explorerTableAndCompare()
{
    QrynExplorer e;
    e.show();
    QSignalSpy answers(&e, &QrynExplorer::requestFinished);
    ConnectionSettings s;
    s.url = m_env.url();
    e.setConnection(s, QStringLiteral("fixture"));
    auto take = [&](const QString &what) {
        for (int i = 0; i < 600; ++i) {
            for (int j = 0; j < answers.size(); ++j)
                if (answers[j][0].toString() == what) {
                    const bool ok = answers[j][1].toBool();
                    const QString message = answers[j][2].toString();
                    answers.removeAt(j);
                    if (!ok)
                        qWarning("%s: %s", qPrintable(what), qPrintable(message));
                    return ok;
                }
            answers.wait(100);
        }
        return false;
    };
    QVERIFY(take(QStringLiteral("types")));
    e.setProfileType(kCpu);
    e.setSelector(QStringLiteral("{service_name=\"%1\"}").arg(m_service));
    e.setCustomRange({m_from * 1000, (m_from + kSteps * 10) * 1000});
    e.timelineView()->setChosenStepSeconds(10);
    e.setGroupBy(QStringLiteral("version"));
    answers.clear();
    e.load();
    QVERIFY(take(QStringLiteral("timeline")));
    const LabelGroups &g = e.labelGroupView()->groups();
    QCOMPARE(g.groups.size(), size_t(3));
    QCOMPARE(e.labelGroupView()->table()->rowCount(), 3);
    QCOMPARE(e.labelGroupView()->table()->item(0, 0)->text(), QStringLiteral("v2"));
    QCOMPARE(g.groups[0].total, expect(1).total);
    QCOMPARE(g.groups[0].estimate.standardError, expect(1).se);
    QCOMPARE(e.timeline()->timeline().series.size(), size_t(3));

    std::vector<std::shared_ptr<const Profile>> before, after;
    std::shared_ptr<const MeasuredNoise> noise;
    int requests = 0;
    connect(&e, &QrynExplorer::compareTreesRequested, this,
            [&](const QString &, const std::vector<std::shared_ptr<const Profile>> &b, const QString &,
                const std::vector<std::shared_ptr<const Profile>> &a, std::shared_ptr<const MeasuredNoise> n) {
                before = b;
                after = a;
                noise = std::move(n);
                ++requests;
            });
    e.labelGroupView()->selectValues({QStringLiteral("v1"), QStringLiteral("v3")});
    QCOMPARE(e.labelGroupView()->selectedValues(), (QStringList{QStringLiteral("v1"), QStringLiteral("v3")}));
    e.compareValues(e.labelGroupView()->selectedValues());
    QVERIFY(take(QStringLiteral("compare")));
    QCOMPARE(requests, 1);
    auto cpu = [](const Profile &p) { return p.total(size_t(p.findSampleType("cpu"))); };
    QCOMPARE(cpu(*before.front()), expect(0).total);   // the merged window of v1
    QCOMPARE(cpu(*after.front()), expect(2).total);
    QVERIFY(noise);
    // The whole profile's noise: sqrt(SE_v1² + SE_v3²) of the rates, per second.
    QCOMPARE(noise->totalStandardError, std::hypot(expect(0).se, expect(2).se));
}

QTEST_MAIN(tst_QrynLabelGroups)
#include "tst_qrynlabelgroups.moc"
