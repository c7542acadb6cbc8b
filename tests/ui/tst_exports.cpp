// File > Export as a user gets it: each format written from an opened tab, read back with the model's readers
// and compared exactly with what the tab shows (its tree, with filters; its top or diff table).
#include "compare/DiffView.h"
#include "controls/FilterBar.h"
#include "diff/DiffTable.h"
#include "document/DocumentPane.h"
#include "explorer/ConnectionStore.h"
#include "explorer/QrynExplorer.h"
#include "export/TableCsv.h"
#include "flame/FlameGraphWidget.h"
#include "formats/ProfileInput.h"
#include "MainWindow.h"
#include "tree/CallTreeBuilder.h"
#include "tree/FlatTable.h"
#include "WaitLoad.h"

#include <QAction>
#include <QFile>
#include <QImage>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <tuple>

using namespace qflame;
using qflame::test::waitLoad;
using Format = MainWindow::ExportFormat;

namespace {

QString data(const char *name)
{
    return QStringLiteral(QFLAME_TEST_DATA "/") + QLatin1String(name);
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// (label, flat, cum) of every function, sorted: two trees with equal lists have the same per-function numbers.
using FunctionRow = std::tuple<std::string, int64_t, int64_t>;
std::vector<FunctionRow> functions(std::shared_ptr<const CallTree> tree)
{
    const auto table = FlatTable::compute(std::move(tree));
    std::vector<FunctionRow> rows;
    for (const FlatRow &r : table->rows())
        rows.emplace_back(table->tree().frames().label(r.frame), r.flat, r.cum);
    std::sort(rows.begin(), rows.end());
    return rows;
}

}   // namespace

class tst_Exports : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void actionsFollowTheCurrentTab();
    void pprofAndFoldedReadBackEqual_data();
    void pprofAndFoldedReadBackEqual();
    void exportsKeepActiveFilters();
    void topTableCsv();
    void diffTableCsv();
    void qrynExplorerTab();
    void viewAsPngAndSvg();
    void unwritablePathShowsErrorAndKeepsTabs();
    void menuScreenshot();

private:
    QTemporaryDir m_dir;
};

void tst_Exports::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);   // settings go to a test location, not the user's
    QCoreApplication::setOrganizationName(QStringLiteral("qflame-test"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_exports"));
    QSettings().clear();
    QVERIFY(m_dir.isValid());
}

void tst_Exports::actionsFollowTheCurrentTab()
{
    MainWindow w;
    for (Format f : {Format::Pprof, Format::Folded, Format::TopCsv, Format::DiffCsv, Format::Png, Format::Svg,
                     Format::Speedscope}) {
        QVERIFY(w.exportAction(f));
        QVERIFY(!w.exportAction(f)->isEnabled());   // no tab
        QVERIFY(!w.exportTo(f, m_dir.filePath(QStringLiteral("none"))));
    }
    QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("none"))));
    QVERIFY(w.exportAction(Format::Pprof)->toolTip().contains(QStringLiteral("filters")));

    w.openFiles({data("gen__heap.pb.gz")});
    QVERIFY(waitLoad(w));
    for (Format f : {Format::Pprof, Format::Folded, Format::TopCsv, Format::Png, Format::Svg, Format::Speedscope})
        QVERIFY(w.exportAction(f)->isEnabled());
    QVERIFY(!w.exportAction(Format::DiffCsv)->isEnabled());

    w.compareFiles({data("gen__baseline.cpu.pb.gz")}, {data("gen__optimized.cpu.pb.gz")});
    QVERIFY(waitLoad(w));
    for (Format f : {Format::Pprof, Format::Folded, Format::TopCsv, Format::Speedscope})
        QVERIFY(!w.exportAction(f)->isEnabled());
    for (Format f : {Format::DiffCsv, Format::Png, Format::Svg})
        QVERIFY(w.exportAction(f)->isEnabled());

    w.tabs()->setCurrentIndex(0);   // back to the profile
    QVERIFY(w.exportAction(Format::TopCsv)->isEnabled());
    QVERIFY(!w.exportAction(Format::DiffCsv)->isEnabled());
}

void tst_Exports::pprofAndFoldedReadBackEqual_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("pprof") << data("gen__baseline.cpu.pb.gz");
    QTest::newRow("folded") << data("formats/gen__baseline.cpu.folded");
    QTest::newRow("flamebearer") << data("formats/qryn-render.svc-base.cpu.json");
}

