// The rounds tab, offscreen: what its tables show of real files, the matrix's order, filter and sort, editing the
// rounds (rename, reorder, remove, add, a round that fails to read), the chart's ticks, and the models under
// QAbstractItemModelTester.
#include "MainWindow.h"
#include "PgoTestSupport.h"
#include "ProfileFactory.h"
#include "compare/DiffView.h"
#include "layout/ChartAxes.h"
#include "diff/DiffTable.h"
#include "document/DocumentPane.h"
#include "roundsview/RoundsChart.h"
#include "roundsview/RoundsModels.h"
#include "roundsview/RoundsPane.h"
#include "roundsview/RoundsSourceView.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QPushButton>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace qflame;

namespace {

QString data(const char *name)
{
    return QStringLiteral(QFLAME_TEST_DATA "/") + QLatin1String(name);
}

bool waitLoaded(RoundsPane &pane, bool *ok = nullptr)
{
    QSignalSpy spy(&pane, &DocumentPane::loadFinished);
    if (!spy.wait(60000))
        return false;
    if (ok)
        *ok = spy.front().front().toBool();
    return true;
}

QString cell(QTableView *view, int row, int column)
{
    return view->model()->index(row, column).data().toString();
}

}   // namespace

class tst_RoundsPane : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void showsRealRounds();
    void editsRounds();
    void aRoundThatFailsLeavesTheOthers();
    void compareTwoUsesTheMeasuredNoise();
    void sourceLinesPerRound();
    void niceTicks_data();
    void niceTicks();
};

void tst_RoundsPane::showsRealRounds()
{
    RoundsPane pane;
    new QAbstractItemModelTester(pane.roundsTable()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest,
                                 &pane);
    new QAbstractItemModelTester(pane.functionTable()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest,
                                 &pane);
    pane.resize(1200, 800);
    RoundsOptions options;
    options.sample = "cpu";
    pane.open({{"base", {data("gen__baseline.cpu.pb.gz")}}, {"opt", {data("gen__optimized.cpu.pb.gz")}}}, options);
    bool ok = false;
    QVERIFY(waitLoaded(pane, &ok));
    QVERIFY(ok);
    QTableView *rounds = pane.roundsTable();
    QCOMPARE(rounds->model()->rowCount(), 2);
    QCOMPARE(cell(rounds, 0, RoundsTableModel::Name), QStringLiteral("base"));
    QCOMPARE(cell(rounds, 0, RoundsTableModel::Total), QStringLiteral("9.76 s"));
    // 9.76 s over 10.11 s: 0.9652 cores, its Poisson error 9.76 s / sqrt(976) / 10.11 s = 0.031 cores.
    QCOMPARE(cell(rounds, 0, RoundsTableModel::Rate), QStringLiteral("0.9652 ± 0.031 cores"));
    QCOMPARE(cell(rounds, 0, RoundsTableModel::Verdict), QStringLiteral("baseline"));
    QCOMPARE(cell(rounds, 1, RoundsTableModel::VsBaseline), QStringLiteral("-1.46%"));
    QCOMPARE(cell(rounds, 1, RoundsTableModel::Verdict), QStringLiteral("noise"));
    QVERIFY(!rounds->model()->index(1, RoundsTableModel::Verdict).data(Qt::BackgroundRole).isNull());

    // The matrix in the model's order: the largest |cum change| first (main.checksumBlock: 2.40 s -> 1.36 s).
    QTableView *functions = pane.functionTable();
    QCOMPARE(cell(functions, 0, 0), QStringLiteral("main.checksumBlock"));
    QCOMPARE(cell(functions, 0, FunctionMatrixModel::kFirstRound), QStringLiteral("2.40 s"));
    QCOMPARE(cell(functions, 0, FunctionMatrixModel::kFirstRound + 1), QStringLiteral("1.36 s  -43.3%"));
    const int all = functions->model()->rowCount();
    QVERIFY(all > 100);
    // The filter is a regular expression on the name.
    pane.functionFilter()->setText(QStringLiteral("^main\\.(burn|ingest)"));
    QCOMPARE(functions->model()->rowCount(), 6);   // main.burn, main.burn.func1..4, main.ingestPath
    pane.functionFilter()->setText(QString());
    QCOMPARE(functions->model()->rowCount(), all);
    // Sorted by the change of the second round, ascending: the largest fall first.
    functions->sortByColumn(FunctionMatrixModel::kFirstRound + 1, Qt::AscendingOrder);
    QCOMPARE(cell(functions, 0, 0), QStringLiteral("main.checksumBlock"));
    functions->sortByColumn(FunctionMatrixModel::kFirstRound + 1, Qt::DescendingOrder);
    // Descending: the largest rise in time, not in percent: main.burn.func3, 4.88 s -> 5.25 s (+370 ms), before
    // main.burn.func4's +43.7 % (710 ms -> 1.02 s, +310 ms).
    QCOMPARE(cell(functions, 0, FunctionMatrixModel::kFirstRound + 1), QStringLiteral("5.25 s  +7.6%"));
    QVERIFY(pane.notes()->text().contains(QStringLiteral("2 x SE_delta")));
}

