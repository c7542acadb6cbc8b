// The diff model: the union of two call trees, normalisation, noise and the per-function table, on hand-made
// profiles with hand-computed values and on the real pair against `go tool pprof -top -diff_base`.
#include "DiffTreeTesting.h"
#include "diff/DiffHeadline.h"
#include "diff/DiffTable.h"
#include "formats/ProfileInput.h"
#include "OracleFile.h"

#include <QFile>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace qflame;
using qflame::test::diffOf;
using qflame::test::find;
using qflame::test::folded;
using qflame::test::FoldedProfile;
using qflame::test::OracleRow;
using qflame::test::rowOf;

Q_DECLARE_METATYPE(qflame::DiffClass)

namespace {

// Every node in id order: "path before->after class"; checks the invariants of the shape on the way.
QString dump(const DiffTree &t)
{
    QStringList lines;
    for (NodeId n = 0; n < t.size(); ++n) {
        if (n > 0) {
            const NodeId p = t.parent(n);
            if (!(p < n && n >= t.firstChild(p) && n < t.firstChild(p) + t.childCount(p) &&
                  t.depth(n) == t.depth(p) + 1))
                return QStringLiteral("broken shape at node %1").arg(n);
            if (n > t.firstChild(p) && !(t.label(n - 1) < t.label(n)))
                return QStringLiteral("siblings out of order at node %1").arg(n);
        }
        int64_t childBefore = 0, childAfter = 0;
        for (NodeId c = t.firstChild(n); c < t.firstChild(n) + t.childCount(n); ++c) {
            childBefore += t.beforeTotalRaw(c);
            childAfter += t.afterTotalRaw(c);
        }
        if (t.beforeTotalRaw(n) != t.beforeSelfRaw(n) + childBefore ||
            t.afterTotalRaw(n) != t.afterSelfRaw(n) + childAfter)
            return QStringLiteral("total != self + children at node %1").arg(n);
        QStringList path;
        for (NodeId p : t.pathTo(n))
            path << QString::fromStdString(t.label(p));
        lines << QStringLiteral("%1 %2->%3 %4")
                     .arg(n == 0 ? QStringLiteral("root") : path.join(QLatin1Char(';')))
                     .arg(t.beforeTotalRaw(n))
                     .arg(t.afterTotalRaw(n))
                     .arg(QLatin1String(diffClassName(t.classOf(n))));
    }
    return lines.join(QLatin1Char('\n'));
}

}   // namespace

class tst_DiffTree : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void apples();
    void applesInShareView();
    void headline();
    void unionShape_data();
    void unionShape();
    void oneSideOnly();
    void countsFollowTheComparedSamples();
    void deepStack();
    void deepRecursionCountsOnce();
    void mismatchedSampleTypesRefused();
    void realPairMatchesPprofDiffBase();
    void realPairSidesMatchTheirOwnTop();
};

void tst_DiffTree::apples()
{
    const auto t = diffOf(folded("me 2\njohn 2\nmike 2"), folded("me 1\njohn 2\nmike 2"));
    QVERIFY(!t->hasSampleCounts());   // "apples" are no sample counts: nothing can be called noise
    QCOMPARE(dump(*t), QStringLiteral("root 6->5 faster\njohn 2->2 unchanged\nme 2->1 faster\nmike 2->2 unchanged"));
    QCOMPARE_EXACT(t->deltaTotal(find(*t, "me")), -1);
    QCOMPARE_EXACT(t->deltaTotal(find(*t, "john")), 0);
    QCOMPARE_EXACT(t->deltaTotal(find(*t, "mike")), 0);
    QCOMPARE_EXACT(t->deltaTotal(DiffTree::kRoot), -1);
    QCOMPARE(t->normalizationDescription(), std::string("none (absolute values in count)"));

    const auto table = DiffTable::compute(t);
    QCOMPARE(table->rows().size(), size_t(3));
    QCOMPARE(table->label(table->rows()[0]), std::string("me"));   // |delta| first, then name
    QCOMPARE(table->label(table->rows()[1]), std::string("john"));
    QCOMPARE(table->label(table->rows()[2]), std::string("mike"));
    QCOMPARE(table->rows()[0].diffClass, DiffClass::Faster);
    QCOMPARE_EXACT(table->rows()[0].deltaCum, -1);
    QCOMPARE(table->rows()[1].diffClass, DiffClass::Unchanged);
    QCOMPARE(table->rows()[2].diffClass, DiffClass::Unchanged);
}

