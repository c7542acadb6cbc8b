// Rounds (model/rounds): the rate, its standard error from the spread, the verdicts, computed by hand here; the
// per-function cums of real files against go tool pprof's; the CLI's exact TSV.
#include "OracleFile.h"
#include "ProfileFactory.h"
#include "diff/DiffSide.h"
#include "diff/DiffTable.h"
#include "diff/DiffTree.h"
#include "formats/ProfileInput.h"
#include "rounds/Rounds.h"
#include "RunQflame.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <map>

using namespace qflame;
using qflame::test::Run;
using qflame::test::runQflame;

namespace {

constexpr int64_t kSecond = 1000000000;

QString data(const char *name)
{
    return QStringLiteral(QFLAME_TEST_DATA "/") + QLatin1String(name);
}

// A CPU profile of one or more "stack value" lines over `durationNanos`.
std::shared_ptr<const Profile> cpuProfile(const std::string &folded, int64_t durationNanos, const std::string &name)
{
    test::FoldedProfile spec;
    spec.sampleTypes = {{"cpu", "nanoseconds"}};
    spec.folded = folded;
    spec.durationNanos = durationNanos;
    return test::profileFromFolded(spec, name);
}

std::vector<Observation> observations(const std::vector<int64_t> &values, const std::vector<int64_t> &seconds)
{
    std::vector<Observation> out;
    for (size_t i = 0; i < values.size(); ++i)
        out.push_back({values[i], seconds[i] * kSecond, "o" + std::to_string(i)});
    return out;
}

bool close(double a, double b)
{
    return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b));
}

std::map<std::string, int64_t> oracleCum(const char *file)
{
    QFile f(data(file));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", file);
    QString error;
    std::map<std::string, int64_t> out;
    for (const auto &row : test::parseTopOracle(f.readAll(), &error))
        out[row.name] += row.cum;
    if (!error.isEmpty())
        qFatal("%s", qPrintable(error));
    return out;
}

}   // namespace

class tst_Rounds : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void rateAndError_data();
    void rateAndError();
    void verdicts_data();
    void verdicts();
    void publishedExample();
    void functionNoiseFromTheSpread();
    void measuredNoiseForTheDiff();
    void givenObservations();
    void cumPerRoundEqualsGoToolPprof();
    void badRounds_data();
    void badRounds();
    void cliTsv();
    void cliErrors_data();
    void cliErrors();
};

void tst_Rounds::rateAndError_data()
{
    QTest::addColumn<QList<qint64>>("values");
    QTest::addColumn<QList<qint64>>("seconds");
    QTest::addColumn<double>("poissonSamples");
    QTest::addColumn<double>("rate");
    QTest::addColumn<double>("se");   // NaN: unknown
    QTest::addColumn<int>("basis");
    const double nan = std::nan("");
    // R = Σv/Σd; SE = sqrt(k/(k-1) · Σ(v_i - R·d_i)²) / Σd, per second.
    // 10, 14 over 1 s each: R = 24/2 = 12; residuals -2, +2: Σ = 8; sqrt(2 · 8) = 4; / 2 s = 2.
    QTest::newRow("k=2") << QList<qint64>{10, 14} << QList<qint64>{1, 1} << 0.0 << 12.0 << 2.0
                         << int(ErrorBasis::Spread);
    // 10, 30, 20 over 1, 2, 1 s: R = 60/4 = 15; residuals 10-15, 30-30, 20-15: Σ = 50; sqrt(1.5 · 50) = 8.660254;
    // / 4 s = 2.1650635.
    QTest::newRow("unequal durations") << QList<qint64>{10, 30, 20} << QList<qint64>{1, 2, 1} << 0.0 << 15.0
                                       << std::sqrt(75.0) / 4 << int(ErrorBasis::Spread);
    // A step without data is an observation of 0: 0, 12 over 2 s each: R = 3; residuals -6, +6: Σ = 72;
    // sqrt(2 · 72) = 12; / 4 s = 3.
    QTest::newRow("zero observation") << QList<qint64>{0, 12} << QList<qint64>{2, 2} << 0.0 << 3.0 << 3.0
                                      << int(ErrorBasis::Spread);
    // 5, 7, 9, 11, 13 over 1 s each: R = 9; residuals -4..4 by 2: Σ = 40; sqrt(5/4 · 40) = 7.0710678; / 5 s.
    QTest::newRow("k=5") << QList<qint64>{5, 7, 9, 11, 13} << QList<qint64>{1, 1, 1, 1, 1} << 0.0 << 9.0
                         << std::sqrt(50.0) / 5 << int(ErrorBasis::Spread);
    // Equal observations: no spread, SE 0.
    QTest::newRow("no spread") << QList<qint64>{7, 7, 7} << QList<qint64>{1, 1, 1} << 0.0 << 7.0 << 0.0
                               << int(ErrorBasis::Spread);
    // k = 1: Poisson, 100 from 25 samples over 2 s: R = 50; SE = 100 / sqrt(25) / 2 s = 10.
    QTest::newRow("k=1 Poisson") << QList<qint64>{100} << QList<qint64>{2} << 25.0 << 50.0 << 10.0
                                 << int(ErrorBasis::Poisson);
    QTest::newRow("k=1 no counts") << QList<qint64>{100} << QList<qint64>{2} << 0.0 << 50.0 << nan
                                   << int(ErrorBasis::None);
    // A duration unknown (0): no rate, whatever the spread.
    QTest::newRow("duration unknown") << QList<qint64>{10, 14} << QList<qint64>{1, 0} << 0.0 << nan << nan
                                      << int(ErrorBasis::None);
}

