// Rounds from a server (issue 17) against a real qryn 3.2.39 of its own (ctest fixture qryn_rounds, qryn-fixture.sh):
// three windows of one service, one profile per 10 s step with totals the test chose, loaded as qryn-otel-
// collector would. The model (qryn/ServerRounds.h) and `qflame rounds --url ... --tsv` must give each step the
// total of the profile loaded into it (0 where none was), and the rounds' k, total, duration, rate, error and
// verdicts those observations give by hand. Also what qryn's SelectSeries itself answers per step, measured.
#include "ProfileFactory.h"
#include "qryn/QrynClient.h"
#include "qryn/QrynFixtureEnv.h"
#include "qryn/ServerRounds.h"
#include "qryn/ThreadedFaultServer.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QTimer>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <memory>
#include <numeric>
#include <optional>

using namespace qflame;
using namespace qflame::qryn;

namespace {

const QString kCpu = QStringLiteral("process_cpu:cpu:nanoseconds:cpu:nanoseconds");
constexpr int64_t kPeriod = 10'000'000;   // 10 ms of CPU per sample, as Go's profiler

// One step's profile: samples of main;work;hot, main;work;cold and main;idle.
struct StepLoad {
    int hot = 0, cold = 0, idle = 0;
    int64_t total() const { return int64_t(hot + cold + idle) * kPeriod; }
};

// Round 1 the baseline; round 2 cheaper (hot got faster); round 3 round 1 again with step 3 not loaded at all.
const std::vector<std::vector<std::optional<StepLoad>>> kRounds = {
    {StepLoad{50, 20, 10}, StepLoad{53, 20, 10}, StepLoad{47, 21, 10}, StepLoad{51, 19, 10}, StepLoad{49, 20, 10},
     StepLoad{52, 20, 10}},
    {StepLoad{40, 20, 10}, StepLoad{42, 20, 10}, StepLoad{38, 21, 10}, StepLoad{41, 19, 10}, StepLoad{39, 19, 10},
     StepLoad{40, 20, 10}},
    {StepLoad{50, 20, 10}, StepLoad{53, 20, 10}, StepLoad{47, 21, 10}, std::nullopt, StepLoad{49, 20, 10},
     StepLoad{52, 20, 10}},
};
const char *const kNames[] = {"base", "pgo1", "gap"};

struct Run {
    int code = -1;
    QByteArray out, err;
};

Run runProgram(const QString &program, const QStringList &args)
{
    QProcess p;
    p.start(program, args);
    if (!p.waitForStarted())
        return {};
    p.closeWriteChannel();
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

// The ratio estimator by hand (issue 17): R = Σv/Σd per second, SE = sqrt(k/(k-1) Σ(v - R d)²) / Σd.
struct Expected {
    size_t k = 0;
    int64_t total = 0, duration = 0;
    double rate = 0, se = 0;
};

Expected expect(const std::vector<int64_t> &v, int64_t d)
{
    Expected e;
    e.k = v.size();
    for (int64_t x : v)
        e.total += x;
    e.duration = d * int64_t(v.size());
    const double r = double(e.total) / double(e.duration);
    double ss = 0;
    for (int64_t x : v)
        ss += (double(x) - r * double(d)) * (double(x) - r * double(d));
    e.rate = r * 1e9;
    e.se = std::sqrt(double(e.k) / double(e.k - 1) * ss) / double(e.duration) * 1e9;
    return e;
}

QString number(double v)
{
    return QString::asprintf("%.10g", v);
}

}   // namespace

// No node/npm outside CI: the fixture's tests skip with its reason.
#define SKIP_WITHOUT_FIXTURE()                                                                                     \
    do {                                                                                                           \
        if (!m_env.skipReason.isEmpty())                                                                           \
            QSKIP(qPrintable(m_env.skipReason));                                                                   \
    } while (false)

class tst_QrynRounds : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void seriesPerStepAsIngested();
    void modelObservations();
    void modelAlignsAShiftedWindow();
    void cliTsv();
    void cliStepAndCsv();
    void cliMarkdown();
    void cliBadInput_data();
    void cliBadInput();
    void perStepMergesWhenTheSeriesDisagree();
    void cancelAbortsTheRequestsInFlight();

private:
    QString selector() const { return QStringLiteral("{service_name=\"%1\"}").arg(m_service); }
    TimeRange window(size_t round) const { return {m_from[round] * 1000, (m_from[round] + 60) * 1000}; }
    std::vector<int64_t> observed(size_t round) const;   // what was loaded per step, 0 where nothing was
    QStringList roundArgs() const;

