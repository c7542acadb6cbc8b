// The diff's normalisations (none, per second, total, a factor) and its noise rule, on hand-made profiles with
// hand-computed values (the union's shape and the real pair are tst_difftree).
#include "DiffTreeTesting.h"
#include "diff/DiffTable.h"

#include <QTest>

#include <cmath>

using namespace qflame;
using qflame::test::diffOf;
using qflame::test::find;
using qflame::test::folded;
using qflame::test::FoldedProfile;
using qflame::test::rowOf;

Q_DECLARE_METATYPE(qflame::DiffClass)

class tst_DiffNormalization : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void perSecond();
    void perSecondNeedsDurations();
    void durationsDiffer_data();
    void durationsDiffer();
    void totalAndFactor();
    void parseNormalization_data();
    void parseNormalization();
    void noise_data();
    void noise();
    void noiseUnknown();
};

// 4 s and 6 s of CPU in 10 s, then 8 s and 16 s in 20 s: a keeps its rate, b rises from 0.6 to 0.8 cores.
void tst_DiffNormalization::perSecond()
{
    FoldedProfile before = folded("main;a 4000000000\nmain;b 6000000000", "cpu", "nanoseconds");
    before.durationNanos = 10'000'000'000;
    FoldedProfile after = folded("main;a 8000000000\nmain;b 16000000000", "cpu", "nanoseconds");
    after.durationNanos = 20'000'000'000;
    DiffOptions perSecond;
    perSecond.normalization = Normalization::PerSecond;
    const auto t = diffOf(before, after, perSecond);
    QCOMPARE_EXACT(t->beforeTotal(find(*t, "main;a")), 4e8);
    QCOMPARE_EXACT(t->afterTotal(find(*t, "main;a")), 4e8);
    QCOMPARE(t->classOf(find(*t, "main;a")), DiffClass::Unchanged);
    QCOMPARE_EXACT(t->deltaTotal(find(*t, "main;b")), 2e8);
    QCOMPARE_EXACT(t->deltaTotal(DiffTree::kRoot), 2e8);
    QCOMPARE(t->beforeTotalRaw(DiffTree::kRoot), 10'000'000'000);   // raw values stay as they are
    QCOMPARE(t->formatValue(t->deltaTotal(DiffTree::kRoot), true), std::string("+0.2 cores"));
    QCOMPARE(t->valueUnit(), std::string("nanoseconds/s"));
    QVERIFY(t->durationsDiffer());
    QCOMPARE(t->durationDescription(), std::string("durations 10 s -> 20 s (+100.0%, more than 5% apart)"));
    const auto none = t->withOptions({});
    QCOMPARE(none->durationDescription(),
             std::string("durations 10 s -> 20 s (+100.0%, more than 5% apart: consider per-second)"));
    QCOMPARE_EXACT(none->deltaTotal(find(*t, "main;a")), 4e9);
    QCOMPARE(&none->frames(), &t->frames());   // other options, same structure
}

void tst_DiffNormalization::perSecondNeedsDurations()
{
    FoldedProfile before = folded("main 1", "cpu", "nanoseconds"), after = before;
    after.durationNanos = 1'000'000'000;
    DiffOptions perSecond;
    perSecond.normalization = Normalization::PerSecond;
    try {
        diffOf(before, after, perSecond);
        QFAIL("per-second without a baseline duration was accepted");
    } catch (const ProfileError &e) {
        QCOMPARE(std::string(e.what()),
                 std::string("cannot normalise per second: the baseline (base.pb) records no duration"));
    }
    const auto t = diffOf(before, after);
    QVERIFY(!t->durationsDiffer());   // unknown is not "different"
    QCOMPARE(t->durationDescription(), std::string("durations unknown -> 1 s"));
    QVERIFY_THROWS_EXCEPTION(ProfileError, t->withOptions(perSecond));
}

void tst_DiffNormalization::durationsDiffer_data()
{
    QTest::addColumn<qint64>("before");
    QTest::addColumn<qint64>("after");
    QTest::addColumn<bool>("differ");
    QTest::newRow("equal") << qint64(10'000'000'000) << qint64(10'000'000'000) << false;
    QTest::newRow("5% longer: not more than 5%") << qint64(10'000'000'000) << qint64(10'500'000'000) << false;
    QTest::newRow("5.01% longer") << qint64(10'000'000'000) << qint64(10'501'000'000) << true;
    QTest::newRow("5.01% shorter") << qint64(10'000'000'000) << qint64(9'499'000'000) << true;
}

void tst_DiffNormalization::durationsDiffer()
{
    QFETCH(qint64, before);
    QFETCH(qint64, after);
    QFETCH(bool, differ);
    FoldedProfile b = folded("main 1"), a = b;
    b.durationNanos = before;
    a.durationNanos = after;
    QCOMPARE(diffOf(b, a)->durationsDiffer(), differ);
}

void tst_DiffNormalization::totalAndFactor()
{
    const FoldedProfile before = folded("main;a 4\nmain;b 6"), after = folded("main;a 8\nmain;b 16");
    DiffOptions factor;
    factor.normalization = Normalization::Factor;
    factor.factor = 0.5;
    const auto half = diffOf(before, after, factor);
    QCOMPARE_EXACT(half->afterTotal(find(*half, "main;a")), 4);
    QCOMPARE(half->classOf(find(*half, "main;a")), DiffClass::Unchanged);
    QCOMPARE_EXACT(half->deltaTotal(find(*half, "main;b")), 2);
    QCOMPARE_EXACT(half->deltaSelf(find(*half, "main")), 0);
    QCOMPARE(half->normalizationDescription(), std::string("factor (the comparison multiplied by 0.5)"));

    DiffOptions total;
    total.normalization = Normalization::Total;   // 10 / 24
    const auto share = half->withOptions(total);
    QCOMPARE_EXACT(share->afterTotal(find(*share, "main;a")), 8.0 * 10.0 / 24.0);
    QCOMPARE_EXACT(share->deltaTotal(find(*share, "main;b")), 16.0 * 10.0 / 24.0 - 6.0);
    QCOMPARE(share->classOf(find(*share, "main;a")), DiffClass::Faster);   // 3.33 < 4
    QCOMPARE(share->classOf(find(*share, "main;b")), DiffClass::Slower);   // 6.67 > 6
}

void tst_DiffNormalization::parseNormalization_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<int>("normalization");
    QTest::addColumn<double>("factor");
    QTest::newRow("none") << "none" << true << int(Normalization::None) << 1.0;
    QTest::newRow("per-second") << "per-second" << true << int(Normalization::PerSecond) << 1.0;
    QTest::newRow("total") << "total" << true << int(Normalization::Total) << 1.0;
    QTest::newRow("factor") << "1.5" << true << int(Normalization::Factor) << 1.5;
    QTest::newRow("zero") << "0" << false << 0 << 1.0;
    QTest::newRow("negative") << "-2" << false << 0 << 1.0;
    QTest::newRow("word") << "shares" << false << 0 << 1.0;
    QTest::newRow("trailing junk") << "2x" << false << 0 << 1.0;
}