void tst_Rounds::rateAndError()
{
    QFETCH(QList<qint64>, values);
    QFETCH(QList<qint64>, seconds);
    QFETCH(double, poissonSamples);
    QFETCH(double, rate);
    QFETCH(double, se);
    QFETCH(int, basis);
    const RateEstimate e = estimateRate(observations({values.begin(), values.end()}, {seconds.begin(), seconds.end()}),
                                        poissonSamples);
    QCOMPARE(e.k, size_t(values.size()));
    int64_t total = 0;
    for (qint64 v : values)
        total += v;
    QCOMPARE(e.total, total);
    QCOMPARE(e.rateKnown(), !std::isnan(rate));
    if (e.rateKnown())
        QVERIFY2(close(e.rate, rate), qPrintable(QString::number(e.rate, 'g', 17)));
    QCOMPARE(e.errorKnown(), !std::isnan(se));
    if (e.errorKnown())
        QVERIFY2(close(e.standardError, se), qPrintable(QString::number(e.standardError, 'g', 17)));
    QCOMPARE(int(e.basis), basis);
}

void tst_Rounds::verdicts_data()
{
    QTest::addColumn<QList<qint64>>("base");
    QTest::addColumn<QList<qint64>>("other");
    QTest::addColumn<double>("k");
    QTest::addColumn<double>("percent");
    QTest::addColumn<QString>("verdict");
    // base 10, 14 (R 12, SE 2). other 18, 22: R 20, SE 2; delta 8, SE_delta sqrt(8) = 2.83; 8 > 2 · 2.83: slower.
    QTest::newRow("slower") << QList<qint64>{10, 14} << QList<qint64>{18, 22} << 2.0 << 800.0 / 12 << "slower";
    QTest::newRow("faster") << QList<qint64>{18, 22} << QList<qint64>{10, 14} << 2.0 << -40.0 << "faster";
    // other 13, 17: R 15, delta 3 < 5.66: noise; with K = 1: 3 > 2.83: slower; K = 0: the sign.
    QTest::newRow("noise") << QList<qint64>{10, 14} << QList<qint64>{13, 17} << 2.0 << 25.0 << "noise";
    QTest::newRow("K=1") << QList<qint64>{10, 14} << QList<qint64>{13, 17} << 1.0 << 25.0 << "slower";
    QTest::newRow("K=0") << QList<qint64>{10, 14} << QList<qint64>{13, 17} << 0.0 << 25.0 << "slower";
    QTest::newRow("equal") << QList<qint64>{10, 14} << QList<qint64>{10, 14} << 0.0 << 0.0 << "noise";
    // A round of one observation without sample counts has no error: the test cannot be made.
    QTest::newRow("error unknown") << QList<qint64>{10, 14} << QList<qint64>{30} << 2.0 << 150.0 << "unknown";
}

