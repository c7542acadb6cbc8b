// View > Group by Label... and View > Bottom-up in the window (ui/ViewArrangement.h): each tab keeps its own
// arrangement, View > Back puts the previous one back, and profile and comparison tabs build what the model
// builds for the same options (the numbers themselves: tst_labelframes).
#include "MainWindow.h"
#include "ViewArrangement.h"
#include "compare/DiffView.h"
#include "controls/FilterBar.h"
#include "diff/DiffTree.h"
#include "document/DocumentPane.h"
#include "flame/FlameGraphWidget.h"
#include "export/FoldedWriter.h"
#include "tree/CallTreeBuilder.h"
#include "tree/FlatTable.h"

#include <QAction>
#include <QFile>
#include <QTemporaryDir>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QRadioButton>
#include <QSet>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>

using namespace qflame;

namespace {

bool waitLoaded(MainWindow &w)
{
    QSignalSpy spy(&w, &MainWindow::loadFinished);
    return spy.wait(60000) && spy.front().front().toBool();
}

QAction *action(MainWindow &w, const char *name)
{
    return w.findChild<QAction *>(QString::fromLatin1(name));
}

QAction *backAction(MainWindow &w)
{
    for (QAction *a : w.menuBar()->actions())
        if (a->menu() && a->text() == QLatin1String("&View"))
            for (QAction *b : a->menu()->actions())
                if (b->text() == QLatin1String("&Back"))
                    return b;
    return nullptr;
}

const QString kCpu = QStringLiteral(QFLAME_TEST_DATA "/gen__baseline.cpu.pb.gz");
const QString kOptimized = QStringLiteral(QFLAME_TEST_DATA "/gen__optimized.cpu.pb.gz");

}   // namespace

class tst_ViewArrangement : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void bottomUpPerTabAndBack();
    void groupByLabel();
    void comparisonBottomUp();
};

void tst_ViewArrangement::bottomUpPerTabAndBack()
{
    MainWindow w;
    w.show();
    w.openFiles({kCpu});
    QVERIFY(waitLoaded(w));
    ProfilePane *first = w.currentProfile();
    QVERIFY(!first->view().tree->isInverted());
    action(w, "bottomUp")->trigger();
    QVERIFY(waitLoaded(w));
    QVERIFY(first->view().tree->isInverted());
    QVERIFY(first->filterBar()->filters().inverted);
    // The roots are the functions samples end in, each with its flat.
    const CallTree &t = *first->view().tree;
    for (NodeId c = t.firstChild(CallTree::kRoot); c < t.firstChild(CallTree::kRoot) + t.childCount(CallTree::kRoot); ++c) {
        const FlatTable &flat = *first->view().flat;
        const int row = flat.rowOf(t.frame(c));
        QVERIFY(row >= 0);
        QCOMPARE(t.total(c), flat.rows()[size_t(row)].flat);
    }
    // Exported, a bottom-up tab's stacks are root first: the top-down tree's folded stacks.
    QTemporaryDir dir;
    const QString folded = dir.filePath(QStringLiteral("up.folded"));
    QVERIFY(w.exportTo(MainWindow::ExportFormat::Folded, folded));
    QFile file(folded);
    QVERIFY(file.open(QIODevice::ReadOnly));
    BuildOptions topDown;
    QCOMPARE(file.readAll().toStdString(),
             writeFolded(*CallTreeBuilder::build(first->view().profiles, size_t(first->view().sampleType), topDown)));
    // The menu's way: the top-down tree is built and written off the GUI thread, and the same bytes come out.
    const QString background = dir.filePath(QStringLiteral("up-background.folded"));
    QSignalSpy exported(&w, &MainWindow::exported);
    w.exportInBackground(MainWindow::ExportFormat::Folded, background);
    QVERIFY(exported.isEmpty());   // not written on this call: the work is on the pool
    QVERIFY(exported.wait(10000));
    QCOMPARE(exported.at(0).at(0).toString(), background);
    QFile second(background);
    QVERIFY(second.open(QIODevice::ReadOnly));
    file.seek(0);
    QCOMPARE(second.readAll(), file.readAll());
    // Two at once: the second neither cancels the first nor drops its result; each file is written and told.
    exported.clear();
    const QString one = dir.filePath(QStringLiteral("one.folded")), two = dir.filePath(QStringLiteral("two.folded"));
    w.exportInBackground(MainWindow::ExportFormat::Folded, one);
    w.exportInBackground(MainWindow::ExportFormat::Folded, two);
    QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 2, 10000);
    QCOMPARE(QSet<QString>({exported.at(0).at(0).toString(), exported.at(1).at(0).toString()}), QSet<QString>({one, two}));
    for (const QString &path : {one, two}) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        file.seek(0);
        QCOMPARE(f.readAll(), file.readAll());
    }
    // A second tab opens top-down: the arrangement is the tab's.
    w.openFiles({kCpu});
    QVERIFY(waitLoaded(w));
    QVERIFY(!w.currentProfile()->view().tree->isInverted());
    QVERIFY(!arrangementOf(w.currentProfile())->inverted);
    // Back in the first tab (no zoom to undo) puts top-down back.
    w.tabs()->setCurrentWidget(first);
    backAction(w)->trigger();
    QVERIFY(waitLoaded(w));
    QVERIFY(!first->view().tree->isInverted());
    QVERIFY(!first->filterBar()->filters().inverted);
}

