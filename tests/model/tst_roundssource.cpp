// The source lines of a function in every round (model/source/RoundsSource): per line each round's cum, its rate
// per second with the error measured from the spread of the round's files (Poisson from samples/count for a
// round of one file), and the verdict against the baseline, each number worked out by hand below.
#include "PgoTestSupport.h"
#include "source/RoundsSource.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace qflame;
using namespace qflame::pgotest;

namespace {

const SampleTypes kTypes = {{"samples", "count"}, {"cpu", "nanoseconds"}};
const SampleTypeInfo kCpu{"cpu", "nanoseconds"};

// main.work at lines 10, 11 and 12 of `file`; each sample {count, ns} on one line.
std::shared_ptr<const Profile> lineProfile(const std::string &file, const std::string &name, int64_t durationNanos,
                                           const std::vector<std::pair<int64_t, std::pair<int64_t, int64_t>>> &lines)
{
    Builder b(kTypes);
    const uint64_t work = b.function("main.work", 9, file);
    for (const auto &[line, values] : lines)
        b.sample({b.location(0x100 + uint64_t(line), {{work, line}})}, {values.first, values.second});
    b.message().set_duration_nanos(durationNanos);
    return b.profile(name);
}

}   // namespace

class tst_RoundsSource : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void perRoundLinesByHand();
    void aServerRoundHasNoLines();
    void aMissingSampleTypeNamesTheRound();

private:
    QTemporaryDir m_dir;
    std::string m_file;
    std::vector<RoundInput> m_rounds;
};

void tst_RoundsSource::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_file = m_dir.filePath(QStringLiteral("work.go")).toStdString();
    QFile f(QString::fromStdString(m_file));
    QVERIFY(f.open(QIODevice::WriteOnly));
    for (int i = 1; i <= 20; ++i)
        f.write("text of line " + QByteArray::number(i) + "\n");
    f.close();
    const int64_t second = 1'000'000'000;
    // base: two files of 1 s; new: one file of 2 s.
    m_rounds = {{"base",
                 {lineProfile(m_file, "a.pb", second, {{10, {3, 300}}, {11, {1, 100}}}),
                  lineProfile(m_file, "b.pb", second, {{10, {5, 500}}, {11, {1, 100}}})},
                 {}},
                {"new", {lineProfile(m_file, "n.pb", 2 * second, {{10, {2, 200}}, {11, {10, 1000}}, {12, {1, 50}}})}, {}}};
}