void tst_Rounds::verdicts()
{
    QFETCH(QList<qint64>, base);
    QFETCH(QList<qint64>, other);
    QFETCH(double, k);
    QFETCH(double, percent);
    QFETCH(QString, verdict);
    const RateEstimate b = estimateRate(observations({base.begin(), base.end()}, std::vector<int64_t>(base.size(), 1)));
    const RateEstimate o =
        estimateRate(observations({other.begin(), other.end()}, std::vector<int64_t>(other.size(), 1)));
    const RateChange c = compareRates(b, o, k);
    QVERIFY2(close(c.percent, percent), qPrintable(QString::number(c.percent, 'g', 17)));
    QCOMPARE(QString::fromLatin1(verdictName(c.verdict)), verdict);
}

void tst_Rounds::publishedExample()
{
    // base 4.94 s/s, round 1 4.66 (-5.67 %), round 2 4.97 (+0.6 %: "similar, if not slightly worse"). Three
    // observations of 10 s per round, spread ±0.4 s around the mean: SE = sqrt(1.5 · 2 · 0.4²) / 30 = 0.0231 s/s
    // per round, SE_delta = 0.0327, so 2 SE_delta = 0.0653: -0.28 is past it, +0.03 is not.
    auto round = [](const std::string &name, std::vector<double> seconds) {
        RoundInput r{name, {}, {}};
        for (size_t i = 0; i < seconds.size(); ++i)
            r.profiles.push_back(cpuProfile("main;work " + std::to_string(int64_t(seconds[i] * 1e9)), 10 * kSecond,
                                            name + std::to_string(i)));
        return r;
    };
    const RoundsResult r = compareRounds({round("base", {49.0, 49.4, 49.8}), round("round 1", {46.2, 46.6, 47.0}),
                                          round("round 2", {49.3, 49.7, 50.1})},
                                         RoundsOptions{});
    QCOMPARE(r.rounds.size(), size_t(3));
    QVERIFY(close(r.rounds[0].estimate.rate, 4.94e9));
    QVERIFY(close(r.rounds[1].estimate.rate, 4.66e9));
    QVERIFY(close(r.rounds[2].estimate.rate, 4.97e9));
    QVERIFY(close(r.rounds[0].estimate.standardError, std::sqrt(1.5 * 2 * 0.16) / 30 * 1e9));
    QCOMPARE(QString::number(r.rounds[1].vsBaseline.percent, 'f', 2), QStringLiteral("-5.67"));
    QCOMPARE(QString::fromLatin1(verdictName(r.rounds[1].vsBaseline.verdict)), QStringLiteral("faster"));
    QCOMPARE(QString::number(r.rounds[2].vsBaseline.percent, 'f', 1), QStringLiteral("0.6"));
    QCOMPARE(QString::fromLatin1(verdictName(r.rounds[2].vsBaseline.verdict)), QStringLiteral("noise"));
    // Against the previous round, round 2 is +6.65 %, far past the noise.
    QCOMPARE(QString::number(r.rounds[2].vsPrevious.percent, 'f', 2), QStringLiteral("6.65"));
    QCOMPARE(QString::fromLatin1(verdictName(r.rounds[2].vsPrevious.verdict)), QStringLiteral("slower"));
    QCOMPARE(QString::fromLatin1(verdictName(r.rounds[0].vsBaseline.verdict)), QStringLiteral("baseline"));
}

void tst_Rounds::functionNoiseFromTheSpread()
{
    // Function a: 6 and 10 in the base files (1 s each: R 8, SE 2), 12 and 12 in the new ones (R 12, SE 0):
    // delta 4 = 2 · SE_delta exactly: noise (not past it). b: 4, 4 then 8, 8: delta 4, SE 0: slower.
    const RoundsResult r =
        compareRounds({{"base", {cpuProfile("main;a 6\nmain;b 4", kSecond, "b1"),
                                 cpuProfile("main;a 10\nmain;b 4", kSecond, "b2")}, {}},
                       {"new", {cpuProfile("main;a 12\nmain;b 8", kSecond, "n1"),
                                cpuProfile("main;a 12\nmain;b 8", kSecond, "n2")}, {}}},
                      RoundsOptions{});
    std::map<std::string, const FunctionRounds *> byName;
    for (const FunctionRounds &f : r.functions)
        byName[f.name] = &f;
    QCOMPARE(byName.size(), size_t(3));
    const FunctionRounds &a = *byName.at("a"), &b = *byName.at("b"), &main = *byName.at("main");
    QCOMPARE(a.cum, (std::vector<int64_t>{16, 24}));
    QCOMPARE(a.flat, (std::vector<int64_t>{16, 24}));
    QCOMPARE(main.cum, (std::vector<int64_t>{24, 40}));
    QCOMPARE(main.flat, (std::vector<int64_t>{0, 0}));
    QVERIFY(close(a.cumRate[0].rate, 8) && close(a.cumRate[0].standardError, 2));
    QVERIFY(close(a.cumRate[1].rate, 12) && close(a.cumRate[1].standardError, 0));
    QCOMPARE(QString::fromLatin1(verdictName(a.vsBaseline[1].verdict)), QStringLiteral("noise"));
    QCOMPARE(QString::fromLatin1(verdictName(b.vsBaseline[1].verdict)), QStringLiteral("slower"));
    // |cum_N - cum_1|: main 16, then a and b 8 each, by name.
    QCOMPARE(r.functions[0].name, std::string("main"));
    QCOMPARE(r.functions[1].name, std::string("a"));
    QCOMPARE(r.functions[2].name, std::string("b"));
}