void tst_Exports::pprofAndFoldedReadBackEqual()
{
    QFETCH(QString, file);
    MainWindow w;
    w.openFiles({file});
    QVERIFY(waitLoad(w));
    const auto shown = w.view().tree;
    QVERIFY(shown && shown->total(CallTree::kRoot) > 0);
    const QString pprof = m_dir.filePath(QStringLiteral("whole.pb.gz"));
    const QString folded = m_dir.filePath(QStringLiteral("whole.folded"));
    QVERIFY(w.exportTo(Format::Pprof, pprof));
    QVERIFY(w.exportTo(Format::Folded, folded));
    // The window's speedscope export is convert --to speedscope's (export/StackExport), read back alike.
    const QString speedscope = m_dir.filePath(QStringLiteral("whole.speedscope.json"));
    QVERIFY(w.exportTo(Format::Speedscope, speedscope));
    QVERIFY(readAll(pprof).startsWith("\x1f\x8b"));   // gzip
    QVERIFY(readAll(speedscope).contains("\"$schema\":\"https://www.speedscope.app/file-format-schema.json\""));

    for (const QString &path : {pprof, folded, speedscope}) {
        const auto p = readProfileFile(path);
        // The tree's sample type; speedscope's reader adds a sample count beside a weighted profile's values.
        size_t type = 0;
        if (path == speedscope && p->sampleTypes.size() == 2)
            type = CallTreeBuilder::build({p}, 0)->total(CallTree::kRoot) == shown->total(CallTree::kRoot) ? 0 : 1;
        else
            QCOMPARE(p->sampleTypes.size(), size_t(1));
        const auto back = CallTreeBuilder::build({p}, type);
        QCOMPARE(back->total(CallTree::kRoot), shown->total(CallTree::kRoot));
        QCOMPARE(back->size(), shown->size());
        QVERIFY(functions(back) == functions(shown));
    }
}

void tst_Exports::exportsKeepActiveFilters()
{
    // gen__heap.pb.gz, inuse_space: main.allocLarge holds 13107201 bytes of 21286312 (pprof -top, tests/data/oracle).
    MainWindow w;
    w.openFiles({data("gen__heap.pb.gz")});
    QVERIFY(waitLoad(w));
    const int64_t whole = w.view().tree->total(CallTree::kRoot);
    w.currentProfile()->filterBar()->setFilter(FilterBar::Focus, QStringLiteral("main\\.allocLarge"));
    QVERIFY(waitLoad(w));
    QCOMPARE(w.view().tree->total(CallTree::kRoot), int64_t(13107201));
    QVERIFY(whole > 13107201);

    const QString pprof = m_dir.filePath(QStringLiteral("focus.pb.gz"));
    const QString folded = m_dir.filePath(QStringLiteral("focus.folded"));
    const QString csv = m_dir.filePath(QStringLiteral("focus.csv"));
    QVERIFY(w.exportTo(Format::Pprof, pprof));
    QVERIFY(w.statusBar()->currentMessage().contains(QStringLiteral("with the active filters")));
    QVERIFY(w.exportTo(Format::Folded, folded));
    QVERIFY(w.exportTo(Format::TopCsv, csv));
    for (const QString &path : {pprof, folded})
        QCOMPARE(CallTreeBuilder::build({readProfileFile(path)}, 0)->total(CallTree::kRoot), int64_t(13107201));
    // Percentages are of what the filter keeps, as `qflame top --focus` prints them.
    QVERIFY(readAll(csv).contains("\r\n13107201,100.00,100.00,13107201,100.00,main.allocLarge\r\n"));
}

void tst_Exports::topTableCsv()
{
    MainWindow w;
    w.openFiles({data("gen__heap.pb.gz")});
    QVERIFY(waitLoad(w));
    const QString csv = m_dir.filePath(QStringLiteral("top.csv"));
    QVERIFY(w.exportTo(Format::TopCsv, csv));
    const QByteArray text = readAll(csv);
    QCOMPARE(text, QByteArray::fromStdString(flatTableCsv(*w.view().flat)));
    // go tool pprof -top on the same file (tests/data/oracle), inuse_space.
    QVERIFY(text.startsWith("flat,flat_percent,sum_percent,cum,cum_percent,name\r\n"
                            "13107201,61.58,61.58,13107201,61.58,main.allocLarge\r\n"
                            "6626681,31.13,92.71,6626681,31.13,main.allocSmall\r\n"
                            "1059086,4.98,97.68,1272590,5.98,main.buildRecords\r\n"));
    QCOMPARE(text.count("\r\n"), qsizetype(w.view().flat->rows().size() + 1));   // every function, not the top few
}

