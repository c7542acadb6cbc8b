// The window as a user drives it: open, switch sample type, a bad file that must not disturb what is open,
// a newer load superseding a running one, and drag and drop.
#include "compare/DiffView.h"
#include "document/DocumentPane.h"
#include "flame/FlameGraphWidget.h"
#include "MainWindow.h"
#include "SharedCorpus.h"
#include "WaitLoad.h"

#include <QComboBox>
#include <QFileInfo>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace qflame;
using qflame::test::waitLoad;

namespace {

QString data(const char *name)
{
    return QStringLiteral(QFLAME_TEST_DATA "/") + QLatin1String(name);
}

}   // namespace

class tst_MainWindow : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void opensProfileAndShowsDefaultType();
    void remembersRecentFilesAndViewOptions();
    void switchesSampleType();
    void badFileKeepsWhatIsOpen();
    void fileOverTheCapOpensWithALargerOne();
    void newerLoadSupersedesRunningOne();
    void closingATabWhileItLoadsIsSafe();
    void comparesTwoFiles();
    void tableSelectionHighlightsFrames();
    void dropOpensFiles();
};

void tst_MainWindow::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);   // settings go to a test location, not the user's
    QCoreApplication::setOrganizationName(QStringLiteral("qflame-test"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_mainwindow"));
    QSettings().clear();
}

void tst_MainWindow::remembersRecentFilesAndViewOptions()
{
    QSettings().clear();
    {
        MainWindow w;
        w.openFiles({data("pprof__sample.cpu")});
        QVERIFY(waitLoad(w, true));
        w.compareFiles({data("gen__baseline.cpu.pb.gz")}, {data("gen__optimized.cpu.pb.gz")});
        QVERIFY(waitLoad(w, true));
        const QStringList recent = w.recentFiles();
        QCOMPARE(recent.size(), 2);
        QCOMPARE(recent[0], QFileInfo(data("gen__baseline.cpu.pb.gz")).absoluteFilePath() + QLatin1Char('\n') +
                                QFileInfo(data("gen__optimized.cpu.pb.gz")).absoluteFilePath());
        QCOMPARE(recent[1], QFileInfo(data("pprof__sample.cpu")).absoluteFilePath());
        w.openFiles({data("pprof__sample.cpu")});   // again: moves to the front, not twice in the list
        QVERIFY(waitLoad(w, true));
        QCOMPARE(w.recentFiles().size(), 2);
        QCOMPARE(w.recentFiles()[0], QFileInfo(data("pprof__sample.cpu")).absoluteFilePath());
        w.close();
    }
    QSettings().setValue(QStringLiteral("view/icicle"), true);
    QSettings().setValue(QStringLiteral("view/colorScheme"), int(ColorScheme::SelfHeat));
    MainWindow w;
    w.openFiles({data("pprof__sample.cpu")});
    QVERIFY(waitLoad(w, true));
    QCOMPARE(w.flameGraph()->orientation(), FlameGraphWidget::Orientation::Icicle);
    QCOMPARE(w.flameGraph()->colorScheme(), ColorScheme::SelfHeat);
    w.close();
    QCOMPARE(QSettings().value(QStringLiteral("view/icicle")).toBool(), true);
    QVERIFY(!QSettings().value(QStringLiteral("window/geometry")).toByteArray().isEmpty());
    QSettings().clear();
}

void tst_MainWindow::opensProfileAndShowsDefaultType()
{
    MainWindow w;
    w.show();
    w.openFiles({data("gen__baseline.cpu.pb.gz")});
    QVERIFY(w.isLoading());
    QVERIFY(waitLoad(w, true));
    QVERIFY(!w.isLoading());
    QCOMPARE(w.sampleTypeBox()->count(), 2);
    QCOMPARE(w.sampleTypeBox()->currentText(), QStringLiteral("cpu/nanoseconds (default)"));
    QCOMPARE(w.flameGraph()->tree()->total(CallTree::kRoot), int64_t(9760000000));
    QCOMPARE(w.topTable()->model()->rowCount(), 187);
    // Sorted by flat, the heaviest first, as pprof -top.
    QCOMPARE(w.topTable()->model()->index(0, 4).data().toString(), QStringLiteral("main.checksumBlock"));
    QCOMPARE(w.topTable()->model()->index(0, 0).data().toString(), QStringLiteral("1.92 s"));
    QCOMPARE(w.topTable()->model()->index(0, 2).data().toString(), QStringLiteral("2.40 s"));
    QCOMPARE(w.tabs()->tabText(0), QStringLiteral("gen__baseline.cpu.pb.gz"));
    QVERIFY(w.windowTitle().startsWith(QStringLiteral("gen__baseline.cpu.pb.gz — cpu/nanoseconds")));
}

void tst_MainWindow::switchesSampleType()
{
    MainWindow w;
    w.openFiles({data("gen__heap.pb.gz")});
    QVERIFY(waitLoad(w, true));
    QCOMPARE(w.sampleTypeBox()->currentText(), QStringLiteral("inuse_space/bytes (default)"));
    QCOMPARE(w.flameGraph()->tree()->total(CallTree::kRoot), int64_t(21286415));
    w.sampleTypeBox()->setCurrentIndex(1);
    QVERIFY(waitLoad(w, true));
    QCOMPARE(w.flameGraph()->tree()->sampleType().type, std::string("alloc_space"));
    QCOMPARE(w.flameGraph()->tree()->total(CallTree::kRoot), int64_t(62869263));
    QCOMPARE(w.view().profiles.size(), size_t(1));   // the profile was not read again
    QCOMPARE(w.tabs()->count(), 1);
}

void tst_MainWindow::badFileKeepsWhatIsOpen()
{
    MainWindow w;
    w.openFiles({data("gen__baseline.cpu.pb.gz")});
    QVERIFY(waitLoad(w, true));
    w.flameGraph()->zoomTo(1);
    const CallTree *before = w.flameGraph()->tree();

    QTemporaryDir dir;
    const QString bad = dir.filePath(QStringLiteral("truncated.pb.gz"));
    QFile in(data("gen__baseline.cpu.pb.gz")), out(bad);
    QVERIFY(in.open(QIODevice::ReadOnly) && out.open(QIODevice::WriteOnly));
    out.write(in.read(4000));
    out.close();
    w.openFiles({bad});
    QVERIFY(waitLoad(w, false));
    QVERIFY2(w.lastError().contains(QLatin1String("gzip: truncated data")), qPrintable(w.lastError()));
    QVERIFY(w.lastError().startsWith(bad));
    QCOMPARE(w.flameGraph()->tree(), before);        // the same tree, untouched
    QCOMPARE(w.flameGraph()->zoomRoot(), NodeId(1));  // and its zoom
    QCOMPARE(w.topTable()->model()->rowCount(), 187);
    QCOMPARE(w.tabs()->count(), 1);   // the failed file's tab is gone, the good one stays

    w.openFiles({dir.filePath(QStringLiteral("missing.pb.gz"))});
    QVERIFY(waitLoad(w, false));
    QVERIFY(w.lastError().contains(QLatin1String("cannot open")));
    QCOMPARE(w.flameGraph()->tree(), before);
}

// A file over the window's size cap (`--max-size`, 1 GiB by default; here 1 MiB): the message says how to raise
// it, and its button opens the file again under a cap that holds it (a raw file: its size, rounded up to a power
// of two MiB), kept for later reads.
void tst_MainWindow::fileOverTheCapOpensWithALargerOne()
{
    QTemporaryDir dir;
    const QString big = dir.filePath(QStringLiteral("big.folded"));
    QFile f(big);
    QVERIFY(f.open(QIODevice::WriteOnly));
    for (int i = 0; i < 100000; ++i)
        f.write("main;work;lea 1\n");   // 16 bytes: 1,600,000 in all, 100,000 samples
    f.close();
    const uint64_t defaultCap = DocumentPane::maxReadBytes();
    DocumentPane::setMaxReadBytes(uint64_t(1) << 20);
    MainWindow w;
    w.openFiles({big});
    QVERIFY(waitLoad(w, false));
    QVERIFY2(w.lastError().contains(QLatin1String("the file is larger than the size limit of 1048576 bytes")),
             qPrintable(w.lastError()));
    QVERIFY(w.lastError().contains(QLatin1String("The window reads at most 1 MiB of a profile")));
    QCOMPARE(w.tabs()->count(), 0);
    QMessageBox *box = w.findChild<QMessageBox *>();
    QVERIFY(box);
    QPushButton *raise = nullptr;
    for (QAbstractButton *b : box->buttons())
        if (b->text() == QLatin1String("Open with a 2 MiB Limit"))
            raise = qobject_cast<QPushButton *>(b);
    QVERIFY2(raise, qPrintable(box->buttons().size() > 1 ? box->buttons()[1]->text() : QString()));
    raise->click();
    QVERIFY(waitLoad(w, true));
    QCOMPARE(DocumentPane::maxReadBytes(), uint64_t(2) << 20);
    QCOMPARE(w.tabs()->count(), 1);
    QCOMPARE(w.flameGraph()->tree()->total(CallTree::kRoot), int64_t(100000));
    DocumentPane::setMaxReadBytes(defaultCap);
}

void tst_MainWindow::newerLoadSupersedesRunningOne()
{
    MainWindow w;
    w.openFiles({data("gen__heap.pb.gz")});
    QVERIFY(waitLoad(w, true));
    QSignalSpy spy(&w, &MainWindow::loadFinished);
    w.sampleTypeBox()->setCurrentIndex(0);   // starts a rebuild ...
    w.sampleTypeBox()->setCurrentIndex(1);   // ... that this one supersedes at once
    QVERIFY(spy.wait(60000));
    QTest::qWait(200);   // the first job's result, if it came, must have been dropped
    QCOMPARE(spy.count(), 1);
    QCOMPARE(w.flameGraph()->tree()->sampleType().type, std::string("alloc_space"));
}

void tst_MainWindow::closingATabWhileItLoadsIsSafe()
{
    const QString large = qflame::test::sharedPath(QStringLiteral("corpus/pprof__large.cpu"));
    QFLAME_SKIP_WITHOUT_SHARED(large);
    MainWindow w;
    w.openFiles({large, data("pprof__sample.cpu")});
    QCOMPARE(w.tabs()->count(), 2);
    Q_EMIT w.tabs()->tabCloseRequested(0);   // still loading
    QCOMPARE(w.tabs()->count(), 1);
    QVERIFY(waitLoad(w, true));
    QTest::qWait(300);
    QCOMPARE(w.tabs()->count(), 1);
    QCOMPARE(w.flameGraph()->tree()->total(CallTree::kRoot), int64_t(1760000000));
}

void tst_MainWindow::comparesTwoFiles()
{
    MainWindow w;
    w.openArguments({data("gen__baseline.cpu.pb.gz"), data("gen__optimized.cpu.pb.gz")});
    QVERIFY(waitLoad(w, true));
    DiffPane *pane = w.currentDiff();
    QVERIFY(pane);
    const DiffTree *d = pane->diffView()->diff();
    QCOMPARE(d->beforeTotalRaw(DiffTree::kRoot), int64_t(9760000000));
    QCOMPARE(d->afterTotalRaw(DiffTree::kRoot), int64_t(9660000000));
    const QString summary = pane->diffView()->summaryText();
    QVERIFY2(summary.contains(QStringLiteral("9.76 s</b> → <b>9.66 s")), qPrintable(summary));
    QVERIFY2(summary.contains(QStringLiteral("-100 ms")), qPrintable(summary));
    QVERIFY(summary.contains(QStringLiteral("normalisation: none")));
    QCOMPARE(w.tabs()->tabText(0), QStringLiteral("gen__baseline.cpu.pb.gz → gen__optimized.cpu.pb.gz"));
    // The table lists every function of either side, the biggest |delta cum| first: main.checksumBlock.
    QTableView *table = pane->diffView()->table();
    QCOMPARE(table->model()->index(0, 0).data().toString(), QStringLiteral("main.checksumBlock"));
    QCOMPARE(table->model()->index(0, 6).data().toString(), QStringLiteral("-1.04 s"));
}
void tst_MainWindow::tableSelectionHighlightsFrames()
{
    MainWindow w;
    w.resize(1200, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.openFiles({data("pprof__sample.cpu")});
    QVERIFY(waitLoad(w, true));
    w.topTable()->selectRow(0);   // runtime.mapiternext
    QCoreApplication::processEvents();
    FlameGraphWidget *f = w.flameGraph();
    // Find a frame of runtime.mapiternext and check that it is outlined.
    const CallTree &t = *f->tree();
    NodeId target = 0;
    for (NodeId n = 1; n < t.size() && !target; ++n)
        if (t.label(n) == "runtime.mapiternext" && f->nodeRect(n).width() > 10)
            target = n;
    QVERIFY(target);
    const QRect r = f->nodeRect(target).toRect();
    const QImage img = f->grab(r).toImage();
    QCOMPARE(img.pixelColor(1, r.height() / 2), f->palette().color(QPalette::Highlight));
}

void tst_MainWindow::dropOpensFiles()
{
    MainWindow w;
    w.show();
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(data("pprof__sample.cpu"))});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&w, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&w, &drop);
    QVERIFY(waitLoad(w, true));
    QCOMPARE(w.flameGraph()->tree()->total(CallTree::kRoot), int64_t(1760000000));
    // Two files dropped together: a comparison, baseline first.
    QMimeData two;
    two.setUrls({QUrl::fromLocalFile(data("gen__baseline.cpu.pb.gz")), QUrl::fromLocalFile(data("gen__optimized.cpu.pb.gz"))});
    QDragEnterEvent enterTwo(QPoint(10, 10), Qt::CopyAction, &two, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&w, &enterTwo);
    QDropEvent dropTwo(QPointF(10, 10), Qt::CopyAction, &two, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&w, &dropTwo);
    QCOMPARE(w.tabs()->count(), 2);
    QVERIFY(waitLoad(w, true));
    QVERIFY(w.currentDiff());
    QCOMPARE(w.currentDiff()->diffView()->diff()->afterTotalRaw(DiffTree::kRoot), int64_t(9660000000));
    QCOMPARE(w.tabs()->count(), 2);
}

QTEST_MAIN(tst_MainWindow)
#include "tst_mainwindow.moc"