// A server's round (qryn/ServerRounds.h): its observations are given (a step without data is 0), its one profile
// only its tree. v = 6, 10, 0 over 1 s each: R = 16/3 per s; SE = sqrt(3/2 · (2/3² + 14/3² + 16/3²)) / 3 s
// = sqrt(3/2 · 456/9) / 3 = sqrt(76) / 3.
// Two rounds' measured noise in their diff (per second): a: 6, 10 then 11, 11 (1 s each): R 8 ± 2 and 11 ± 0,
// delta 3 < 2 x 2: noise, where Poisson (no sample counts: cpu only) has no error and calls it slower. main: 10, 14
// then 19, 19: delta 7 > 2 x 2: slower either way. b: 4, 4 then 8, 8: no spread (0), so Poisson's rule stays.
void tst_Rounds::measuredNoiseForTheDiff()
{
    const std::vector<std::shared_ptr<const Profile>> base{cpuProfile("main;a 6\nmain;b 4", kSecond, "b1"),
                                                           cpuProfile("main;a 10\nmain;b 4", kSecond, "b2")},
        next{cpuProfile("main;a 11\nmain;b 8", kSecond, "n1"), cpuProfile("main;a 11\nmain;b 8", kSecond, "n2")};
    const RoundsResult r = compareRounds({{"base", base, {}}, {"new", next, {}}}, RoundsOptions{});
    const MeasuredNoise noise = measuredNoiseBetween(r, 0, 1);
    QCOMPARE(noise.normalization, Normalization::PerSecond);
    QVERIFY(close(noise.cumStandardError.at("a"), 2));
    QVERIFY(close(noise.cumStandardError.at("main"), 2));
    QVERIFY(close(noise.cumStandardError.at("b"), 0));
    QVERIFY(close(noise.totalStandardError, 2));
    QCOMPARE(noise.source, std::string("the spread of the rounds base (2 observations) and new (2)"));

    DiffOptions perSecond;
    perSecond.normalization = Normalization::PerSecond;
    const DiffSide before = DiffSide::fromProfiles(base, 0, {}), after = DiffSide::fromProfiles(next, 0, {});
    const auto tree = DiffTree::build(before, after, perSecond);
    auto classes = [](const DiffTable &t) {
        std::map<std::string, std::pair<std::string, bool>> out;
        for (const DiffRow &row : t.rows())
            out[t.displayName(row)] = {diffClassName(row.diffClass), row.measuredNoise};
        return out;
    };
    const auto measured = classes(*DiffTable::compute(tree, std::make_shared<MeasuredNoise>(noise)));
    QCOMPARE(measured.at("a"), (std::pair<std::string, bool>{"noise", true}));
    QCOMPARE(measured.at("main"), (std::pair<std::string, bool>{"slower", true}));
    QCOMPARE(measured.at("b"), (std::pair<std::string, bool>{"slower", false}));
    const auto poisson = classes(*DiffTable::compute(tree));
    QCOMPARE(poisson.at("a"), (std::pair<std::string, bool>{"slower", false}));
    // Not per second: the errors are in another unit, and are not used.
    const auto absolute = DiffTree::build(before, after, DiffOptions{});
    QCOMPARE(classes(*DiffTable::compute(absolute, std::make_shared<MeasuredNoise>(noise))).at("a"),
             (std::pair<std::string, bool>{"slower", false}));
}

