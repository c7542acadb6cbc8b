// A profile tab as a user works in it: search with its matched total, filters from the bar and removed in one
// click, and the sandwich of a function; numbers checked against the oracle of the profile.
#include "controls/FilterBar.h"
#include "controls/SearchBar.h"
#include "controls/SecondaryPanes.h"
#include "document/DocumentPane.h"
#include "flame/FlameGraphWidget.h"
#include "flame/FlameView.h"
#include "formats/ProfileInput.h"
#include "asmview/AsmView.h"
#include "compare/DiffView.h"
#include "pgoview/PgoPanel.h"
#include "sourceview/SourceView.h"
#include "tables/SandwichView.h"
#include "tables/TopTableModel.h"

#include "formats/FoldedFormat.h"
#include "tree/CallTreeBuilder.h"
#include "WaitLoad.h"

#include <QFile>
#include <QHeaderView>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTableView>
#include <QTest>

using namespace qflame;
using qflame::test::waitLoad;

namespace {

FrameId frameNamed(const CallTree &t, const std::string &label)
{
    for (FrameId f = 1; f < t.frames().size(); ++f)
        if (t.frames().label(f) == label)
            return f;
    return 0;
}

}   // namespace

class tst_ProfilePane : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void searchHighlightsAndTotals();
    void tableSortsFromItsHeader();
    void filtersRebuildAndRemoveInOneClick();
    void badFilterKeepsTheView();
    void sandwichTotalsAddUp();
    void exportsSubtree();
    void earlyJobIsTakenOver();
    void earlyJobOfOtherFilesIsDropped();
    void earlyJobWithOtherSettingsIsDropped_data();
    void earlyJobWithOtherSettingsIsDropped();
    void earlyComparisonIsTakenOver();
    void panesAreMadeWhenFirstNeeded();
    void saysWhatItReads();

private:
    ProfilePane *m_pane = nullptr;
};

void tst_ProfilePane::init()
{
    m_pane = new ProfilePane;
    m_pane->resize(1200, 900);
    m_pane->show();
    m_pane->open({QStringLiteral(QFLAME_TEST_DATA "/gen__baseline.cpu.pb.gz")});
    QVERIFY(waitLoad(*m_pane));
}

void tst_ProfilePane::cleanup()
{
    delete m_pane;
}

void tst_ProfilePane::searchHighlightsAndTotals()
{
    m_pane->searchBar()->setPattern(QStringLiteral("CHECKSUMBLOCK"));   // case-insensitive by default
    // main.checksumBlock's cum is 2400000000 ns of 9760000000 (oracle): each sample counted once.
    QCOMPARE(m_pane->searchBar()->resultText(), QStringLiteral("1 function(s), matched 2.40 s (24.59% of the profile)"));
    // The table follows the search (its rows come from a worker).
    QAbstractItemModel *table = m_pane->topTable()->model();
    QTRY_COMPARE(table->rowCount(), 1);
    QCOMPARE(table->index(0, TopTableModel::Name).data().toString(), QStringLiteral("main.checksumBlock"));
    // "checksum" also matches crypto/sha256.(*digest).checkSum (cum 100 ms, never under checksumBlock).
    m_pane->searchBar()->setPattern(QStringLiteral("checksum"));
    QCOMPARE(m_pane->searchBar()->resultText(), QStringLiteral("2 function(s), matched 2.50 s (25.61% of the profile)"));
    m_pane->searchBar()->setPattern(QStringLiteral("main\\.(ingest|index)Path"));
    QCOMPARE(m_pane->searchBar()->resultText(),
             QStringLiteral("2 function(s), matched 7.68 s (78.69% of the profile)"));   // 2.80 s + 4.88 s
    QTRY_COMPARE(table->rowCount(), 2);
    QCOMPARE(table->index(1, TopTableModel::Cum).data(TopTableModel::SortRole).toLongLong(), 2800000000LL);
    FlameGraphWidget *g = m_pane->flameGraph();
    QVERIFY(g->selectNextMatch(1));
    QCOMPARE(g->tree()->label(NodeId(g->selectedNode())), std::string("main.ingestPath"));
    QVERIFY(g->selectNextMatch(1));
    QCOMPARE(g->tree()->label(NodeId(g->selectedNode())), std::string("main.indexPath"));
    m_pane->searchBar()->setPattern(QStringLiteral("(unclosed"));
    QVERIFY(m_pane->searchBar()->resultText().startsWith(QLatin1String("invalid pattern")));
    QCOMPARE(table->rowCount(), 2);   // an invalid pattern leaves the table as it was
    m_pane->searchBar()->setPattern(QString());
    QCOMPARE(table->rowCount(), 187);   // no search: the whole table at once
}