void tst_DiffNormalization::parseNormalization()
{
    QFETCH(QString, text);
    QFETCH(bool, ok);
    QFETCH(int, normalization);
    QFETCH(double, factor);
    DiffOptions o;
    QCOMPARE(qflame::parseNormalization(text.toStdString(), &o), ok);
    if (ok) {
        QCOMPARE(int(o.normalization), normalization);
        QCOMPARE_EXACT(o.factor, factor);
    }
}

void tst_DiffNormalization::noise_data()
{
    QTest::addColumn<bool>("period");   // counts from value / period instead of a samples/count type
    QTest::addColumn<int>("before");    // samples of 10 ms
    QTest::addColumn<int>("after");
    QTest::addColumn<double>("k");
    QTest::addColumn<DiffClass>("expected");
    for (bool period : {false, true}) {
        const char *how = period ? "period" : "samples/count";
        // The standard error is 10 ms * sqrt(before + after): 100 ms for 100 samples.
        QTest::addRow("%s: 60 -> 40, delta exactly 2 SE", how) << period << 60 << 40 << 2.0 << DiffClass::Faster;
        QTest::addRow("%s: 59 -> 41, inside 2 SE", how) << period << 59 << 41 << 2.0 << DiffClass::WithinNoise;
        QTest::addRow("%s: 60 -> 41, just inside (19 < 20.1)", how) << period << 60 << 41 << 2.0
                                                                   << DiffClass::WithinNoise;
        QTest::addRow("%s: 61 -> 40, just outside (21 > 20.1)", how) << period << 61 << 40 << 2.0
                                                                    << DiffClass::Faster;
        QTest::addRow("%s: 40 -> 61, outside, up", how) << period << 40 << 61 << 2.0 << DiffClass::Slower;
        QTest::addRow("%s: 60 -> 40 at k=3", how) << period << 60 << 40 << 3.0 << DiffClass::WithinNoise;
        QTest::addRow("%s: 59 -> 41, test off", how) << period << 59 << 41 << 0.0 << DiffClass::Faster;
    }
}