// The share view this project exists to avoid: scaled to the baseline total (6/5), john and mike, who kept their
// apples, "grow" by 0.4 apples each (33% -> 40% of the total) and the total looks unchanged.
void tst_DiffTree::applesInShareView()
{
    DiffOptions share;
    share.normalization = Normalization::Total;
    const auto t = diffOf(folded("me 2\njohn 2\nmike 2"), folded("me 1\njohn 2\nmike 2"), share);
    QCOMPARE_EXACT(t->afterScale(), 6.0 / 5.0);
    QCOMPARE_EXACT(t->afterTotal(find(*t, "john")), 2.0 * 6.0 / 5.0);
    QCOMPARE_EXACT(t->deltaTotal(find(*t, "john")), 2.4 - 2.0);
    QCOMPARE_EXACT(t->deltaTotal(find(*t, "mike")), 2.4 - 2.0);
    QCOMPARE_EXACT(t->deltaTotal(find(*t, "me")), 1.2 - 2.0);
    QCOMPARE_EXACT(t->deltaTotal(DiffTree::kRoot), 0);
    QCOMPARE(t->classOf(find(*t, "john")), DiffClass::Slower);
    QCOMPARE(t->classOf(find(*t, "mike")), DiffClass::Slower);
    QCOMPARE(t->classOf(find(*t, "me")), DiffClass::Faster);
    QCOMPARE(t->classOf(DiffTree::kRoot), DiffClass::Unchanged);
    QCOMPARE(t->normalizationDescription(),
             std::string("total: the share view, not cost (the comparison scaled by 1.2 to the baseline total)"));
    QCOMPARE(DiffTable::compute(t)->rows()[0].deltaCum, 1.2 - 2.0);   // me still leads: |-0.8| > 0.4
}

// The headline the CLI prints and the diff view shows (diff/DiffHeadline): one computation for both.
void tst_DiffTree::headline()
{
    const auto t = diffOf(folded("me 2\njohn 2\nmike 2"), folded("me 1\njohn 2\nmike 2\nann 3"));
    DiffHeadline h = diffHeadline(*t);
    QCOMPARE_EXACT(h.before, 6);
    QCOMPARE_EXACT(h.after, 8);
    QCOMPARE_EXACT(h.delta, 2);
    QCOMPARE(h.beforeText, std::string("6"));
    QCOMPARE(h.afterText, std::string("8"));
    QCOMPARE(h.deltaText, std::string("+2"));
    QCOMPARE(h.changePercent, std::string("+33.33%"));   // 2 / 6
    QCOMPARE(h.normalization, std::string("none (absolute values in count)"));
    QCOMPARE(h.measured, DiffHeadline::Measured::None);

    // A change of nothing has no share; a function new in the comparison is "new", one on neither side "0%".
    QCOMPARE(formatChangePercent(5, 0), std::string("-"));
    QCOMPARE(formatChangePercent(-1, 4), std::string("-25.00%"));
    QCOMPARE(formatChangePercent(0, 4), std::string("0.00%"));
    const auto table = DiffTable::compute(t);
    QCOMPARE(table->label(table->rows()[0]), std::string("ann"));
    QCOMPARE(cumChangeText(table->rows()[0]), std::string("new"));
    QVERIFY(std::isinf(cumChangePercent(table->rows()[0])));
    QCOMPARE(cumChangeText(table->rows()[1]), std::string("-50.00%"));   // me: 2 -> 1
    QCOMPARE_EXACT(cumChangePercent(table->rows()[1]), -50);

    // Measured noise (rounds): the total change of 2 against K = 2 of its standard errors.
    MeasuredNoise noise;
    noise.normalization = Normalization::None;
    noise.source = "two rounds";
    noise.totalStandardError = 0.9;   // 2 > 2 * 0.9: real
    QCOMPARE(diffHeadline(*t, &noise).measured, DiffHeadline::Measured::Real);
    QCOMPARE(diffHeadline(*t, &noise).measuredSource, std::string("two rounds"));
    noise.totalStandardError = 1.0;   // 2 > 2 * 1.0 is false: noise
    QCOMPARE(diffHeadline(*t, &noise).measured, DiffHeadline::Measured::Noise);
    noise.totalStandardError = 0;
    QCOMPARE(diffHeadline(*t, &noise).measured, DiffHeadline::Measured::NotTested);
    noise.normalization = Normalization::PerSecond;   // the tree is not per second
    QCOMPARE(diffHeadline(*t, &noise).measured, DiffHeadline::Measured::OtherNormalization);
}