void tst_ProfilePane::tableSortsFromItsHeader()
{
    // A click on a header sorts through the model (a worker orders the rows); the current row stays on its
    // function.
    QTableView *view = m_pane->topTable();
    auto *model = qobject_cast<TopTableModel *>(view->model());
    QVERIFY(model);
    view->setCurrentIndex(model->index(2, TopTableModel::Name));
    QCOMPARE(view->currentIndex().data().toString(), QStringLiteral("cmpbody"));
    view->horizontalHeader()->setSortIndicator(TopTableModel::Cum, Qt::DescendingOrder);
    QTRY_VERIFY(!model->isOrdering());
    QCOMPARE(model->rowCount(), 187);
    // The oracle's largest cum: main.burn, main.main and runtime.main, 9660000000 ns each (flat 0 alike, so the
    // table's tie order, by label, stays).
    QCOMPARE(model->index(0, TopTableModel::Cum).data(TopTableModel::SortRole).toLongLong(), 9660000000LL);
    QCOMPARE(model->index(0, TopTableModel::Name).data().toString(), QStringLiteral("main.burn"));
    QCOMPARE(model->index(2, TopTableModel::Name).data().toString(), QStringLiteral("runtime.main"));
    for (int r = 1; r < model->rowCount(); ++r)
        QVERIFY(model->index(r - 1, TopTableModel::Cum).data(TopTableModel::SortRole).toLongLong() >=
                model->index(r, TopTableModel::Cum).data(TopTableModel::SortRole).toLongLong());
    QCOMPARE(view->currentIndex().data().toString(), QStringLiteral("cmpbody"));
    view->horizontalHeader()->setSortIndicator(TopTableModel::Name, Qt::AscendingOrder);
    QTRY_VERIFY(!model->isOrdering());
    QCOMPARE(model->rowCount(), 187);
    for (int r = 1; r < model->rowCount(); ++r)
        QVERIFY(model->index(r - 1, TopTableModel::Name).data().toString().toUtf8() <=
                model->index(r, TopTableModel::Name).data().toString().toUtf8());
    // Back to flat descending, the table's own order: at once.
    view->horizontalHeader()->setSortIndicator(TopTableModel::Flat, Qt::DescendingOrder);
    QVERIFY(!model->isOrdering());
    QCOMPARE(model->index(0, TopTableModel::Name).data().toString(), QStringLiteral("main.checksumBlock"));
    QCOMPARE(view->currentIndex().row(), 2);
}