void tst_DiffNormalization::noise()
{
    QFETCH(bool, period);
    QFETCH(int, before);
    QFETCH(int, after);
    QFETCH(double, k);
    QFETCH(DiffClass, expected);
    auto make = [&](int n) {
        FoldedProfile p;
        const std::string ns = std::to_string(int64_t(n) * 10'000'000);
        if (period) {
            p.sampleTypes = {{"cpu", "nanoseconds"}};
            p.period = 10'000'000;
            p.periodType = {"cpu", "nanoseconds"};
            p.folded = "main;f " + ns;
        } else {
            p.sampleTypes = {{"samples", "count"}, {"cpu", "nanoseconds"}};
            p.folded = "main;f " + std::to_string(n) + " " + ns;
        }
        return p;
    };
    DiffOptions options;
    options.noiseK = k;
    const auto t = diffOf(make(before), make(after), options);
    QVERIFY(t->hasSampleCounts());
    const NodeId f = find(*t, "main;f");
    QCOMPARE_EXACT(t->beforeSamples(f), before);
    QCOMPARE_EXACT(t->afterSamples(f), after);
    QCOMPARE_EXACT(t->standardError(f), std::sqrt(double(before + after) * 1e14));   // (1e7 ns)^2 per sample
    QCOMPARE(t->classOf(f), expected);
    const DiffRow &row = rowOf(*DiffTable::compute(t), "f");
    QCOMPARE_EXACT(row.standardErrorCum, std::sqrt(double(before + after) * 1e14));
    QCOMPARE(row.diffClass, expected);
    QCOMPARE(t->noiseDescription(),
             k == 0 ? std::string("noise test off")
                    : "within noise: |delta| < " + formatExact(k) + " standard errors (counts: " +
                          (period ? "value / period (10000000 nanoseconds)" : "samples/count") + ")");
}

void tst_DiffNormalization::noiseUnknown()
{
    const auto t = diffOf(folded("main;f 590000000", "cpu", "nanoseconds"),
                          folded("main;f 410000000", "cpu", "nanoseconds"));
    QVERIFY(!t->hasSampleCounts());
    QCOMPARE_EXACT(t->standardError(find(*t, "main;f")), 0);
    QCOMPARE(t->classOf(find(*t, "main;f")), DiffClass::Faster);
    QCOMPARE(t->noiseDescription(),
             std::string("noise unknown: neither side has sample counts "
                         "(no samples/count type, no period of this type)"));
}

QTEST_GUILESS_MAIN(tst_DiffNormalization)
#include "tst_diffnormalization.moc"