void tst_DiffTree::unionShape_data()
{
    QTest::addColumn<QString>("before");
    QTest::addColumn<QString>("after");
    QTest::addColumn<bool>("lines");
    QTest::addColumn<QString>("expected");
    QTest::newRow("identical") << "main;a 1\nmain;b 2" << "main;a 1\nmain;b 2" << false
                               << "root 3->3 unchanged\nmain 3->3 unchanged\nmain;a 1->1 unchanged\n"
                                  "main;b 2->2 unchanged";
    QTest::newRow("interleaved siblings")
        << "main;a 1\nmain;c 1\nmain;e 1" << "main;b 1\nmain;c 2\nmain;d 1" << false
        << "root 3->4 slower\nmain 3->4 slower\nmain;a 1->0 removed\nmain;b 0->1 new\nmain;c 1->2 slower\n"
           "main;d 0->1 new\nmain;e 1->0 removed";
    QTest::newRow("subtree on one side")
        << "main;x;y;z 4" << "main 1\nmain;w 1" << false
        << "root 4->2 faster\nmain 4->2 faster\nmain;w 0->1 new\nmain;x 4->0 removed\nmain;x;y 4->0 removed\n"
           "main;x;y;z 4->0 removed";
    QTest::newRow("recursion") << "main;r;r 2" << "main;r 1\nmain;r;r 1" << false
                               << "root 2->2 unchanged\nmain 2->2 unchanged\nmain;r 2->2 unchanged\n"
                                  "main;r;r 2->1 faster";
    QTest::newRow("empty comparison") << "main;a 1" << "" << false
                                      << "root 1->0 faster\nmain 1->0 removed\nmain;a 1->0 removed";
    QTest::newRow("two lines, functions") << "main;f@f.go:1 1\nmain;f@f.go:2 1" << "main;f@f.go:1 1" << false
                                          << "root 2->1 faster\nmain 2->1 faster\nmain;f 2->1 faster";
    QTest::newRow("two lines, lines")
        << "main;f@f.go:1 1\nmain;f@f.go:2 1" << "main;f@f.go:1 1" << true
        << "root 2->1 faster\nmain 2->1 faster\nmain;f f.go:1 1->1 unchanged\nmain;f f.go:2 1->0 removed";
}

void tst_DiffTree::unionShape()
{
    QFETCH(QString, before);
    QFETCH(QString, after);
    QFETCH(bool, lines);
    QFETCH(QString, expected);
    const auto t = diffOf(folded(before.toStdString()), folded(after.toStdString()), {},
                          lines ? Granularity::Lines : Granularity::Functions);
    QCOMPARE(dump(*t), expected);
}

void tst_DiffTree::oneSideOnly()
{
    const auto t = diffOf(folded("main;a 5\nmain;b 3"), folded("main;a 5\nmain;c 4"));
    const NodeId b = find(*t, "main;b"), c = find(*t, "main;c");
    QVERIFY(t->inBefore(b) && !t->inAfter(b));
    QVERIFY(!t->inBefore(c) && t->inAfter(c));
    QCOMPARE(t->afterNode(b), DiffTree::kAbsent);
    QCOMPARE(t->before().tree->label(t->beforeNode(b)), std::string("b"));
    QCOMPARE(t->after().tree->label(t->afterNode(c)), std::string("c"));
    QCOMPARE(t->classOf(b), DiffClass::Removed);
    QCOMPARE(t->classOf(c), DiffClass::New);
    QCOMPARE_EXACT(t->deltaTotal(b), -3);
    QCOMPARE_EXACT(t->deltaTotal(c), 4);
    QCOMPARE_EXACT(t->deltaTotal(find(*t, "main")), 1);

    const auto table = DiffTable::compute(t);
    const DiffRow &rb = rowOf(*table, "b"), &rc = rowOf(*table, "c");
    QCOMPARE(rb.diffClass, DiffClass::Removed);
    QCOMPARE(rb.beforeCumRaw, 3);
    QCOMPARE(rb.afterCumRaw, 0);
    QCOMPARE(rc.diffClass, DiffClass::New);
    QCOMPARE(rc.afterFlatRaw, 4);
    QCOMPARE(table->label(table->rows()[0]), std::string("c"));   // |4| > |-3| > |1| > 0
    QCOMPARE(table->label(table->rows()[1]), std::string("b"));
    QCOMPARE(table->label(table->rows()[2]), std::string("main"));
    QCOMPARE(table->label(table->rows()[3]), std::string("a"));
}