void tst_ProfilePane::filtersRebuildAndRemoveInOneClick()
{
    QSignalSpy spy(m_pane, &DocumentPane::loadFinished);
    m_pane->filterBar()->setFilter(FilterBar::Focus, QStringLiteral("^main\\.checksumBlock$"));
    QVERIFY(spy.wait(60000));
    // Focus keeps the samples through main.checksumBlock: its cum, 2400000000 ns, is the whole tree now.
    QCOMPARE(m_pane->flameGraph()->tree()->total(CallTree::kRoot), int64_t(2400000000));
    QCOMPARE(m_pane->filterBar()->activeTexts(), QStringList({"focus: ^main\\.checksumBlock$"}));
    // go tool pprof -focus='^main\.checksumBlock$' -ignore=asyncPreempt: 1920000000ns.
    m_pane->filterBar()->setFilter(FilterBar::Ignore, QStringLiteral("asyncPreempt"));
    QVERIFY(spy.wait(60000));
    QCOMPARE(m_pane->flameGraph()->tree()->total(CallTree::kRoot), int64_t(1920000000));
    m_pane->filterBar()->removeFilter(FilterBar::Focus);
    QVERIFY(spy.wait(60000));
    m_pane->filterBar()->removeFilter(FilterBar::Ignore);
    QVERIFY(spy.wait(60000));
    QCOMPARE(m_pane->flameGraph()->tree()->total(CallTree::kRoot), int64_t(9760000000));
    QVERIFY(m_pane->filterBar()->activeTexts().isEmpty());
}

void tst_ProfilePane::badFilterKeepsTheView()
{
    const CallTree *before = m_pane->flameGraph()->tree();
    QSignalSpy spy(m_pane, &DocumentPane::loadFinished);
    m_pane->filterBar()->setFilter(FilterBar::Focus, QStringLiteral("(unclosed"));
    QVERIFY(spy.wait(60000));
    QCOMPARE(spy.at(0).at(0).toBool(), false);
    QVERIFY(!spy.at(0).at(1).toString().isEmpty());
    QCOMPARE(m_pane->flameGraph()->tree(), before);
}

void tst_ProfilePane::sandwichTotalsAddUp()
{
    const CallTree &t = *m_pane->flameGraph()->tree();
    const FrameId f = frameNamed(t, "sort.partition_func");
    QVERIFY(f);
    m_pane->showSandwich(f);
    QCOMPARE(m_pane->secondaryPanes()->currentPane(), m_pane->sandwichView());
    const Sandwich &s = m_pane->sandwichView()->sandwich();
    // Both halves total the function's cum (1940000000 ns in the oracle), though it recurses.
    QCOMPARE(s.callers->total(CallTree::kRoot), int64_t(1940000000));
    QCOMPARE(s.callees->total(CallTree::kRoot), int64_t(1940000000));
    QCOMPARE(s.callers->label(1), std::string("sort.partition_func"));
    QVERIFY(m_pane->sandwichView()->titleText().contains(QStringLiteral("1.94 s (19.88% of the profile)")));
    QCOMPARE(m_pane->sandwichView()->calleesView()->graph()->orientation(), FlameGraphWidget::Orientation::Icicle);
}

void tst_ProfilePane::exportsSubtree()
{
    const CallTree &t = *m_pane->flameGraph()->tree();
    NodeId sortRecords = 0;
    for (NodeId n = 1; n < t.size() && !sortRecords; ++n)
        if (t.label(n) == "main.sortRecords")
            sortRecords = n;
    QVERIFY(sortRecords);
    QTemporaryDir dir;
    const QString folded = dir.filePath(QStringLiteral("sub.folded")), pprof = dir.filePath(QStringLiteral("sub.pb.gz"));
    QVERIFY(m_pane->exportSubtree(sortRecords, false, folded));
    QVERIFY(m_pane->exportSubtree(sortRecords, true, pprof));
    QFile f(folded);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll();
    // Every line runs through the path to main.sortRecords; together they hold its total.
    const auto fromFolded = CallTreeBuilder::build({readFolded(text.toStdString(), "sub.folded")}, 0);
    QCOMPARE(fromFolded->total(CallTree::kRoot), t.total(sortRecords));
    QCOMPARE(fromFolded->total(CallTree::kRoot), int64_t(3040000000));
    QVERIFY(text.startsWith("runtime.main;main.main;main.burn;runtime/pprof.Do;main.burn.func3;main.indexPath;main.sortRecords"));
    const auto fromPprof = readPprofFile(pprof);
    QCOMPARE(fromPprof->total(0), int64_t(3040000000));
    QVERIFY(!m_pane->exportSubtree(sortRecords, false, QStringLiteral("/nonexistent/dir/x.folded")));
}

