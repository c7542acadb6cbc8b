// The explorer's timeline against a real qryn 3.2.39 (the rounds' fixture, qryn_rounds: a service of its own): a
// 20-minute series of one service in three rounds (round=r0|r1|r2), 120 profiles 10 s apart with totals the test
// chose, loaded in one batch. The model's steps (qryn/TimelineSteps.h) must give each step the totals loaded into it
// (10 s steps: one profile each; Auto, 20 s: two), every step outside the data 0, and a brushed range's average ±
// SE those of the ratio estimator by hand; the rounds of the same ranges asked with the same step (what the
// explorer's Rounds button asks when a step is chosen) must have the very same observations.
#include "ProfileFactory.h"
#include "qryn/QrynClient.h"
#include "qryn/QrynFixtureEnv.h"
#include "qryn/ServerRounds.h"
#include "qryn/TimelineSteps.h"

#include <QDateTime>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <memory>

using namespace qflame;
using namespace qflame::qryn;

namespace {

const QString kCpu = QStringLiteral("process_cpu:cpu:nanoseconds:cpu:nanoseconds");
constexpr int64_t kPeriod = 10'000'000;   // 10 ms of CPU per sample
constexpr int kProfiles = 120;

// Profile i (0..119): round i / 40; hot samples around 50, 53 and 40 per round (the third one faster), cold and
// idle nearly steady.
struct Load {
    int hot = 0, cold = 0, idle = 0;
    int64_t total() const { return int64_t(hot + cold + idle) * kPeriod; }
};
Load load(int i)
{
    static const int base[] = {50, 53, 40};
    return {base[i / 40] + (i * 7) % 11 - 5, 20 + i % 3 - 1, 10};
}

// The ratio estimator by hand (issue 17): R = Σv/Σd per second, SE = sqrt(k/(k-1) Σ(v - R d)²) / Σd.
struct Expected {
    size_t k = 0;
    int64_t total = 0;
    double rate = 0, se = 0;
};
Expected expect(const std::vector<int64_t> &v, int64_t d)
{
    Expected e;
    e.k = v.size();
    for (int64_t x : v)
        e.total += x;
    const double r = double(e.total) / double(d * int64_t(v.size()));
    double ss = 0;
    for (int64_t x : v)
        ss += (double(x) - r * double(d)) * (double(x) - r * double(d));
    e.rate = r * 1e9;
    e.se = std::sqrt(double(e.k) / double(e.k - 1) * ss) / double(d * int64_t(v.size())) * 1e9;
    return e;
}

}   // namespace

class tst_QrynTimeline : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void stepsAsIngested();
    void autoStepsOfTwenty();
    void emptyStepsAreZero();
    void rangeAverages();
    void roundsOfTheRangesAgree();

private:
    ProfileQuery query(const TimeRange &range) const
    {
        return {kCpu, QStringLiteral("{service_name=\"%1\"}").arg(m_service), range};
    }
    StepTimeline fetch(const TimeRange &window, qint64 step, const QString &groupBy = QString());
    TimeRange window() const { return {m_from * 1000, (m_from + 1200) * 1000}; }

    test::QrynFixtureEnv m_env;
    QTemporaryDir m_tmp;
    QString m_service;
    qint64 m_from = 0;
    std::unique_ptr<QrynClient> m_client;
};