void tst_Rounds::givenObservations()
{
    RoundInput round{"window", {cpuProfile("main;a 16", 3 * kSecond, "tree")}, observations({6, 10, 0}, {1, 1, 1})};
    const RoundsResult r = compareRounds({round}, RoundsOptions{});
    const RateEstimate &e = r.rounds.front().estimate;
    QCOMPARE(e.k, size_t(3));
    QCOMPARE(e.total, int64_t(16));
    QCOMPARE(e.durationNanos, 3 * kSecond);
    QCOMPARE(e.basis, ErrorBasis::Spread);
    QVERIFY(close(e.rate, 16.0 / 3) && close(e.standardError, std::sqrt(76.0) / 3));
    QCOMPARE(r.rounds.front().observations.back().value, int64_t(0));
    // The functions come from the tree: one unit over the window's 3 s, no spread to measure.
    QCOMPARE(r.functions.size(), size_t(2));
    QCOMPARE(r.functions[0].cum, std::vector<int64_t>{16});
    QCOMPARE(r.functions[0].cumRate[0].k, size_t(1));
    QVERIFY(close(r.functions[0].cumRate[0].rate, 16.0 / 3));
    QCOMPARE(r.notes, std::vector<std::string>{"round window: no sample counts: its functions' noise is unknown"});
}

void tst_Rounds::cumPerRoundEqualsGoToolPprof()
{
    // A round's tree is the merge of its files, as go tool pprof -top over them merges them: its cum per
    // function is the sum of each file's cum in the oracle (samples of different files are distinct).
    const auto base = readProfileFile(data("gen__baseline.cpu.pb.gz"));
    const auto baseZstd = readProfileFile(data("gen__baseline.cpu.pb.zst"));
    const auto opt = readProfileFile(data("gen__optimized.cpu.pb.gz"));
    const auto oBase = oracleCum("oracle/gen__baseline.cpu.pb.gz.cpu.topall");
    const auto oOpt = oracleCum("oracle/gen__optimized.cpu.pb.gz.cpu.topall");
    RoundsOptions options;
    options.sample = "cpu";
    const RoundsResult r = compareRounds({{"base", {base}, {}}, {"opt", {opt}, {}}, {"both", {base, opt}, {}},
                                          {"twice", {base, baseZstd}, {}}},
                                         options);
    QCOMPARE(r.sampleType.type, std::string("cpu"));
    size_t checked = 0;
    std::map<std::string, bool> seen;
    for (const FunctionRounds &f : r.functions) {
        const int64_t b = oBase.count(f.name) ? oBase.at(f.name) : 0, o = oOpt.count(f.name) ? oOpt.at(f.name) : 0;
        QVERIFY2(oBase.count(f.name) || oOpt.count(f.name), f.name.c_str());
        QCOMPARE(f.cum[0], b);
        QCOMPARE(f.cum[1], o);
        QCOMPARE(f.cum[2], b + o);
        QCOMPARE(f.cum[3], 2 * b);
        seen[f.name] = true;
        ++checked;
    }
    for (const auto &[name, cum] : oBase)
        QVERIFY2(seen.count(name) || cum == 0, name.c_str());
    QVERIFY(checked > 100);
    // The observations are the files' totals over their durations (both from the profiles, as pprof prints them).
    QCOMPARE(r.rounds[2].estimate.k, size_t(2));
    QCOMPARE(r.rounds[2].estimate.total, base->total(1) + opt->total(1));
    QCOMPARE(r.rounds[2].estimate.durationNanos, base->durationNanos + opt->durationNanos);
    QCOMPARE(r.rounds[0].estimate.basis, ErrorBasis::Poisson);   // one file: samples/count gives the counts
    // Two equal files: no spread at all.
    QCOMPARE(r.rounds[3].estimate.standardError, 0.0);
}

void tst_Rounds::badRounds_data()
{
    QTest::addColumn<int>("shape");
    QTest::addColumn<QString>("error");
    QTest::newRow("empty round") << 0 << "round empty has no profiles";
    QTest::newRow("other type") << 1 << "round heap: h.pb has no sample type cpu/nanoseconds (it has: "
                                        "alloc_space/bytes)";
    QTest::newRow("no such type") << 2 << "round base: b.pb has no sample type 'wall' (it has: cpu/nanoseconds)";
}