namespace {

// A copy of a test profile that the test may delete.
QString copyOf(const QTemporaryDir &dir, const QString &name)
{
    const QString copy = dir.filePath(name);
    return QFile::copy(QStringLiteral(QFLAME_TEST_DATA "/") + name, copy) ? copy : QString();
}

}   // namespace

// The job started before the window (qflame FILE) is the one the pane shows: once it has ended, the file is
// deleted, and the pane still shows the profile, which a read of its own could not.
void tst_ProfilePane::earlyJobIsTakenOver()
{
    QTemporaryDir dir;
    const QString file = copyOf(dir, QStringLiteral("gen__baseline.cpu.pb.gz"));
    QVERIFY(!file.isEmpty());
    DocumentPane::startEarly({file});
    QTRY_COMPARE_WITH_TIMEOUT(DocumentPane::earlyJobState(), DocumentPane::EarlyJobState::Ended, 60000);
    QVERIFY(QFile::remove(file));
    ProfilePane pane;
    pane.open({file});
    QCOMPARE(DocumentPane::earlyJobState(), DocumentPane::EarlyJobState::None);
    QVERIFY(waitLoad(pane));
    QCOMPARE(pane.view().tree->total(CallTree::kRoot), int64_t(9760000000));   // the oracle's total
}

// A pane that opens another file reads that file, and the early job is cancelled.
void tst_ProfilePane::earlyJobOfOtherFilesIsDropped()
{
    QTemporaryDir dir;
    const QString early = copyOf(dir, QStringLiteral("gen__optimized.cpu.pb.gz"));
    QVERIFY(!early.isEmpty());
    DocumentPane::startEarly({early});
    ProfilePane pane;
    pane.open({QStringLiteral(QFLAME_TEST_DATA "/gen__baseline.cpu.pb.gz")});
    QCOMPARE(DocumentPane::earlyJobState(), DocumentPane::EarlyJobState::None);
    QVERIFY(waitLoad(pane));
    QCOMPARE(pane.view().tree->total(CallTree::kRoot), int64_t(9760000000));
}

// The same file, but the user chose another demangling, or collapsed templates, before the pane opened it: read
// again (the file is gone by then, so the read fails, which the early job's result would not).
void tst_ProfilePane::earlyJobWithOtherSettingsIsDropped_data()
{
    QTest::addColumn<bool>("collapseTemplates");
    QTest::newRow("full demangling") << false;
    QTest::newRow("collapsed templates") << true;
}

void tst_ProfilePane::earlyJobWithOtherSettingsIsDropped()
{
    QFETCH(bool, collapseTemplates);
    QTemporaryDir dir;
    const QString file = copyOf(dir, QStringLiteral("gen__baseline.cpu.pb.gz"));
    QVERIFY(!file.isEmpty());
    DocumentPane::startEarly({file});
    QTRY_COMPARE_WITH_TIMEOUT(DocumentPane::earlyJobState(), DocumentPane::EarlyJobState::Ended, 60000);
    QVERIFY(QFile::remove(file));
    NameOptions changed;
    if (collapseTemplates)
        changed.collapseTemplates = true;
    else
        changed.demangle = DemangleMode::Full;
    DocumentPane::setNameOptions(changed);
    ProfilePane pane;
    QSignalSpy spy(&pane, &DocumentPane::loadFinished);
    pane.open({file});
    DocumentPane::setNameOptions({});
    QVERIFY(spy.wait(60000));
    QCOMPARE(spy.at(0).at(0).toBool(), false);
    QVERIFY2(pane.lastError().contains(QStringLiteral("gen__baseline.cpu.pb.gz")), qPrintable(pane.lastError()));
}