void tst_Exports::diffTableCsv()
{
    MainWindow w;
    w.compareFiles({data("gen__baseline.cpu.pb.gz")}, {data("gen__optimized.cpu.pb.gz")});
    QVERIFY(waitLoad(w));
    const QString csv = m_dir.filePath(QStringLiteral("diff.csv"));
    QVERIFY(w.exportTo(Format::DiffCsv, csv));
    const QByteArray text = readAll(csv);
    // The model's diff table of the loaded pair, under the default options (no normalisation): exact integers.
    QCOMPARE(text, QByteArray::fromStdString(qflame::diffTableCsv(*DiffTable::compute(w.currentDiff()->loaded().diff))));
    const QList<QByteArray> lines = text.split('\n');
    QCOMPARE(lines[0], QByteArray("before_flat,after_flat,delta_flat,before_cum,after_cum,delta_cum,class,name\r"));
    // main.checksumBlock: flat 1.92 s -> 1.15 s, the largest change (as `qflame diff --tsv` prints it).
    QVERIFY(lines[1].startsWith("1920000000,1150000000,-770000000,"));
    QVERIFY(lines[1].endsWith(",faster,main.checksumBlock\r"));

    // Under another normalisation the file follows the view: the values the table shows, as exact decimals.
    DiffOptions o = w.currentDiff()->diffView()->options();
    o.normalization = Normalization::Factor;
    o.factor = 0.5;
    w.currentDiff()->diffView()->setOptions(o);
    QTRY_VERIFY(w.currentDiff()->diffView()->isApplied());   // computed off the GUI thread
    QVERIFY(w.exportTo(Format::DiffCsv, csv));
    const QByteArray halved = readAll(csv);
    QCOMPARE(halved, QByteArray::fromStdString(qflame::diffTableCsv(*w.currentDiff()->diffView()->diffTable())));
    QVERIFY(halved.contains(",575000000,-1345000000,"));   // main.checksumBlock's flat after and delta
    // The menu's way, off the GUI thread: the same bytes, then exported().
    const QString background = m_dir.filePath(QStringLiteral("diff-background.csv"));
    QSignalSpy exported(&w, &MainWindow::exported);
    w.exportInBackground(Format::DiffCsv, background);
    QVERIFY(exported.wait(10000));
    QCOMPARE(readAll(background), halved);
}

// A qryn tab exports its merged profile like a file. No server: the explorer's pane shows a loaded view, as it
// does with a server's answer (QrynExplorer::load ends in ProfilePane::showLoaded).
void tst_Exports::qrynExplorerTab()
{
    QSettings settings(m_dir.filePath(QStringLiteral("qryn.ini")), QSettings::IniFormat);
    qryn::ConnectionStore store(&settings);
    store.setKeychainEnabled(false);   // no saved connection, no secret read
    MainWindow w;
    auto *explorer = new qryn::QrynExplorer(&store);
    w.tabs()->addTab(explorer, explorer->title());
    w.tabs()->setCurrentWidget(explorer);
    QVERIFY(!w.exportAction(Format::Pprof)->isEnabled());   // nothing loaded yet
    QVERIFY(!w.exportTo(Format::Pprof, m_dir.filePath(QStringLiteral("nothing.pb.gz"))));

    LoadedView v;
    v.profiles = {readProfileFile(data("gen__baseline.cpu.pb.gz"))};
    v.sampleType = v.profiles.front()->effectiveDefaultType();
    v.tree = CallTreeBuilder::build(v.profiles, size_t(v.sampleType));
    v.flat = FlatTable::compute(v.tree);
    explorer->profilePane()->showLoaded(v);
    QVERIFY(w.canExport(Format::Pprof) && w.canExport(Format::TopCsv) && w.canExport(Format::Png));
    QVERIFY(!w.canExport(Format::DiffCsv));
    const QString pprof = m_dir.filePath(QStringLiteral("qryn.pb.gz")), csv = m_dir.filePath(QStringLiteral("qryn.csv"));
    QVERIFY(w.exportTo(Format::Pprof, pprof));
    QVERIFY(w.exportTo(Format::TopCsv, csv));
    QCOMPARE(CallTreeBuilder::build({readProfileFile(pprof)}, 0)->total(CallTree::kRoot),
             v.tree->total(CallTree::kRoot));
    QCOMPARE(readAll(csv), QByteArray::fromStdString(flatTableCsv(*v.flat)));
    delete explorer;   // before the store it refers to
}