void tst_ViewArrangement::groupByLabel()
{
    MainWindow w;
    w.show();
    w.openFiles({kCpu});
    QVERIFY(waitLoaded(w));
    ProfilePane *pane = w.currentProfile();
    // The dialog's answer: keys at the leaves, bottom-up kept as it was.
    GroupByLabelDialog dialog(*arrangementOf(pane));
    dialog.keysEdit()->setText(QStringLiteral("path"));
    QCOMPARE(dialog.arrangement(), (Arrangement{"path", "", false}));
    dialog.leafButton()->setChecked(true);
    QCOMPARE(dialog.arrangement(), (Arrangement{"", "path", false}));
    ArrangementHistory history;
    QVERIFY(history.change(pane, {"path", "", false}));
    QVERIFY(waitLoaded(w));
    // The four pprof.Do paths are the root's children (and "<unknown>" for samples without the label).
    const CallTree &t = *pane->view().tree;
    QStringList roots;
    for (NodeId c = t.firstChild(CallTree::kRoot); c < t.firstChild(CallTree::kRoot) + t.childCount(CallTree::kRoot); ++c)
        roots << QString::fromStdString(t.label(c));
    QCOMPARE(roots, (QStringList{QStringLiteral("<unknown>"), QStringLiteral("analytics"), QStringLiteral("index"),
                                 QStringLiteral("ingest"), QStringLiteral("text")}));
    QCOMPARE(pane->filterBar()->activeTexts(), QStringList{QStringLiteral("tagroot: path")});
    QVERIFY(history.back(pane));
    QVERIFY(waitLoaded(w));
    QVERIFY(pane->filterBar()->activeTexts().isEmpty());
    const CallTree &back = *pane->view().tree;
    for (NodeId c = back.firstChild(CallTree::kRoot); c < back.firstChild(CallTree::kRoot) + back.childCount(CallTree::kRoot); ++c)
        QVERIFY(!roots.contains(QString::fromStdString(back.label(c))));   // no label frames any more
    QVERIFY(!history.back(pane));
}

void tst_ViewArrangement::comparisonBottomUp()
{
    MainWindow w;
    w.show();
    w.openArguments({kCpu, kOptimized});
    QVERIFY(waitLoaded(w));
    DiffPane *d = w.currentDiff();
    QVERIFY(d);
    action(w, "bottomUp")->trigger();
    QVERIFY(waitLoaded(w));
    QVERIFY(d->loaded().diff->isInverted());
    QVERIFY(d->frames().inverted);
    backAction(w)->trigger();
    QVERIFY(waitLoaded(w));
    QVERIFY(!d->loaded().diff->isInverted());
}

QTEST_MAIN(tst_ViewArrangement)
#include "tst_viewarrangement.moc"