// `qflame BASE NEW`: the comparison started early is the one the tab shows.
void tst_ProfilePane::earlyComparisonIsTakenOver()
{
    QTemporaryDir dir;
    const QString base = copyOf(dir, QStringLiteral("gen__baseline.cpu.pb.gz"));
    const QString next = copyOf(dir, QStringLiteral("gen__optimized.cpu.pb.gz"));
    QVERIFY(!base.isEmpty() && !next.isEmpty());
    DocumentPane::startEarly({base, next});
    QTRY_COMPARE_WITH_TIMEOUT(DocumentPane::earlyJobState(), DocumentPane::EarlyJobState::Ended, 60000);
    QVERIFY(QFile::remove(base) && QFile::remove(next));
    DiffPane pane;
    QSignalSpy spy(&pane, &DocumentPane::loadFinished);
    pane.open({base}, {next});
    QVERIFY(spy.wait(60000));
    QVERIFY2(spy.at(0).at(0).toBool(), qPrintable(pane.lastError()));
    QCOMPARE(pane.loaded().diff->beforeTotalRaw(DiffTree::kRoot), int64_t(9760000000));
    QCOMPARE(pane.loaded().diff->afterTotalRaw(DiffTree::kRoot), int64_t(9660000000));
}

// The Source, Assembly and PGO panes are made when their tab is first opened or they are asked for, once each;
// the pane a tab shows, badges and finds is the one made, not its holder. A comparison's source and assembly too.
void tst_ProfilePane::panesAreMadeWhenFirstNeeded()
{
    SecondaryPanes *panes = m_pane->secondaryPanes();
    QCOMPARE(m_pane->findChildren<SourceView *>().size(), 0);
    QCOMPARE(m_pane->findChildren<AsmView *>().size(), 0);
    QCOMPARE(m_pane->findChildren<PgoPanel *>().size(), 0);
    int sourceTab = -1;
    for (int i = 0; i < panes->tabs()->count(); ++i)
        if (panes->tabs()->tabText(i) == QLatin1String("Source"))
            sourceTab = i;
    QVERIFY(sourceTab >= 0);

    // Opened by its tab: made then, and the signal carries it.
    QSignalSpy changed(panes, &SecondaryPanes::currentPaneChanged);
    panes->tabs()->setCurrentIndex(sourceTab);
    QCOMPARE(m_pane->findChildren<SourceView *>().size(), 1);
    SourceView *source = m_pane->sourceView();
    QCOMPARE(m_pane->findChildren<SourceView *>().constFirst(), source);
    QCOMPARE(panes->currentPane(), static_cast<QWidget *>(source));
    QCOMPARE(changed.size(), 1);
    QCOMPARE(changed.constLast().constFirst().value<QWidget *>(), static_cast<QWidget *>(source));
    QCOMPARE(panes->indexOf(source), sourceTab);
    QVERIFY(source->isVisible());

    // Asked for: made without its tab opened, then shown through it; asked again, the same one.
    AsmView *assembly = m_pane->asmView();
    QCOMPARE(m_pane->findChildren<AsmView *>().size(), 1);
    QVERIFY(!assembly->isVisible());
    panes->showPane(assembly);
    QCOMPARE(panes->currentPane(), static_cast<QWidget *>(assembly));
    QVERIFY(assembly->isVisible());
    QCOMPARE(m_pane->asmView(), assembly);
    QCOMPARE(m_pane->findChildren<PgoPanel *>().size(), 0);   // still never asked for

    // A badge on a lazy pane marks its tab.
    PgoPanel *pgo = m_pane->pgoPanel();
    const int pgoTab = panes->indexOf(pgo);
    QVERIFY(pgoTab >= 0);
    QVERIFY(panes->tabs()->tabIcon(pgoTab).isNull());
    panes->setBadge(pgo, SecondaryPanes::Badge::Warning, QStringLiteral("read the PGO tab"));
    QCOMPARE(panes->badge(pgo), SecondaryPanes::Badge::Warning);
    QVERIFY(!panes->tabs()->tabIcon(pgoTab).isNull());
    QCOMPARE(panes->tabs()->tabToolTip(pgoTab), QStringLiteral("read the PGO tab"));
    QCOMPARE(m_pane->findChildren<PgoPanel *>().size(), 1);

    // A comparison's source and assembly panes likewise (its PGO panel is made at once: its inlining changes
    // mark the diff flamegraph as soon as the comparison arrives).
    DiffPane diff;
    QCOMPARE(diff.findChildren<SourceView *>().size(), 0);
    QCOMPARE(diff.findChildren<AsmView *>().size(), 0);
    QCOMPARE(diff.findChildren<PgoPanel *>().size(), 1);
    SourceView *diffSource = diff.sourceView();
    QCOMPARE(diff.findChildren<SourceView *>().size(), 1);
    QCOMPARE(diff.sourceView(), diffSource);
    QVERIFY(diff.diffView()->secondaryPanes()->indexOf(diffSource) >= 0);
    QVERIFY(diff.asmView());
    QCOMPARE(diff.findChildren<AsmView *>().size(), 1);
}