void tst_Exports::viewAsPngAndSvg()
{
    MainWindow w;
    w.resize(1000, 700);
    w.openFiles({data("gen__baseline.cpu.pb.gz")});
    QVERIFY(waitLoad(w));
    const QString png = m_dir.filePath(QStringLiteral("view.png"));
    const QString svg = m_dir.filePath(QStringLiteral("view.svg"));
    QVERIFY(w.exportTo(Format::Png, png));
    QVERIFY(w.exportTo(Format::Svg, svg));
    const QImage img(png);
    FlameGraphWidget *g = w.flameGraph();
    QCOMPARE(img.height(), int(g->tree()->maxDepth() + 1) * g->rowHeight());   // every level
    QVERIFY(img.width() >= 1200);
    QVERIFY(readAll(svg).contains("<svg"));
    QVERIFY(readAll(svg).contains(">runtime.main<"));
    img.save(QStringLiteral("/tmp/qflame-export-view.png"));
}

void tst_Exports::unwritablePathShowsErrorAndKeepsTabs()
{
    MainWindow w;
    w.openFiles({data("gen__heap.pb.gz")});
    QVERIFY(waitLoad(w));
    w.compareFiles({data("gen__baseline.cpu.pb.gz")}, {data("gen__optimized.cpu.pb.gz")});
    QVERIFY(waitLoad(w));
    const QString bad = QStringLiteral("/nonexistent/dir/x.csv");
    QVERIFY(!w.exportTo(Format::DiffCsv, bad));
    QVERIFY2(w.lastError().startsWith(bad + QStringLiteral(": cannot write")), qPrintable(w.lastError()));
    auto *box = w.findChild<QMessageBox *>();
    QVERIFY(box && box->isVisible());
    QCOMPARE(box->windowTitle(), QStringLiteral("Cannot export"));
    QCOMPARE(box->text(), w.lastError());
    box->close();
    QCOMPARE(w.tabs()->count(), 2);   // nothing closed, the comparison still current and shown
    QVERIFY(w.currentDiff() && w.currentDiff()->diffView()->diffTable());
    w.tabs()->setCurrentIndex(0);
    for (Format f : {Format::Pprof, Format::Folded, Format::TopCsv, Format::Png})
        QVERIFY(!w.exportTo(f, bad));
    QCOMPARE(w.tabs()->count(), 2);
    QVERIFY(w.view().tree);
    // In the background the same: the message box comes when the work ends, the tabs stay.
    w.exportInBackground(Format::Folded, bad.chopped(4) + QStringLiteral(".folded"));
    QTRY_VERIFY(w.lastError().startsWith(QStringLiteral("/nonexistent/dir/x.folded: cannot write")));
    QCOMPARE(w.tabs()->count(), 2);
    // And the next export to a good path works.
    QVERIFY(w.exportTo(Format::Pprof, m_dir.filePath(QStringLiteral("after-error.pb.gz"))));
}

// Not an assertion on pixels: a picture of the menu for people reviewing the change.
void tst_Exports::menuScreenshot()
{
    MainWindow w;
    w.resize(1100, 700);
    w.openFiles({data("gen__baseline.cpu.pb.gz")});
    QVERIFY(waitLoad(w));
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QMenu *exportMenu = w.exportAction(Format::Pprof)->associatedObjects().isEmpty()
                            ? nullptr
                            : qobject_cast<QMenu *>(w.exportAction(Format::Pprof)->associatedObjects().first());
    QVERIFY(exportMenu);
    exportMenu->popup(w.mapToGlobal(QPoint(60, 40)));
    QVERIFY(QTest::qWaitForWindowExposed(exportMenu));
    exportMenu->setActiveAction(w.exportAction(Format::TopCsv));
    QTest::qWait(50);
    QImage shot = w.grab().toImage();
    {
        QPainter p(&shot);
        p.drawPixmap(w.mapFromGlobal(exportMenu->pos()), exportMenu->grab());
    }
    QVERIFY(shot.save(QStringLiteral("/tmp/qflame-export-menu.png")));
    exportMenu->hide();
}

QTEST_MAIN(tst_Exports)
#include "tst_exports.moc"