void tst_RoundsPane::editsRounds()
{
    RoundsPane pane;
    pane.open({{"a", {data("gen__baseline.cpu.pb.gz")}},
               {"b", {data("gen__optimized.cpu.pb.gz")}},
               {"c", {data("gen__baseline.cpu.pb.zst")}}});
    QVERIFY(waitLoaded(pane));
    QTableView *rounds = pane.roundsTable();
    auto names = [&] {
        QStringList n;
        for (int r = 0; r < rounds->model()->rowCount(); ++r)
            n << cell(rounds, r, RoundsTableModel::Name);
        return n;
    };
    QCOMPARE(names(), (QStringList{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")}));
    // Renaming through the table.
    QVERIFY(rounds->model()->setData(rounds->model()->index(1, RoundsTableModel::Name), QStringLiteral("pgo-1")));
    QVERIFY(waitLoaded(pane));
    QCOMPARE(names(), (QStringList{QStringLiteral("a"), QStringLiteral("pgo-1"), QStringLiteral("c")}));
    QCOMPARE(pane.title(), QStringLiteral("Rounds: a · pgo-1 · c"));
    // Moving the optimized round first makes it the baseline: the baseline's profile is then 1.46 % above it.
    pane.moveRound(1, 0);
    QVERIFY(waitLoaded(pane));
    QCOMPARE(names(), (QStringList{QStringLiteral("pgo-1"), QStringLiteral("a"), QStringLiteral("c")}));
    QCOMPARE(cell(rounds, 0, RoundsTableModel::Verdict), QStringLiteral("baseline"));
    QCOMPARE(cell(rounds, 1, RoundsTableModel::VsBaseline), QStringLiteral("+1.48%"));
    QCOMPARE(pane.rounds()[0].paths.front(), data("gen__optimized.cpu.pb.gz"));
    // gzip and zstd of one profile: no change at all.
    QCOMPARE(cell(rounds, 2, RoundsTableModel::VsPrevious), QStringLiteral("+0.00%"));
    // The sample type is kept by name across a reordering: samples/count (976 samples over 10.11 s).
    pane.sampleTypeBox()->setCurrentIndex(0);
    QVERIFY(waitLoaded(pane));
    QVERIFY2(cell(rounds, 1, RoundsTableModel::Rate).startsWith(QStringLiteral("96.52 count/s")),
             qPrintable(cell(rounds, 1, RoundsTableModel::Rate)));
    pane.moveRound(0, 1);
    QVERIFY(waitLoaded(pane));
    QVERIFY(cell(rounds, 0, RoundsTableModel::Rate).startsWith(QStringLiteral("96.52 count/s")));
    pane.moveRound(0, 1);
    QVERIFY(waitLoaded(pane));
    pane.sampleTypeBox()->setCurrentIndex(1);
    QVERIFY(waitLoaded(pane));
    pane.removeRound(1);
    QVERIFY(waitLoaded(pane));
    QCOMPARE(names(), (QStringList{QStringLiteral("pgo-1"), QStringLiteral("c")}));
    pane.addRound({"d", {data("gen__baseline.cpu.pb.gz"), data("gen__baseline.cpu.pb.zst")}});
    QVERIFY(waitLoaded(pane));
    QCOMPARE(names(), (QStringList{QStringLiteral("pgo-1"), QStringLiteral("c"), QStringLiteral("d")}));
    QCOMPARE(cell(rounds, 2, RoundsTableModel::K), QStringLiteral("2"));
    // Two equal files: no spread, SE 0.
    QCOMPARE(cell(rounds, 2, RoundsTableModel::Rate), QStringLiteral("0.9652 ± 0 cores"));
}

void tst_RoundsPane::aRoundThatFailsLeavesTheOthers()
{
    RoundsPane pane;
    pane.open({{"a", {data("gen__baseline.cpu.pb.gz")}}, {"b", {data("gen__optimized.cpu.pb.gz")}}});
    QVERIFY(waitLoaded(pane));
    bool ok = true;
    pane.addRound({"heap", {data("gen__heap.pb.gz")}});
    QVERIFY(waitLoaded(pane, &ok));
    QVERIFY(!ok);
    QVERIFY2(pane.lastError().startsWith(QStringLiteral("round heap: ") + data("gen__heap.pb.gz") +
                                         QStringLiteral(" has no sample type")),
             qPrintable(pane.lastError()));
    QCOMPARE(pane.roundsTable()->model()->rowCount(), 2);
    QCOMPARE(int(pane.rounds().size()), 2);
    pane.addRound({"gone", {QStringLiteral("/nonexistent.pb.gz")}});
    QVERIFY(waitLoaded(pane, &ok));
    QVERIFY(!ok);
    QCOMPARE(pane.lastError(), QStringLiteral("round gone: /nonexistent.pb.gz: cannot open: No such file or directory"));
    QCOMPARE(pane.roundsTable()->model()->rowCount(), 2);
}

// Compare Two hands the comparison the noise the rounds measured (tst_rounds::measuredNoiseForTheDiff works the
// numbers out): in the window's comparison, per second, a's change of 3/s is noise by the rounds' spread (± 2/s),
// where Poisson, without sample counts, would call it slower.
void tst_RoundsPane::compareTwoUsesTheMeasuredNoise()
{
    QTemporaryDir dir;
    auto write = [&dir](const char *name, const std::string &folded) {
        test::FoldedProfile spec;
        spec.sampleTypes = {{"cpu", "nanoseconds"}};
        spec.folded = folded;
        spec.durationNanos = 1000000000;
        const QString path = dir.filePath(QLatin1String(name));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(QByteArray::fromStdString(test::pprofBytes(spec))) < 0)
            qFatal("cannot write %s", qPrintable(path));
        return path;
    };
    const QString b1 = write("b1.pb", "main;a 6\nmain;b 4"), b2 = write("b2.pb", "main;a 10\nmain;b 4"),
                  n1 = write("n1.pb", "main;a 11\nmain;b 8"), n2 = write("n2.pb", "main;a 11\nmain;b 8");
    MainWindow w;
    w.resize(1200, 800);
    w.show();
    w.openRounds({{"base", {b1, b2}}, {"new", {n1, n2}}});
    auto *pane = qobject_cast<RoundsPane *>(w.tabs()->currentWidget());
    QVERIFY(pane);
    QVERIFY(waitLoaded(*pane));
    QSignalSpy compared(pane, &RoundsPane::compareRequested);
    pane->roundsTable()->selectAll();
    pane->compareButton()->click();
    QCOMPARE(compared.size(), 1);
    DiffPane *diff = w.currentDiff();
    QVERIFY(diff);
    if (!diff->hasContent())
        QVERIFY(QSignalSpy(diff, &DocumentPane::loadFinished).wait(30000));
    QCOMPARE(diff->diffView()->options().normalization, Normalization::PerSecond);
    const DiffTable *table = diff->diffView()->diffTable();
    QVERIFY(table);
    std::map<std::string, std::string> classes;
    for (const DiffRow &row : table->rows())
        classes[table->displayName(row)] = diffClassName(row.diffClass);
    QCOMPARE(classes.at("a"), std::string("noise"));
    QCOMPARE(classes.at("main"), std::string("slower"));
    QVERIFY2(diff->diffView()->summaryText().contains(
                 "measured noise from the spread of the rounds base (2 observations) and new (2)"),
             qPrintable(diff->diffView()->summaryText()));
}

// The Source tab of a rounds tab: a function's lines with each round's cum and its verdict against the baseline,
// the numbers of tst_roundssource's rounds (base: two files of 1 s, new: one of 2 s).
void tst_RoundsPane::sourceLinesPerRound()
{
    QTemporaryDir dir;
    const QString source = dir.filePath(QStringLiteral("work.go"));
    {
        QFile f(source);
        QVERIFY(f.open(QIODevice::WriteOnly));
        for (int i = 1; i <= 20; ++i)
            f.write("text of line " + QByteArray::number(i) + "\n");
    }
    auto write = [&](const char *name, int64_t seconds, const std::vector<std::pair<int64_t, int64_t>> &lines) {
        pgotest::Builder b({{"samples", "count"}, {"cpu", "nanoseconds"}});
        const uint64_t work = b.function("main.work", 9, source.toStdString());
        for (const auto &[line, ns] : lines)
            b.sample({b.location(0x100 + uint64_t(line), {{work, line}})}, {ns / 100, ns});
        b.message().set_duration_nanos(seconds * 1'000'000'000);
        return pgotest::writeProfile(dir, name, b);
    };
    const QString a = write("a.pb", 1, {{10, 300}, {11, 100}}), b = write("b.pb", 1, {{10, 500}, {11, 100}}),
                  n = write("n.pb", 2, {{10, 200}, {11, 1000}, {12, 50}});
    RoundsPane pane;
    pane.resize(1200, 800);
    RoundsOptions options;
    options.sample = "cpu";
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    pane.open({{"base", {a, b}}, {"new", {n}}}, options);
    QVERIFY(waitLoaded(pane));
    QCOMPARE(cell(pane.functionTable(), 0, 0), QStringLiteral("main.work"));
    QSignalSpy ready(pane.sourceView(), &RoundsSourceView::listingReady);
    // The listing's model under Qt's model checks while it fills (before any listing, then with one).
    new QAbstractItemModelTester(pane.sourceView()->table()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest,
                                 &pane);
    // A double-click is a press, then the double-click event (the view acts on the index pressed).
    const QPoint at = pane.functionTable()->visualRect(pane.functionTable()->model()->index(0, 0)).center();
    QTest::mouseClick(pane.functionTable()->viewport(), Qt::LeftButton, {}, at);
    QTest::mouseDClick(pane.functionTable()->viewport(), Qt::LeftButton, {}, at);
    QVERIFY(ready.wait(30000));
    QCOMPARE(pane.bottomTabs()->currentWidget(), pane.sourceView());
    QTableView *t = pane.sourceView()->table();
    QCOMPARE(t->model()->headerData(1, Qt::Horizontal).toString(), QStringLiteral("base"));
    QCOMPARE(t->model()->headerData(2, Qt::Horizontal).toString(), QStringLiteral("new"));
    QCOMPARE(t->model()->rowCount(), 13);   // lines 5..17
    const int row10 = 10 - 5;
    QCOMPARE(cell(t, row10, 0), QStringLiteral("10"));
    QCOMPARE(cell(t, row10, 1), QStringLiteral("800 ns"));
    QCOMPARE(cell(t, row10, 2), QStringLiteral("200 ns  -75%"));   // faster: coloured
    QVERIFY(!t->model()->index(row10, 2).data(Qt::BackgroundRole).isNull());
    QCOMPARE(cell(t, row10, 3), QStringLiteral("text of line 10"));
    QCOMPARE(cell(t, 12 - 5, 2), QStringLiteral("50 ns  new"));   // noise: not coloured
    QVERIFY(t->model()->index(12 - 5, 2).data(Qt::BackgroundRole).isNull());
    QVERIFY2(pane.sourceView()->titleText().contains(
                 QStringLiteral("line errors: base: spread of 2 files; new: Poisson (samples/count)")),
             qPrintable(pane.sourceView()->titleText()));
    if (const QString shots = qEnvironmentVariable("QFLAME_SCREENSHOTS_DIR"); !shots.isEmpty()) {
        QTest::qWait(50);   // the title's new height is laid out by a posted event
        QVERIFY(pane.grab().save(shots + QStringLiteral("/rounds-source.png")));
    }
}

void tst_RoundsPane::niceTicks_data()
{
    QTest::addColumn<double>("low");
    QTest::addColumn<double>("high");
    QTest::addColumn<QList<double>>("ticks");
    QTest::newRow("cores") << 0.87e9 << 1.08e9 << QList<double>{0.9e9, 0.95e9, 1e9, 1.05e9};
    QTest::newRow("from 0") << 0.0 << 10.0 << QList<double>{0, 2, 4, 6, 8, 10};
    QTest::newRow("tiny") << 0.0012 << 0.0019 << QList<double>{0.0012, 0.0014, 0.0016, 0.0018};
    QTest::newRow("empty") << 1.0 << 1.0 << QList<double>{};
}

void tst_RoundsPane::niceTicks()
{
    QFETCH(double, low);
    QFETCH(double, high);
    QFETCH(QList<double>, ticks);
    const std::vector<double> got = qflame::niceTicks(low, high);
    QCOMPARE(int(got.size()), int(ticks.size()));
    for (size_t i = 0; i < got.size(); ++i)
        QVERIFY2(std::fabs(got[i] - ticks[int(i)]) <= 1e-9 * std::max(1.0, std::fabs(ticks[int(i)])),
                 qPrintable(QString::number(got[i], 'g', 17)));
}

QTEST_MAIN(tst_RoundsPane)
#include "tst_roundspane.moc"