// While a tab reads its files, its empty graphs say so, not how to open a file; their own placeholder comes back
// when the read ends, well or not (a failed new tab is closed by the window, but a pane may stay).
void tst_ProfilePane::saysWhatItReads()
{
    const QString defaultText;   // FlameGraphWidget's own: how to open a file
    ProfilePane pane;
    QCOMPARE(pane.flameGraph()->placeholderText(), defaultText);
    QSignalSpy spy(&pane, &DocumentPane::loadFinished);
    pane.open({QStringLiteral(QFLAME_TEST_DATA "/gen__baseline.cpu.pb.gz")});
    QCOMPARE(pane.flameGraph()->placeholderText(), QStringLiteral("Reading gen__baseline.cpu.pb.gz\u2026"));
    QVERIFY(spy.wait(60000));
    QVERIFY(spy.at(0).at(0).toBool());
    QCOMPARE(pane.flameGraph()->placeholderText(), defaultText);

    QTemporaryDir dir;
    const QString missing = dir.filePath(QStringLiteral("gone.pb.gz"));
    ProfilePane failed;
    QSignalSpy failedSpy(&failed, &DocumentPane::loadFinished);
    failed.open({missing});
    QCOMPARE(failed.flameGraph()->placeholderText(), QStringLiteral("Reading ") + missing + QStringLiteral("\u2026"));
    QVERIFY(failedSpy.wait(60000));
    QVERIFY(!failedSpy.at(0).at(0).toBool());
    QCOMPARE(failed.flameGraph()->placeholderText(), defaultText);

    // A comparison: its three graphs.
    DiffPane diff;
    QSignalSpy diffSpy(&diff, &DocumentPane::loadFinished);
    diff.open({QStringLiteral(QFLAME_TEST_DATA "/gen__baseline.cpu.pb.gz")},
              {QStringLiteral(QFLAME_TEST_DATA "/gen__optimized.cpu.pb.gz")});
    const QString both = QStringLiteral("Reading gen__baseline.cpu.pb.gz, gen__optimized.cpu.pb.gz\u2026");
    QCOMPARE(diff.diffView()->diffGraph()->graph()->placeholderText(), both);
    QCOMPARE(diff.diffView()->beforeGraph()->graph()->placeholderText(), both);
    QCOMPARE(diff.diffView()->afterGraph()->graph()->placeholderText(), both);
    QVERIFY(diffSpy.wait(60000));
    QVERIFY2(diffSpy.at(0).at(0).toBool(), qPrintable(diff.lastError()));
    QCOMPARE(diff.diffView()->diffGraph()->graph()->placeholderText(), defaultText);
}

QTEST_MAIN(tst_ProfilePane)

#include "tst_profilepane.moc"