void tst_RoundsSource::perRoundLinesByHand()
{
    const RoundsSource got = listFunctionRounds(m_rounds, kCpu, "main.work", SourcePaths{}, 2);
    QVERIFY2(got.error.isEmpty(), qPrintable(got.error));
    const RoundsSourceListing &l = *got.listing;
    QCOMPARE(l.rounds, (std::vector<std::string>{"base", "new"}));
    QCOMPARE(l.errorBasis, (std::vector<std::string>{"spread of 2 files", "Poisson (samples/count)"}));
    QCOMPARE(l.files.size(), size_t(1));
    const RoundsListedFile &f = l.files.front();
    QCOMPARE(f.function, std::string("main.work"));
    QCOMPARE(f.readFile, m_file);
    QCOMPARE(f.totals[0].cum, int64_t(1000));   // 300 + 100 + 500 + 100
    QCOMPARE(f.totals[1].cum, int64_t(1250));   // 200 + 1000 + 50
    // The costed lines 10..12 and 5 on each side, as go tool pprof -list shows them.
    QCOMPARE(f.lines.size(), size_t(13));
    QCOMPARE(f.lines.front().line, int64_t(5));
    QCOMPARE(f.lines.back().line, int64_t(17));
    QCOMPARE(f.lines.front().text, std::string("text of line 5"));
    auto line = [&f](int64_t n) -> const RoundsListedLine & { return f.lines[size_t(n - 5)]; };
    QCOMPARE(line(9).cost[0].cum, int64_t(0));
    QCOMPARE(line(9).vsBaseline[1].verdict, RoundVerdict::Noise);   // nothing on either side: no change

    // Line 10. base: R = 800 ns / 2 s = 400 ns/s; residuals 300 - 400 and 500 - 400, so
    // SE = sqrt(2/1 * (100² + 100²)) / 2 s = 100 ns/s. new: 200 ns / 2 s = 100 ns/s, Poisson 200/sqrt(2)/2 s.
    // Change -300 ns/s against 2 * sqrt(100² + 70.71²) = 244.9: faster.
    const RoundsListedLine &l10 = line(10);
    QCOMPARE(l10.cost[0].cum, int64_t(800));
    QCOMPARE(l10.cost[0].flat, int64_t(800));
    QCOMPARE(l10.cost[1].cum, int64_t(200));
    QCOMPARE(l10.cumRate[0].rate, 400.0);
    QCOMPARE(l10.cumRate[0].standardError, 100.0);
    QCOMPARE(l10.cumRate[0].basis, ErrorBasis::Spread);
    QCOMPARE(l10.cumRate[1].rate, 100.0);
    QVERIFY(std::fabs(l10.cumRate[1].standardError - 200 / std::sqrt(2.0) / 2) < 1e-9);
    QCOMPARE(l10.cumRate[1].basis, ErrorBasis::Poisson);
    QCOMPARE(l10.vsBaseline[0].verdict, RoundVerdict::Baseline);
    QCOMPARE(l10.vsBaseline[1].delta, -300.0);
    QCOMPARE(l10.vsBaseline[1].percent, -75.0);
    QVERIFY(std::fabs(l10.vsBaseline[1].standardError - std::sqrt(15000.0)) < 1e-9);
    QCOMPARE(l10.vsBaseline[1].verdict, RoundVerdict::Faster);

    // Line 11. base 100 ns/s in both files: SE 0. new 1000 ns / 2 s = 500 ns/s, Poisson 1000/sqrt(10)/2 s =
    // 158.1; +400 against 2 * 158.1: slower.
    const RoundsListedLine &l11 = line(11);
    QCOMPARE(l11.cumRate[0].rate, 100.0);
    QCOMPARE(l11.cumRate[0].standardError, 0.0);
    QCOMPARE(l11.cumRate[1].rate, 500.0);
    QCOMPARE(l11.vsBaseline[1].verdict, RoundVerdict::Slower);

    // Line 12, new only: 50 ns / 2 s = 25 ns/s, Poisson 50/1/2 s = 25; +25 against 2 * 25: noise.
    const RoundsListedLine &l12 = line(12);
    QCOMPARE(l12.cost[0].cum, int64_t(0));
    QCOMPARE(l12.cumRate[0].rate, 0.0);
    QCOMPARE(l12.cumRate[1].rate, 25.0);
    QCOMPARE(l12.cumRate[1].standardError, 25.0);
    QCOMPARE(l12.vsBaseline[1].verdict, RoundVerdict::Noise);

    // With the noise test off, the sign decides.
    const RoundsSource off = listFunctionRounds(m_rounds, kCpu, "main.work", SourcePaths{}, 0);
    QCOMPARE(off.listing->files.front().lines[size_t(12 - 5)].vsBaseline[1].verdict, RoundVerdict::Slower);
}

void tst_RoundsSource::aServerRoundHasNoLines()
{
    // A server's window: observations given, its tree function names only (no file, no line).
    Builder b(kTypes);
    const uint64_t work = b.function("main.work", 0);
    b.sample({b.location(0x1, {{work, 0}})}, {4, 400});
    b.message().set_duration_nanos(20'000'000'000);
    RoundInput server{"window", {b.profile("round window")}, {{400, 10'000'000'000, "window step 0"},
                                                              {0, 10'000'000'000, "window step 1"}}};
    const RoundsSource got = listFunctionRounds({server}, kCpu, "main.work", SourcePaths{}, 2);
    QVERIFY2(got.error.isEmpty(), qPrintable(got.error));
    QCOMPARE(got.listing->files.size(), size_t(1));
    QCOMPARE(got.listing->files.front().file, std::string());
    QVERIFY(got.listing->files.front().lines.empty());
    QCOMPARE(got.listing->errorBasis, std::vector<std::string>{"Poisson (samples/count)"});
}

void tst_RoundsSource::aMissingSampleTypeNamesTheRound()
{
    Builder b;   // samples/count only
    const uint64_t work = b.function("main.work", 9, m_file);
    b.sample({b.location(0x1, {{work, 10}})}, {1});
    std::vector<RoundInput> rounds = m_rounds;
    rounds.push_back({"counts", {b.profile("counts.pb")}, {}});
    const RoundsSource got = listFunctionRounds(rounds, kCpu, "main.work", SourcePaths{}, 2);
    QCOMPARE(got.error, QStringLiteral("round counts: counts.pb has no sample type cpu/nanoseconds"));
    QVERIFY(!got.listing);
}

QTEST_GUILESS_MAIN(tst_RoundsSource)
#include "tst_roundssource.moc"