    test::QrynFixtureEnv m_env;
    QTemporaryDir m_tmp;
    QString m_service;
    qint64 m_from[3] = {};
    std::unique_ptr<QrynClient> m_client;
};

void tst_QrynRounds::initTestCase()
{
    m_env = test::readQrynFixture(QStringLiteral(QFLAME_QRYN_FIXTURE), false);
    if (!m_env.skipReason.isEmpty())
        return;   // each test on the fixture skips; the one on a local server runs
    QVERIFY2(m_env.error.isEmpty(), qPrintable(m_env.error));
    QVERIFY(m_tmp.isValid());
    // A service of its own, so the standard data set and earlier runs against the same server stay out of it.
    m_service = QStringLiteral("svc-rounds-%1").arg(QRandomGenerator::global()->generate() % 1000000);
    // Windows an hour ago, 60 s long and 120 s apart, starting on whole minutes; profiles 3 s into their step.
    const qint64 base = (QDateTime::currentSecsSinceEpoch() - 3600) / 60 * 60;
    for (size_t r = 0; r < 3; ++r) {
        m_from[r] = base + qint64(r) * 120;
        for (size_t i = 0; i < kRounds[r].size(); ++i) {
            if (!kRounds[r][i])
                continue;
            const StepLoad &s = *kRounds[r][i];
            test::FoldedProfile spec;
            spec.sampleTypes = {{"samples", "count"}, {"cpu", "nanoseconds"}};
            spec.periodType = {"cpu", "nanoseconds"};
            spec.period = kPeriod;
            spec.durationNanos = 10'000'000'000;
            spec.folded = "main;work;hot " + std::to_string(s.hot) + " " + std::to_string(s.hot * kPeriod) +
                          "\nmain;work;cold " + std::to_string(s.cold) + " " + std::to_string(s.cold * kPeriod) +
                          "\nmain;idle " + std::to_string(s.idle) + " " + std::to_string(s.idle * kPeriod) + "\n";
            const QString file = m_tmp.filePath(QStringLiteral("r%1s%2.pb").arg(r).arg(i));
            QFile f(file);
            const std::string bytes = test::pprofBytes(spec);
            QVERIFY(f.open(QIODevice::WriteOnly) && f.write(bytes.data(), qint64(bytes.size())) == qint64(bytes.size()));
            f.close();
            const qint64 at = m_from[r] + qint64(i) * 10 + 3;
            const Run load = runProgram(QStringLiteral(QFLAME_QRYN_SCRIPT),
                                        {"load", m_env.dir, file, m_service, QString::number(at),
                                         QString::number(at + 10), "env=rounds"});
            QVERIFY2(load.code == 0, load.err.constData());
        }
    }
    ConnectionSettings settings;
    settings.url = m_env.url();
    m_client = std::make_unique<QrynClient>(settings);
}

std::vector<int64_t> tst_QrynRounds::observed(size_t round) const
{
    std::vector<int64_t> v;
    for (const auto &s : kRounds[round])
        v.push_back(s ? s->total() : 0);
    return v;
}

QStringList tst_QrynRounds::roundArgs() const
{
    QStringList args;
    for (size_t r = 0; r < 3; ++r)
        args << "-r" << kNames[r] << "--query" << selector() << "--from" << QString::number(m_from[r]) << "--to"
             << QString::number(m_from[r] + 60);
    return args;
}

// The measured fact: SelectSeries with a 10 s step, all three windows at once, returns one point per loaded
// profile at the start of its 10 s bucket with exactly the profile's total, and none for the missing step.
void tst_QrynRounds::seriesPerStepAsIngested()
{
    SKIP_WITHOUT_FIXTURE();
    SeriesOptions options;
    options.stepSeconds = 10;
    const auto r = QrynClient::wait(m_client->selectSeries({kCpu, selector(), {window(0).startMs, window(2).endMs}},
                                                           options));
    QVERIFY2(r.ok(), qPrintable(r.error.message));
    QCOMPARE(r.value.size(), qsizetype(1));
    std::map<qint64, double> points;
    for (const SeriesPoint &p : r.value.front().points)
        points[p.timestampMs] = p.value;
    std::map<qint64, double> expected;
    for (size_t round = 0; round < 3; ++round)
        for (size_t i = 0; i < kRounds[round].size(); ++i)
            if (kRounds[round][i])
                expected[(m_from[round] + qint64(i) * 10) * 1000] = double(kRounds[round][i]->total());
    QCOMPARE(points, expected);
}