void tst_Rounds::badRounds()
{
    QFETCH(int, shape);
    QFETCH(QString, error);
    const auto cpu = cpuProfile("main;a 5", kSecond, "b.pb");
    std::vector<RoundInput> rounds = {{"base", {cpu}, {}}};
    RoundsOptions options;
    if (shape == 0)
        rounds.push_back({"empty", {}, {}});
    if (shape == 1)
        rounds.push_back({"heap", {test::profileFromFolded("main;a 5", "alloc_space", "bytes", "h.pb")}, {}});
    if (shape == 2)
        options.sample = "wall";
    try {
        compareRounds(rounds, options);
        QFAIL("no error");
    } catch (const ProfileError &e) {
        QCOMPARE(QString::fromStdString(e.what()), error);
    }
}

void tst_Rounds::cliTsv()
{
    QTemporaryDir dir;
    auto write = [&](const char *name, const std::string &folded) {
        test::FoldedProfile spec;
        spec.sampleTypes = {{"cpu", "nanoseconds"}};
        spec.folded = folded;
        spec.durationNanos = kSecond;
        QFile f(dir.filePath(QLatin1String(name)));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(test::gzipBytes(test::pprofBytes(spec))));
    };
    write("b1.pb.gz", "main;a 6\nmain;b 4");
    write("b2.pb.gz", "main;a 10\nmain;b 4");
    write("n1.pb.gz", "main;a 12\nmain;b 8\nmain;c 2");
    write("n2.pb.gz", "main;a 12\nmain;b 8");
    const Run run = runQflame({QStringLiteral("rounds"), QStringLiteral("-r"), QStringLiteral("base"),
                               dir.filePath(QStringLiteral("b1.pb.gz")), dir.filePath(QStringLiteral("b2.pb.gz")),
                               QStringLiteral("--tsv"), QStringLiteral("-r"), QStringLiteral("new round"),
                               dir.filePath(QStringLiteral("n1.pb.gz")), dir.filePath(QStringLiteral("n2.pb.gz"))});
    QCOMPARE(run.err, QByteArray());
    QCOMPARE(run.code, 0);
    // base: 10, 14 over 1 s each: rate 12, SE 2. new: 22, 20: rate 21, residuals ±1: sqrt(2 · 2) / 2 = 1;
    // change +75 %, SE_delta sqrt(5) = 2.24: slower. Functions by |cum_new - cum_base|: main 18, a 8, b 8, c 2.
    QCOMPARE(run.out, QByteArray("round\tbase\t2\t24\t2000000000\t12\t2\t0\tbaseline\n"
                                 "round\tnew round\t2\t42\t2000000000\t21\t1\t75\tslower\n"
                                 "function\tmain\t24\t42\n"
                                 "function\ta\t16\t24\n"
                                 "function\tb\t8\t16\n"
                                 "function\tc\t0\t2\n"));
    // CSV: the same rows.
    const Run csv = runQflame({QStringLiteral("rounds"), QStringLiteral("--csv"), QStringLiteral("-r"),
                               QStringLiteral("base"), dir.filePath(QStringLiteral("b1.pb.gz")),
                               QStringLiteral("-r"), QStringLiteral("n"), dir.filePath(QStringLiteral("n1.pb.gz"))});
    QCOMPARE(csv.code, 0);
    QVERIFY2(csv.out.startsWith("round,base,1,10,1000000000,10,"), csv.out.constData());
    QVERIFY2(csv.out.contains("\r\nfunction,main,10,22\r\n"), csv.out.constData());

    // JSON (docs/json.md): the --tsv numbers, the same rounds and functions in the same order.
    const Run json = runQflame({QStringLiteral("rounds"), QStringLiteral("-r"), QStringLiteral("base"),
                                dir.filePath(QStringLiteral("b1.pb.gz")), dir.filePath(QStringLiteral("b2.pb.gz")),
                                QStringLiteral("--json"), QStringLiteral("-r"), QStringLiteral("new round"),
                                dir.filePath(QStringLiteral("n1.pb.gz")), dir.filePath(QStringLiteral("n2.pb.gz"))});
    QCOMPARE(json.code, 0);
    QJsonParseError error;
    const QJsonObject doc = QJsonDocument::fromJson(json.out, &error).object();
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    QCOMPARE(doc.value("report").toString(), QStringLiteral("rounds"));
    const QJsonArray rounds = doc.value("rounds").toArray();
    QCOMPARE(rounds.size(), 2);
    const QJsonObject base = rounds[0].toObject(), next = rounds[1].toObject();
    QCOMPARE(base.value("k").toInteger(), qint64(2));
    QCOMPARE(base.value("total").toInteger(), qint64(24));
    QCOMPARE(base.value("duration_nanos").toInteger(), qint64(2000000000));
    QCOMPARE(base.value("rate").toDouble(), 12.0);
    QCOMPARE(base.value("standard_error").toDouble(), 2.0);
    QCOMPARE(base.value("vs_baseline").toObject().value("verdict").toString(), QStringLiteral("baseline"));
    QCOMPARE(next.value("name").toString(), QStringLiteral("new round"));
    QCOMPARE(next.value("rate").toDouble(), 21.0);
    QCOMPARE(next.value("standard_error").toDouble(), 1.0);
    QCOMPARE(next.value("vs_baseline").toObject().value("percent").toDouble(), 75.0);
    QCOMPARE(next.value("vs_baseline").toObject().value("verdict").toString(), QStringLiteral("slower"));
    QStringList functions;
    for (const QJsonValue &f : doc.value("functions").toArray()) {
        const QJsonArray cum = f.toObject().value("cum").toArray();
        functions << QStringLiteral("%1 %2 %3").arg(f.toObject().value("name").toString())
                         .arg(cum[0].toInteger()).arg(cum[1].toInteger());
    }
    QCOMPARE(functions, (QStringList{"main 24 42", "a 16 24", "b 8 16", "c 0 2"}));
}