// A sample whose compared value is 0 is in neither tree, so its count must not be counted either.
void tst_DiffTree::countsFollowTheComparedSamples()
{
    FoldedProfile p;
    p.sampleTypes = {{"samples", "count"}, {"cpu", "nanoseconds"}};
    p.folded = "main;f 10 100000000\nmain;g 5 0";
    const auto t = diffOf(p, p);
    QCOMPARE(find(*t, "main;g"), DiffTree::kAbsent);
    QCOMPARE_EXACT(t->beforeSamples(find(*t, "main")), 10);
    QCOMPARE_EXACT(t->afterSelfSamples(find(*t, "main;f")), 10);
    QCOMPARE_EXACT(t->afterSelfSamples(find(*t, "main")), 0);
}

void tst_DiffTree::deepStack()
{
    std::string stack;
    for (int i = 0; i < 10000; ++i)
        stack += (i ? ";f" : "f") + std::to_string(i);
    const auto t = diffOf(folded(stack + " 3", "samples", "count"), folded(stack + " 5", "samples", "count"));
    QCOMPARE(t->size(), size_t(10001));
    QCOMPARE(t->maxDepth(), 10000u);
    QCOMPARE(t->label(10000), std::string("f9999"));
    QCOMPARE_EXACT(t->deltaSelf(10000), 2);
    QCOMPARE_EXACT(t->deltaTotal(1), 2);
    QCOMPARE(t->pathTo(10000).size(), size_t(10000));
    const auto table = DiffTable::compute(t);
    QCOMPARE(table->rows().size(), size_t(10000));
    for (const DiffRow &r : table->rows())
        QVERIFY(r.beforeCumRaw == 3 && r.afterCumRaw == 5);
}

void tst_DiffTree::deepRecursionCountsOnce()
{
    std::string stack = "r";
    for (int i = 1; i < 10000; ++i)
        stack += ";r";
    const auto table = DiffTable::compute(diffOf(folded(stack + " 3"), folded("r;r 1\n" + stack + " 2")));
    QCOMPARE(table->rows().size(), size_t(1));
    const DiffRow &r = table->rows()[0];
    QCOMPARE(r.beforeFlatRaw, 3);
    QCOMPARE(r.beforeCumRaw, 3);   // once per sample, however often it recurses
    QCOMPARE(r.afterFlatRaw, 3);
    QCOMPARE(r.afterCumRaw, 3);
    QCOMPARE(r.diffClass, DiffClass::Unchanged);
}

void tst_DiffTree::mismatchedSampleTypesRefused()
{
    const auto base = profileFromFolded(folded("main 1", "cpu", "nanoseconds"), "base.pb");
    const auto other = profileFromFolded(folded("main 1", "cpu", "milliseconds"), "new.pb");
    const DiffSide b = DiffSide::fromProfiles({base}, 0);
    try {
        DiffSide::fromProfiles({other}, b.tree->sampleType());
        QFAIL("a comparison without the baseline's sample type was accepted");
    } catch (const ProfileError &e) {
        QCOMPARE(std::string(e.what()),
                 std::string("new.pb: has no sample type cpu/nanoseconds to compare with (it has: cpu/milliseconds)"));
    }
    try {
        DiffTree::build(b, DiffSide::fromProfiles({other}, 0));
        QFAIL("different sample types were compared");
    } catch (const ProfileError &e) {
        QCOMPARE(std::string(e.what()), std::string("cannot compare cpu/nanoseconds (base.pb) with cpu/milliseconds "
                                                    "(new.pb): the sample types differ"));
    }
    BuildOptions lines;
    lines.granularity = Granularity::Lines;
    QVERIFY_THROWS_EXCEPTION(ProfileError, DiffTree::build(b, DiffSide::fromProfiles({base}, 0, lines)));
}