void tst_QrynTimeline::initTestCase()
{
    m_env = test::readQrynFixture(QStringLiteral(QFLAME_QRYN_FIXTURE), false);
    if (!m_env.skipReason.isEmpty())
        QSKIP(qPrintable(m_env.skipReason));
    QVERIFY2(m_env.error.isEmpty(), qPrintable(m_env.error));
    QVERIFY(m_tmp.isValid());
    m_service = QStringLiteral("svc-timeline-%1").arg(QRandomGenerator::global()->generate() % 1000000);
    // Two hours ago on a whole minute (away from tst_qrynrounds' windows an hour ago); profiles 3 s into their step.
    m_from = (QDateTime::currentSecsSinceEpoch() - 7200) / 60 * 60;
    QFile list(m_tmp.filePath(QStringLiteral("loads.tsv")));
    QVERIFY(list.open(QIODevice::WriteOnly));
    for (int i = 0; i < kProfiles; ++i) {
        const Load l = load(i);
        test::FoldedProfile spec;
        spec.sampleTypes = {{"samples", "count"}, {"cpu", "nanoseconds"}};
        spec.periodType = {"cpu", "nanoseconds"};
        spec.period = kPeriod;
        spec.durationNanos = 10'000'000'000;
        spec.folded = "main;work;hot " + std::to_string(l.hot) + " " + std::to_string(l.hot * kPeriod) +
                      "\nmain;work;cold " + std::to_string(l.cold) + " " + std::to_string(l.cold * kPeriod) +
                      "\nmain;idle " + std::to_string(l.idle) + " " + std::to_string(l.idle * kPeriod) + "\n";
        const QString file = m_tmp.filePath(QStringLiteral("p%1.pb").arg(i));
        QFile f(file);
        const std::string bytes = test::pprofBytes(spec);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(bytes.data(), qint64(bytes.size())) == qint64(bytes.size()));
        const qint64 at = m_from + i * 10 + 3;
        list.write(QStringLiteral("%1\t%2\t%3\t%4\tenv=bench,round=r%5\n")
                       .arg(file, m_service)
                       .arg(at)
                       .arg(at + 10)
                       .arg(i / 40)
                       .toUtf8());
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

StepTimeline tst_QrynTimeline::fetch(const TimeRange &range, qint64 step, const QString &groupBy)
{
    ProfileType type;
    ProfileType::parse(kCpu, &type);
    const TimelinePlan plan = planTimeline(query(range), type, step, groupBy);
    const auto r = QrynClient::wait(m_client->selectSeries(plan.query, plan.options));
    if (!r.ok())
        qFatal("SelectSeries: %s", qPrintable(r.error.message));
    return stepTimeline(r.value, plan);
}

// 10 s steps, by round: each step is the one profile loaded into it, in its round's series and in the total.
void tst_QrynTimeline::stepsAsIngested()
{
    const StepTimeline t = fetch(window(), 10, QStringLiteral("round"));
    QCOMPARE(t.steps.size(), size_t(kProfiles));
    QCOMPARE(t.steps.front().startMs, window().startMs);
    QCOMPARE(t.series.size(), size_t(3));
    for (int r = 0; r < 3; ++r)
        QCOMPARE(t.series[size_t(r)].labels, (LabelSet{{QStringLiteral("round"), QStringLiteral("r%1").arg(r)}}));
    for (int i = 0; i < kProfiles; ++i) {
        QCOMPARE(t.totals[size_t(i)].value, load(i).total());
        QCOMPARE(t.totals[size_t(i)].durationNanos, int64_t(10'000'000'000));
        for (int r = 0; r < 3; ++r)   // per second: the total over 10 s; 0 in the other rounds' steps
            QCOMPARE(std::llround(t.series[size_t(r)].values[size_t(i)] * 10), r == i / 40 ? load(i).total() : 0);
    }
}

// Auto: 1200 s / 60 = 20 s steps, each the sum of two profiles.
void tst_QrynTimeline::autoStepsOfTwenty()
{
    const StepTimeline t = fetch(window(), 0);
    QCOMPARE(t.stepSeconds, qint64(20));
    QCOMPARE(t.steps.size(), size_t(60));
    QCOMPARE(t.series.size(), size_t(3));   // ungrouped: a label set per round
    for (int j = 0; j < 60; ++j)
        QCOMPARE(t.totals[size_t(j)].value, load(2 * j).total() + load(2 * j + 1).total());
}

// Five minutes past the series: its steps are there, each 0.
void tst_QrynTimeline::emptyStepsAreZero()
{
    const StepTimeline t = fetch({window().startMs, window().endMs + 300'000}, 10);
    QCOMPARE(t.steps.size(), size_t(150));
    for (size_t i = 120; i < 150; ++i)
        QCOMPARE(t.totals[i].value, int64_t(0));
    // The last 5 profiles and 30 empty steps: by hand, with the zeros as observations.
    std::vector<int64_t> v;
    for (int i = 115; i < 120; ++i)
        v.push_back(load(i).total());
    v.resize(35, 0);
    const RateEstimate e = rangeEstimate(t, {window().startMs + 1'150'000, window().endMs + 300'000});
    const Expected x = expect(v, 10'000'000'000);
    QCOMPARE(e.k, x.k);
    QCOMPARE(e.total, x.total);
    QCOMPARE(e.rate, x.rate);
    QCOMPARE(e.standardError, x.se);
}

// Round r0 against round r2, at 10 s and at 20 s steps: each range's average ± SE by hand from the loaded totals.
void tst_QrynTimeline::rangeAverages()
{
    const TimeRange base{window().startMs, window().startMs + 400'000}, other{window().startMs + 800'000, window().endMs};
    std::vector<int64_t> v0, v2, p0, p2;
    for (int i = 0; i < 40; ++i) {
        v0.push_back(load(i).total());
        v2.push_back(load(80 + i).total());
    }
    for (int j = 0; j < 20; ++j) {
        p0.push_back(load(2 * j).total() + load(2 * j + 1).total());
        p2.push_back(load(80 + 2 * j).total() + load(81 + 2 * j).total());
    }
    const StepTimeline t10 = fetch(window(), 10), t20 = fetch(window(), 0);
    struct Case {
        const StepTimeline *t;
        TimeRange range;
        Expected x;
    } cases[] = {{&t10, base, expect(v0, 10'000'000'000)}, {&t10, other, expect(v2, 10'000'000'000)},
                 {&t20, base, expect(p0, 20'000'000'000)}, {&t20, other, expect(p2, 20'000'000'000)}};
    for (const Case &c : cases) {
        const RateEstimate e = rangeEstimate(*c.t, c.range);
        QCOMPARE(e.k, c.x.k);
        QCOMPARE(e.total, c.x.total);
        QCOMPARE(e.rate, c.x.rate);
        QCOMPARE(e.standardError, c.x.se);
    }
    // r2 runs 10 fewer hot samples per 10 s: 0.1 cores less, far beyond 2 SE.
    const RateChange change = compareRates(rangeEstimate(t10, base), rangeEstimate(t10, other), 2);
    QCOMPARE(change.verdict, RoundVerdict::Faster);
    QVERIFY(std::fabs(change.delta - (cases[1].x.rate - cases[0].x.rate)) < 1e-3);
    // A brush across the rounds' edge, snapped to whole steps: steps 39 and 40.
    const TimeRange edge = snapToSteps({window().startMs + 395'000, window().startMs + 405'000}, 10);
    const std::vector<Observation> obs = rangeObservations(t10, edge);
    QCOMPARE(obs.size(), size_t(2));
    QCOMPARE(obs[0].value, load(39).total());
    QCOMPARE(obs[1].value, load(40).total());
}

// The rounds of the two ranges asked with the timeline's step have the timeline's observations.
void tst_QrynTimeline::roundsOfTheRangesAgree()
{
    const TimeRange base{window().startMs, window().startMs + 400'000}, other{window().startMs + 800'000, window().endMs};
    const StepTimeline t = fetch(window(), 10);
    ServerRoundsQuery q;
    q.profileTypeId = kCpu;
    q.stepSeconds = t.stepSeconds;
    q.rounds = {{"baseline", query(base).labelSelector, base}, {"comparison", query(other).labelSelector, other}};
    const ServerRounds rounds = fetchServerRounds(*m_client, q);
    QVERIFY2(rounds.notes.empty(), rounds.notes.empty() ? "" : rounds.notes.front().c_str());
    for (size_t r = 0; r < 2; ++r) {
        const std::vector<Observation> mine = rangeObservations(t, r == 0 ? base : other);
        const std::vector<Observation> &theirs = rounds.rounds[r].observations;
        QCOMPARE(theirs.size(), mine.size());
        for (size_t i = 0; i < mine.size(); ++i) {
            QCOMPARE(theirs[i].value, mine[i].value);
            QCOMPARE(theirs[i].durationNanos, mine[i].durationNanos);
        }
    }
}

QTEST_GUILESS_MAIN(tst_QrynTimeline)
#include "tst_qryntimeline.moc"