void tst_Rounds::cliErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("firstLine");
    const QString base = data("gen__baseline.cpu.pb.gz");
    QTest::newRow("no rounds") << QStringList{} << 1 << "qflame: rounds takes at least one round: -r NAME FILE...";
    QTest::newRow("file first") << QStringList{base} << 1
                                << "qflame: rounds: '" + base + "' comes before the first -r NAME";
    QTest::newRow("empty round") << QStringList{QStringLiteral("-r"), QStringLiteral("a"), base, QStringLiteral("-r"),
                                                QStringLiteral("b")}
                                 << 1 << "qflame: round b has no FILEs";
    QTest::newRow("two outputs") << QStringList{QStringLiteral("--tsv"), QStringLiteral("--markdown"),
                                                QStringLiteral("-r"), QStringLiteral("a"), base}
                                 << 1 << "qflame: rounds takes one of --tsv, --csv, --markdown and --json";
    QTest::newRow("bad noise") << QStringList{QStringLiteral("--noise"), QStringLiteral("-1"), QStringLiteral("-r"),
                                              QStringLiteral("a"), base}
                               << 1 << "qflame: --noise takes a number >= 0, not '-1'";
    // (With an output option: without one, rounds is the window's.)
    QTest::newRow("unreadable") << QStringList{QStringLiteral("--tsv"), QStringLiteral("-r"), QStringLiteral("a"), base,
                                               QStringLiteral("-r"),
                                               QStringLiteral("b"), QStringLiteral("/nonexistent.pb")}
                                << 2
                                << "qflame: round b: /nonexistent.pb: cannot open: No such file or directory";
    QTest::newRow("mixed types") << QStringList{QStringLiteral("--tsv"), QStringLiteral("-r"), QStringLiteral("cpu"), base,
                                                QStringLiteral("-r"),
                                                QStringLiteral("heap"), data("gen__heap.pb.gz")}
                                 << 2
                                 << "qflame: round heap: " + data("gen__heap.pb.gz") +
                                        " has no sample type cpu/nanoseconds (it has: alloc_objects/count, "
                                        "alloc_space/bytes, inuse_objects/count, inuse_space/bytes)";
}

void tst_Rounds::cliErrors()
{
    QFETCH(QStringList, args);
    QFETCH(int, code);
    QFETCH(QString, firstLine);
    const Run run = runQflame(QStringList{QStringLiteral("rounds")} + args);
    QCOMPARE(run.code, code);
    QCOMPARE(QString::fromUtf8(run.err).section(QLatin1Char('\n'), 0, 0), firstLine);
    QVERIFY(run.out.isEmpty());
}

QTEST_GUILESS_MAIN(tst_Rounds)
#include "tst_rounds.moc"