// Per-function deltas equal `go tool pprof -top -diff_base=gen__baseline gen__optimized`. pprof leaves out the
// functions whose merged flat and cum are both 0, and marks "(inline)" from the graph of both profiles, as the
// table does.
void tst_DiffTree::realPairMatchesPprofDiffBase()
{
    const auto base = readPprofFile(QStringLiteral(QFLAME_TEST_DATA "/gen__baseline.cpu.pb.gz"));
    const auto opt = readPprofFile(QStringLiteral(QFLAME_TEST_DATA "/gen__optimized.cpu.pb.gz"));
    const DiffSide b = DiffSide::fromProfiles({base}, size_t(base->findSampleType("cpu")));
    const auto t = DiffTree::build(b, DiffSide::fromProfiles({opt}, b.tree->sampleType()));
    QCOMPARE(t->before().countSource, std::string("samples/count"));
    const auto table = DiffTable::compute(t);

    QFile f(QStringLiteral(QFLAME_TEST_DATA "/oracle/gen__optimized.cpu.pb.gz.diff_base.topall"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    QString error;
    std::vector<OracleRow> expected = test::parseTopOracle(f.readAll(), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    std::vector<OracleRow> actual;
    for (const DiffRow &r : table->rows())
        if (r.afterFlatRaw != r.beforeFlatRaw || r.afterCumRaw != r.beforeCumRaw)
            actual.push_back({r.afterFlatRaw - r.beforeFlatRaw, r.afterCumRaw - r.beforeCumRaw, table->displayName(r)});
    std::sort(expected.begin(), expected.end());
    std::sort(actual.begin(), actual.end());
    QCOMPARE(actual.size(), expected.size());
    QCOMPARE(actual.size(), size_t(193));
    for (size_t i = 0; i < actual.size(); ++i)
        QVERIFY2(actual[i] == expected[i], qPrintable(QStringLiteral("%1 %2 %3 vs pprof %4 %5 %6")
                                                          .arg(actual[i].flat).arg(actual[i].cum)
                                                          .arg(QString::fromStdString(actual[i].name))
                                                          .arg(expected[i].flat).arg(expected[i].cum)
                                                          .arg(QString::fromStdString(expected[i].name))));
    QCOMPARE_EXACT(t->deltaTotal(DiffTree::kRoot), double(opt->total(1) - base->total(1)));
    QCOMPARE_EXACT(t->beforeSamples(DiffTree::kRoot), double(base->total(0)));
    // Every Go CPU sample is worth one period, so the error is exactly the period times sqrt(n_before + n_after).
    const double n = double(base->total(0) + opt->total(0));
    QCOMPARE(t->standardError(DiffTree::kRoot), 1e7 * std::sqrt(n));
}

// Each side of the union, alone, is that profile's own `pprof -top`. Names are compared without the inline
// suffix: the union marks it from both profiles' graphs, each -top from its own.
void tst_DiffTree::realPairSidesMatchTheirOwnTop()
{
    const auto base = readPprofFile(QStringLiteral(QFLAME_TEST_DATA "/gen__baseline.cpu.pb.gz"));
    const auto opt = readPprofFile(QStringLiteral(QFLAME_TEST_DATA "/gen__optimized.cpu.pb.gz"));
    const DiffSide b = DiffSide::fromProfiles({base}, 1);
    const auto table = DiffTable::compute(DiffTree::build(b, DiffSide::fromProfiles({opt}, b.tree->sampleType())));
    for (const char *name : {"gen__baseline.cpu.pb.gz", "gen__optimized.cpu.pb.gz"}) {
        const bool before = name == std::string("gen__baseline.cpu.pb.gz");
        QFile f(QStringLiteral(QFLAME_TEST_DATA "/oracle/%1.cpu.topall").arg(QLatin1String(name)));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QString error;
        std::vector<OracleRow> expected = test::parseTopOracle(f.readAll(), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        for (OracleRow &r : expected)
            for (const std::string suffix : {" (inline)", " (partial-inline)"})
                if (r.name.size() > suffix.size() && r.name.ends_with(suffix))
                    r.name.resize(r.name.size() - suffix.size());
        std::vector<OracleRow> actual;
        for (const DiffRow &r : table->rows())
            if (before ? r.inBefore : r.inAfter)
                actual.push_back({before ? r.beforeFlatRaw : r.afterFlatRaw, before ? r.beforeCumRaw : r.afterCumRaw,
                                  table->label(r)});
        std::sort(expected.begin(), expected.end());
        std::sort(actual.begin(), actual.end());
        QCOMPARE(actual.size(), expected.size());
        QVERIFY(actual == expected);
    }
}

QTEST_GUILESS_MAIN(tst_DiffTree)
#include "tst_difftree.moc"