void tst_QrynRounds::modelObservations()
{
    SKIP_WITHOUT_FIXTURE();
    ServerRoundsQuery query;
    query.profileTypeId = kCpu;
    for (size_t r = 0; r < 3; ++r)
        query.rounds.push_back({kNames[r], selector(), window(r)});
    const ServerRounds got = fetchServerRounds(*m_client, query);
    QCOMPARE(got.sample, std::string("cpu/nanoseconds"));
    QVERIFY2(got.notes.empty(), got.notes.empty() ? "" : got.notes.front().c_str());   // SelectSeries was right
    QCOMPARE(got.rounds.size(), size_t(3));
    for (size_t r = 0; r < 3; ++r) {
        const RoundInput &round = got.rounds[r];
        QCOMPARE(round.name, std::string(kNames[r]));
        std::vector<int64_t> values, durations;
        for (const Observation &o : round.observations) {
            values.push_back(o.value);
            durations.push_back(o.durationNanos);
        }
        QCOMPARE(values, observed(r));
        QCOMPARE(durations, std::vector<int64_t>(6, 10'000'000'000));
        // The tree is the window's merge: its total is the steps' sum (samples/count first, then cpu).
        QCOMPARE(round.profiles.size(), size_t(1));
        QCOMPARE(round.profiles.front()->total(1), std::accumulate(values.begin(), values.end(), int64_t(0)));
    }
}

// A window 5 s off the 10 s grid: SelectSeries is asked with 5 s buckets (gcd), each step then holds the profile
// loaded 3 s into the next step of round 1, the first profile falls before the window and the last step is empty.
void tst_QrynRounds::modelAlignsAShiftedWindow()
{
    SKIP_WITHOUT_FIXTURE();
    ServerRoundsQuery query;
    query.profileTypeId = kCpu;
    query.stepSeconds = 10;
    const TimeRange shifted{window(0).startMs + 5000, window(0).endMs + 5000};
    query.rounds.push_back({"shifted", selector(), shifted});
    QCOMPARE(seriesStepSeconds(shifted, 10), qint64(5));
    const ServerRounds got = fetchServerRounds(*m_client, query);
    QVERIFY2(got.notes.empty(), got.notes.empty() ? "" : got.notes.front().c_str());
    std::vector<int64_t> values;
    for (const Observation &o : got.rounds.front().observations)
        values.push_back(o.value);
    std::vector<int64_t> expected = observed(0);
    expected.erase(expected.begin());
    expected.push_back(0);
    QCOMPARE(values, expected);
}

void tst_QrynRounds::cliTsv()
{
    SKIP_WITHOUT_FIXTURE();
    const Run run = runProgram(QStringLiteral(QFLAME_BINARY),
                               QStringList{"rounds", "--url", m_env.value("QRYN_URL"), "--type", kCpu}
                                   << roundArgs() << "--tsv");
    QVERIFY2(run.code == 0, run.err.constData());
    QVERIFY2(run.err.isEmpty(), run.err.constData());
    const QStringList lines = QString::fromUtf8(run.out).split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3 + 5);   // three rounds; main, work, hot, cold, idle
    // 10 s steps (60 s windows: 6 steps, none under 10 s), chosen without --step.
    const char *verdicts[] = {"baseline", "faster", "noise"};
    const Expected base = expect(observed(0), 10'000'000'000);
    for (size_t r = 0; r < 3; ++r) {
        const Expected e = expect(observed(r), 10'000'000'000);
        const QString change = r == 0 ? QStringLiteral("0") : number((e.rate - base.rate) / base.rate * 100);
        QCOMPARE(lines[qsizetype(r)], QStringLiteral("round\t%1\t%2\t%3\t%4\t%5\t%6\t%7\t%8")
                                          .arg(QLatin1String(kNames[r]))
                                          .arg(e.k)
                                          .arg(e.total)
                                          .arg(e.duration)
                                          .arg(number(e.rate), number(e.se), change, QLatin1String(verdicts[r])));
    }
    // Per function the cum of each round's window, by |cum_3 - cum_1| descending, then name.
    std::map<std::string, std::vector<int64_t>> cum;
    for (size_t r = 0; r < 3; ++r) {
        int64_t hot = 0, cold = 0, idle = 0;
        for (const auto &s : kRounds[r])
            if (s) {
                hot += s->hot * kPeriod;
                cold += s->cold * kPeriod;
                idle += s->idle * kPeriod;
            }
        const std::vector<std::pair<std::string, int64_t>> functions = {
            {"main", hot + cold + idle}, {"work", hot + cold}, {"hot", hot}, {"cold", cold}, {"idle", idle}};
        for (const auto &[name, v] : functions)
            cum[name].push_back(v);
    }
    std::vector<std::pair<std::string, std::vector<int64_t>>> rows(cum.begin(), cum.end());
    std::stable_sort(rows.begin(), rows.end(), [](const auto &a, const auto &b) {
        return std::llabs(a.second[2] - a.second[0]) > std::llabs(b.second[2] - b.second[0]);
    });
    for (size_t i = 0; i < rows.size(); ++i)
        QCOMPARE(lines[qsizetype(3 + i)], QStringLiteral("function\t%1\t%2\t%3\t%4")
                                              .arg(QString::fromStdString(rows[i].first))
                                              .arg(rows[i].second[0])
                                              .arg(rows[i].second[1])
                                              .arg(rows[i].second[2]));
}

// --step 20 sums pairs of 10 s steps; --csv prints the same rows.
void tst_QrynRounds::cliStepAndCsv()
{
    SKIP_WITHOUT_FIXTURE();
    const Run run = runProgram(QStringLiteral(QFLAME_BINARY),
                               QStringList{"rounds", "--url", m_env.value("QRYN_URL"), "--type", kCpu, "--step", "20"}
                                   << roundArgs() << "--csv");
    QVERIFY2(run.code == 0, run.err.constData());
    const QStringList lines = QString::fromUtf8(run.out).split(u'\n', Qt::SkipEmptyParts);
    QVERIFY(lines.size() >= 3);
    for (size_t r = 0; r < 3; ++r) {
        const std::vector<int64_t> v = observed(r);
        const Expected e = expect({v[0] + v[1], v[2] + v[3], v[4] + v[5]}, 20'000'000'000);
        QVERIFY2(lines[qsizetype(r)].startsWith(QStringLiteral("round,%1,3,%2,%3,%4,%5,")
                                                    .arg(QLatin1String(kNames[r]))
                                                    .arg(e.total)
                                                    .arg(e.duration)
                                                    .arg(number(e.rate), number(e.se))),
                 qPrintable(lines[qsizetype(r)]));
    }
}

// The pull-request summary of the file form, saying which error the functions' verdicts use.
void tst_QrynRounds::cliMarkdown()
{
    SKIP_WITHOUT_FIXTURE();
    const Run run = runProgram(QStringLiteral(QFLAME_BINARY),
                               QStringList{"rounds", "--url", m_env.value("QRYN_URL"), "--type", kCpu}
                                   << roundArgs() << "--markdown");
    QVERIFY2(run.code == 0, run.err.constData());
    const QString md = QString::fromUtf8(run.out);
    QVERIFY2(md.contains(QStringLiteral("| pgo1 | 6 | 4.19 s | 1 min | ")), qPrintable(md));
    QVERIFY(md.contains(QStringLiteral("| -13.07% | -13.07% | **faster** |")));
    QVERIFY(md.contains(QStringLiteral("| gap | 6 | 4.02 s | 1 min | ")));
    QVERIFY(md.contains(QStringLiteral("Note: functions: Poisson errors from each window's merged tree")));
}

void tst_QrynRounds::cliBadInput_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("message");
    const QString from = QString::number(m_from[0]), to = QString::number(m_from[0] + 60);
    const QString early = QString::number(m_from[0] - 600);
    QTest::newRow("a round without data")
        << QStringList{"-r", "base", "--query", selector(), "--from", from, "--to", to,
                       "-r", "empty", "--query", selector(), "--from", early, "--to", QString::number(m_from[0] - 540)}
        << 2 << "qflame: round empty: no profiles of type " + kCpu + " match " + selector() + " between";
    QTest::newRow("a bad selector")
        << QStringList{"-r", "base", "--query", selector(), "--from", from, "--to", to,
                       "-r", "bad", "--query", "{service_name=svc}", "--from", from, "--to", to}
        << 2 << "qflame: round bad: ";
    QTest::newRow("--query before -r") << QStringList{"--query", "{}", "-r", "a", "--from", from, "--to", to} << 1
                                       << "qflame: rounds --url: --query comes before the first -r NAME";
    QTest::newRow("no --to") << QStringList{"-r", "a", "--from", from} << 1 << "qflame: round a needs --from and --to";
    QTest::newRow("a bad step") << QStringList{"--step", "0", "-r", "a", "--from", from, "--to", to} << 1
                                << "qflame: --step takes a whole number of seconds > 0, not '0'";
}

void tst_QrynRounds::cliBadInput()
{
    SKIP_WITHOUT_FIXTURE();
    QFETCH(QStringList, args);
    QFETCH(int, code);
    QFETCH(QString, message);
    const Run run = runProgram(QStringLiteral(QFLAME_BINARY),
                               QStringList{"rounds", "--url", m_env.value("QRYN_URL"), "--type", kCpu} << args
                                                                                                       << "--tsv");
    QCOMPARE(run.code, code);
    QVERIFY2(QString::fromUtf8(run.err).startsWith(message), run.err.constData());
    QVERIFY(!run.err.contains('\n') || run.err.indexOf('\n') == run.err.size() - 1 || code == 1);
    QVERIFY(run.out.isEmpty());
}

// A server whose SelectSeries has nothing while its merge has a flamegraph (what qryn 3.2.39 answers for a window
// older than the 7 days SelectSeries always covers, where the retention is longer): each step is then its own
// merge, and a note says so. This server answers every merge with the same flamegraph, so the steps' merges sum
// to three times the window's, which the note says too.
void tst_QrynRounds::perStepMergesWhenTheSeriesDisagree()
{
    test::ThreadedFaultServer server(test::FaultMode::LargeFlamegraph);
    ConnectionSettings settings;
    settings.url = server.url();
    QrynClient client(settings);
    ServerRoundsQuery query;
    query.profileTypeId = QStringLiteral("memory:alloc_space:bytes:space:bytes");   // no samples/count merge too
    query.stepSeconds = 10;
    query.rounds.push_back({"old", QStringLiteral("{}"), {1'700'000'000'000, 1'700'000'030'000}});
    const ServerRounds got = fetchServerRounds(client, query);
    const int64_t graph = int64_t(test::ThreadedFaultServer::kColumns) * test::ThreadedFaultServer::kDepth;
    std::vector<int64_t> values;
    for (const Observation &o : got.rounds.front().observations)
        values.push_back(o.value);
    QCOMPARE(values, std::vector<int64_t>(3, graph));
    QCOMPARE(got.notes, std::vector<std::string>{"round old: SelectSeries's steps sum to 0 but the window's merge to " +
                                                 std::to_string(graph) + ": each step's own merge is used (they sum to " +
                                                 std::to_string(3 * graph) + ")"});
}

// The window's rounds tab cancels its fetch (Cancel, or the tab closed): the requests in flight are aborted at once
// and the pool thread is free, not held until the server answers or the 60 s timeout ends them.
void tst_QrynRounds::cancelAbortsTheRequestsInFlight()
{
    test::ThreadedFaultServer server(test::FaultMode::NeverAnswer);
    ConnectionSettings settings;
    settings.url = server.url();
    settings.timeoutMs = 60'000;
    ServerRoundsQuery query;
    query.profileTypeId = QStringLiteral("process_cpu:cpu:nanoseconds:cpu:nanoseconds");
    query.stepSeconds = 10;
    query.rounds.push_back({"base", QStringLiteral("{}"), {1'700'000'000'000, 1'700'000'030'000}});
    std::atomic<bool> cancelled{false};
    QTimer::singleShot(300, [&cancelled] { cancelled = true; });   // runs in the fetch's own waits
    QElapsedTimer clock;
    clock.start();
    QString message;
    try {
        fetchServerRounds(settings, query, [&cancelled] { return cancelled.load(); });
    } catch (const ProfileError &e) {
        message = QString::fromStdString(e.what());
    }
    QVERIFY2(message.contains(QStringLiteral("cancelled")), qPrintable(message));
    QVERIFY2(clock.elapsed() < 10'000, qPrintable(QString::number(clock.elapsed())));
    QVERIFY(server.requests() >= 1);
}

QTEST_GUILESS_MAIN(tst_QrynRounds)
#include "tst_qrynrounds.moc"
