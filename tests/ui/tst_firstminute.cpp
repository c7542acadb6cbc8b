// Issue #37, "the first minute": what a new user sees when qflame opens the bundled examples. The flamegraph's
// share of the window's height (widget geometry), the PGO readiness kept in the PGO pane, the first window's size,
// the panes' remembered state, the shortcut list, the diff bar's tooltips, and the bundled pair's numbers against
// go tool pprof.
#include "MainWindow.h"
#include "OracleFile.h"
#include "ShortcutsDialog.h"
#include "compare/DiffView.h"
#include "controls/SearchBar.h"
#include "controls/SecondaryPanes.h"
#include "document/DocumentPane.h"
#include "flame/FlameView.h"
#include "pgoview/PgoPanel.h"
#include "tables/SandwichView.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTest>

#include <cmath>
#include <map>

using namespace qflame;

namespace {

const QString kExamples = QStringLiteral(QFLAME_TEST_DATA "/../../resources/examples/");
const QString kBaseline = kExamples + QStringLiteral("baseline.cpu.pb.gz");
const QString kOptimized = kExamples + QStringLiteral("optimized.cpu.pb.gz");

bool waitLoad(MainWindow &w)
{
    QSignalSpy spy(&w, &MainWindow::loadFinished);
    if (!spy.wait(60000) || !spy.front().front().toBool())
        return false;
    QApplication::processEvents();
    return true;
}

bool waitComputed(PgoPanel *panel)
{
    if (panel->isComputing() && !QSignalSpy(panel, &PgoPanel::computed).wait(60000))
        return false;
    QApplication::processEvents();
    return true;
}

// Every text a user can read in `root` outside `excluded`: labels, buttons, fields, tab titles and tooltips,
// tooltips and status tips, table cells (display and tooltip), the status bar, the actions' texts.
QStringList textsOutside(QWidget *root, const QWidget *excluded)
{
    QStringList out;
    QList<QWidget *> all = root->findChildren<QWidget *>();
    all << root;
    for (QWidget *w : std::as_const(all)) {
        if (w == excluded || excluded->isAncestorOf(w))
            continue;
        out << w->toolTip() << w->statusTip() << w->whatsThis() << w->windowTitle();
        if (auto *l = qobject_cast<QLabel *>(w))
            out << l->text();
        if (auto *b = qobject_cast<QAbstractButton *>(w))
            out << b->text();
        if (auto *e = qobject_cast<QLineEdit *>(w))
            out << e->text() << e->placeholderText();
        if (auto *t = qobject_cast<QTabBar *>(w))
            for (int i = 0; i < t->count(); ++i)
                out << t->tabText(i) << t->tabToolTip(i);
        if (auto *s = qobject_cast<QStatusBar *>(w))
            out << s->currentMessage();
        if (auto *v = qobject_cast<QAbstractItemView *>(w); v && v->model()) {
            const QAbstractItemModel *m = v->model();
            for (int r = 0; r < std::min(m->rowCount(), 500); ++r)
                for (int c = 0; c < m->columnCount(); ++c)
                    out << m->index(r, c).data().toString() << m->index(r, c).data(Qt::ToolTipRole).toString();
        }
    }
    for (const QAction *a : root->findChildren<QAction *>())
        out << a->text() << a->toolTip() << a->statusTip();
    return out;
}

}   // namespace

class tst_FirstMinute : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void flamegraphTakesTheHeight_data();
    void flamegraphTakesTheHeight();
    void pgoReadinessStaysInItsPane_data();
    void pgoReadinessStaysInItsPane();
    void firstWindowGeometry_data();
    void firstWindowGeometry();
    void panesRemembered();
    void shortcutsListed();
    void diffBarControlsHaveTooltips();
    void bundledComparison();
};

void tst_FirstMinute::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);   // settings go to a test location, not the user's
    QCoreApplication::setOrganizationName(QStringLiteral("qflame-test"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_firstminute"));
    QVERIFY(QFile::exists(kBaseline) && QFile::exists(kOptimized));
}

void tst_FirstMinute::init()
{
    QSettings().clear();   // each case starts as a new user does
}

// The window's size as it opens on each screen (client area: MainWindow::firstGeometry, less a title bar of 30
// px): a 1366x768 laptop (a 28 px panel: maximized, 1366x740 less the title bar), a 1920x1080 screen as the
// first window takes it (1632x924) and maximized (1920x1050 less the title bar).
void tst_FirstMinute::flamegraphTakesTheHeight_data()
{
    QTest::addColumn<bool>("comparison");
    QTest::addColumn<QSize>("size");
    for (bool comparison : {false, true}) {
        const char *kind = comparison ? "comparison" : "profile";
        QTest::addRow("%s 1366x768", kind) << comparison << QSize(1366, 710);
        QTest::addRow("%s 1920x1080 first window", kind) << comparison << QSize(1632, 924);
        QTest::addRow("%s 1920x1080 maximized", kind) << comparison << QSize(1920, 1020);
    }
}

void tst_FirstMinute::flamegraphTakesTheHeight()
{
    QFETCH(bool, comparison);
    QFETCH(QSize, size);
    MainWindow w;
    w.resize(size);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    if (comparison)
        w.openArguments({kBaseline, kOptimized});
    else
        w.openArguments({kBaseline});
    QVERIFY(waitLoad(w));
    QCOMPARE(w.size(), size);
    FlameView *flame = comparison ? w.currentDiff()->diffView()->diffGraph() : w.currentProfile()->flameView();
    SecondaryPanes *panes = comparison ? w.currentDiff()->diffView()->secondaryPanes()
                                       : w.currentProfile()->secondaryPanes();
    QTableView *table = comparison ? w.currentDiff()->diffView()->table() : w.topTable();
    QVERIFY(flame->isVisible());
    const double share = double(flame->height()) / w.height();
    qInfo("%s at %dx%d: flame graph %d of %d px, %.1f%%; table viewport %d px", comparison ? "comparison" : "profile",
          size.width(), size.height(), flame->height(), w.height(), 100 * share, table->viewport()->height());
    QVERIFY2(share >= 0.60, qPrintable(QString::number(share)));
    // The table is open below it, with room for at least three rows; the other panes are closed.
    QVERIFY(table->isVisible());
    QVERIFY(!panes->isCollapsed());
    QVERIFY(table->viewport()->height() >= 3 * table->verticalHeader()->defaultSectionSize());
    QVERIFY(!(comparison ? w.currentDiff()->pgoPanel() : w.currentProfile()->pgoPanel())->isVisible());
    // The flame graph is under the table's top edge: panes below, not beside.
    QVERIFY(flame->mapTo(&w, QPoint(0, flame->height())).y() <= table->mapTo(&w, QPoint(0, 0)).y());
}

void tst_FirstMinute::pgoReadinessStaysInItsPane_data()
{
    QTest::addColumn<bool>("comparison");
    QTest::newRow("profile") << false;
    QTest::newRow("comparison") << true;
}

// Go 1.19's runtime/pprof writes no Function.start_line: go build -pgo (Go 1.21+) rejects the bundled profiles, an
// error line of the PGO panel's readiness. It is read in the PGO pane only; its tab carries a mark.
void tst_FirstMinute::pgoReadinessStaysInItsPane()
{
    QFETCH(bool, comparison);
    MainWindow w;
    w.resize(1366, 710);
    w.show();
    if (comparison)
        w.openArguments({kBaseline, kOptimized});
    else
        w.openArguments({kBaseline});
    QVERIFY(waitLoad(w));
    PgoPanel *pgo = comparison ? w.currentDiff()->pgoPanel() : w.currentProfile()->pgoPanel();
    SecondaryPanes *panes = comparison ? w.currentDiff()->diffView()->secondaryPanes()
                                       : w.currentProfile()->secondaryPanes();
    if (!comparison) {   // a profile computes the PGO edges once its pane is opened
        w.currentProfile()->showPgo();
        QVERIFY(waitComputed(pgo));
        panes->showPane(w.topTable());   // and the user goes back to the table
    }
    QVERIFY(waitComputed(pgo));
    QVERIFY(!pgo->isVisible());
    // The pane has the error (else this test could not fail)...
    const QStringList lines = pgo->readinessText().split(QLatin1Char('\n'));
    QStringList problems;
    for (const QString &line : lines)
        if (line.startsWith(QLatin1String("error: ")) || line.startsWith(QLatin1String("warning: ")))
            problems << line;
    QVERIFY2(!problems.isEmpty(), qPrintable(pgo->readinessText()));
    QVERIFY(pgo->readinessText().contains(QLatin1String("error: start-lines: ")));
    // ... and nothing outside the pane says any part of it.
    const QStringList texts = textsOutside(&w, pgo);
    for (const QString &line : std::as_const(problems)) {
        const QString check = line.section(QLatin1String(": "), 1, 1);     // "start-lines"
        const QString message = line.section(QLatin1String(": "), 2);      // the explanation
        for (const QString &t : texts) {
            QVERIFY2(!t.contains(check), qPrintable(t));
            QVERIFY2(!t.contains(message), qPrintable(t));
            QVERIFY2(!t.contains(QLatin1String("start_line")), qPrintable(t));
        }
    }
    // The PGO tab's mark says there is something to read there.
    QCOMPARE(panes->badge(pgo), SecondaryPanes::Badge::Error);
    const int tab = panes->indexOf(pgo);
    QVERIFY(!panes->tabs()->tabIcon(tab).isNull());
    QVERIFY(panes->tabs()->tabToolTip(tab).contains(QLatin1String("PGO tab")));
    QCOMPARE(panes->badge(comparison ? static_cast<QWidget *>(w.currentDiff()->diffView()->table())
                                     : static_cast<QWidget *>(w.topTable())),
             SecondaryPanes::Badge::None);
}

void tst_FirstMinute::firstWindowGeometry_data()
{
    QTest::addColumn<QRect>("available");
    QTest::addColumn<QRect>("expected");
    QTest::addColumn<bool>("maximized");
    // Up to 1600 x 900: all of the screen, maximized.
    QTest::newRow("1366x768") << QRect(0, 0, 1366, 740) << QRect(0, 0, 1366, 740) << true;
    QTest::newRow("1600x900") << QRect(0, 0, 1600, 870) << QRect(0, 0, 1600, 870) << true;
    // Larger: 85 % of the width, 88 % of the height, centred. 1920 * 0.85 = 1632, 1050 * 0.88 = 924;
    // (1920 - 1632) / 2 = 144, (1050 - 924) / 2 = 63.
    QTest::newRow("1920x1080") << QRect(0, 0, 1920, 1050) << QRect(144, 63, 1632, 924) << false;
    // A second screen right of the first: 2560 * 0.85 = 2176, 1400 * 0.88 = 1232; 1920 + (2560 - 2176) / 2 = 2112,
    // (1400 - 1232) / 2 = 84.
    QTest::newRow("2560x1440 right") << QRect(1920, 0, 2560, 1400) << QRect(2112, 84, 2176, 1232) << false;
}

void tst_FirstMinute::firstWindowGeometry()
{
    QFETCH(QRect, available);
    QFETCH(QRect, expected);
    QFETCH(bool, maximized);
    const MainWindow::FirstGeometry g = MainWindow::firstGeometry(available);
    QCOMPARE(g.rect, expected);
    QCOMPARE(g.maximized, maximized);
}

// The split, the open pane and the folded state are remembered when the window closes, for the next tab.
void tst_FirstMinute::panesRemembered()
{
    double share = 0;
    {
        MainWindow w;
        w.resize(1366, 710);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.openArguments({kBaseline});
        QVERIFY(waitLoad(w));
        ProfilePane *pane = w.currentProfile();
        SecondaryPanes *panes = pane->secondaryPanes();
        QCOMPARE(panes->currentPane(), pane->topTable());   // the table open at first
        // The sandwich takes half of the split when it opens; then the user drags the split 60 px up.
        pane->showSandwich(FrameId(1));
        QCOMPARE(panes->currentPane(), pane->sandwichView());
        QSplitter *split = panes->splitter();
        const int total = split->sizes().value(0) + split->sizes().value(1);
        QVERIFY(split->sizes().value(1) >= total / 2 - 1);
        QSplitterHandle *handle = split->handle(1);
        const QPoint middle(handle->width() / 2, handle->height() / 2);
        QTest::mousePress(handle, Qt::LeftButton, {}, middle);
        QTest::mouseMove(handle, middle - QPoint(0, 60));
        QTest::mouseRelease(handle, Qt::LeftButton, {}, middle - QPoint(0, 60));
        const int panesHeight = split->sizes().value(1);
        QVERIFY2(std::abs(panesHeight - (total / 2 + 60)) <= 2, qPrintable(QString::number(panesHeight)));
        share = double(panesHeight) / total;
        w.close();
    }
    {
        MainWindow w;
        w.resize(1366, 710);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.openArguments({kBaseline});
        QVERIFY(waitLoad(w));
        SecondaryPanes *panes = w.currentProfile()->secondaryPanes();
        QCOMPARE(panes->currentPane(), w.currentProfile()->sandwichView());
        QVERIFY(!panes->isCollapsed());
        const QList<int> sizes = panes->splitter()->sizes();
        QVERIFY(std::abs(double(sizes.value(1)) / (sizes.value(0) + sizes.value(1)) - share) < 0.01);
        // Folded by a click on the open pane's tab, and so the next time.
        QTabBar *bar = panes->tabs()->tabBar();
        QTest::mouseClick(bar, Qt::LeftButton, {}, bar->tabRect(panes->tabs()->currentIndex()).center());
        QVERIFY(panes->isCollapsed());
        QVERIFY(panes->tabs()->height() <= bar->height() + 4);
        w.close();
    }
    MainWindow w;
    w.resize(1366, 710);
    w.show();
    w.openArguments({kBaseline});
    QVERIFY(waitLoad(w));
    SecondaryPanes *panes = w.currentProfile()->secondaryPanes();
    QVERIFY(panes->isCollapsed());
    // A click on a tab opens the panes again.
    QTabBar *bar = panes->tabs()->tabBar();
    QTest::mouseClick(bar, Qt::LeftButton, {}, bar->tabRect(0).center());
    QVERIFY(!panes->isCollapsed());
    QCOMPARE(panes->currentPane(), w.topTable());
}

// Help > Keyboard Shortcuts lists every menu action's shortcut (walked here independently of the dialog) and the
// views' own keys.
void tst_FirstMinute::shortcutsListed()
{
    MainWindow w;
    const QList<ShortcutEntry> entries = collectShortcuts(w.menuBar());
    auto listed = [&](const QString &keys, const QString &what) {
        for (const ShortcutEntry &e : entries)
            if (e.keys == keys && e.what == what)
                return true;
        return false;
    };
    int withShortcut = 0;
    for (QMenu *menu : w.menuBar()->findChildren<QMenu *>()) {
        for (QAction *a : menu->actions()) {
            if (a->shortcut().isEmpty() || a->menu())
                continue;
            ++withShortcut;
            QString what = a->text().remove(QLatin1Char('&'));
            if (what.endsWith(QLatin1String("...")))
                what.chop(3);
            QVERIFY2(listed(a->shortcut().toString(QKeySequence::NativeText), what), qPrintable(what));
        }
    }
    QVERIFY(withShortcut >= 12);
    QVERIFY(listed(QKeySequence(QKeySequence::Open).toString(QKeySequence::NativeText), QStringLiteral("Open")));
    QVERIFY(listed(QStringLiteral("Ctrl+G"), QStringLiteral("Show PGO Panel")));
    QVERIFY(listed(QStringLiteral("F1"), QStringLiteral("Keyboard Shortcuts")));
    QVERIFY(listed(QStringLiteral("Esc, 0"), QStringLiteral("Reset the zoom")));
    QVERIFY(listed(QStringLiteral("Shift+Enter"), QStringLiteral("Previous match")));
    QVERIFY(listed(QStringLiteral("Alt+2"), QStringLiteral("Comparison: the two profiles side by side")));
    QVERIFY(listed(QStringLiteral("Shift+Drag"), QStringLiteral("Heatmap: a second range, compared with the first (the diff flamegraph)")));
    QVERIFY(listed(QStringLiteral("+, -"), QStringLiteral("Flame chart: zoom in, out around the middle")));
    // The menu item opens the dialog with all of them.
    w.findChild<QAction *>(QStringLiteral("keyboardShortcuts"))->trigger();
    auto *dialog = w.findChild<ShortcutsDialog *>();
    QVERIFY(dialog);
    QCOMPARE(dialog->table()->rowCount(), int(entries.size()));
    dialog->close();
}

// Every control of the diff bar (and of the tab's header) says what it does.
void tst_FirstMinute::diffBarControlsHaveTooltips()
{
    MainWindow w;
    w.resize(1366, 710);
    w.show();
    w.openArguments({kBaseline, kOptimized});
    QVERIFY(waitLoad(w));
    DiffView *view = w.currentDiff()->diffView();
    int controls = 0;
    for (QWidget *c : view->findChildren<QWidget *>(Qt::FindDirectChildrenOnly)) {
        if (qobject_cast<SecondaryPanes *>(c) || c->isWindow())
            continue;
        ++controls;
        const QString name = QString::fromLatin1(c->metaObject()->className()) + QLatin1Char(' ') +
                             (qobject_cast<QAbstractButton *>(c) ? qobject_cast<QAbstractButton *>(c)->text() : QString());
        QVERIFY2(!c->toolTip().isEmpty(), qPrintable(name));
    }
    QVERIFY(controls >= 11);   // summary, per second, legend, 2 view buttons, 6 options
    for (QWidget *c : w.currentDiff()->findChildren<QWidget *>()) {
        if (!view->isAncestorOf(c) && (qobject_cast<QComboBox *>(c) || qobject_cast<QLineEdit *>(c) ||
                                       qobject_cast<QAbstractButton *>(c)) &&
            !qobject_cast<QTabBar *>(c->parentWidget()) && !qobject_cast<QLineEdit *>(c->parentWidget()))
            QVERIFY2(!c->toolTip().isEmpty(), c->metaObject()->className());
    }
}

// The bundled pair (resources/examples, resources/examples/gen/make.sh): the comparison's per-function deltas
// and each side's values equal go tool pprof's (tests/data/oracle/example__*, regen-example-oracle.sh); the
// checksum rewrite is a change far beyond noise, the 4 % less formatting of renderSummary within it.
void tst_FirstMinute::bundledComparison()
{
    MainWindow w;
    w.openArguments({kBaseline, kOptimized});
    QVERIFY(waitLoad(w));
    const DiffTable *table = w.currentDiff()->diffView()->diffTable();
    QVERIFY(table);
    auto oracle = [](const char *name) {
        QFile f(QStringLiteral(QFLAME_TEST_DATA "/oracle/") + QLatin1String(name));
        QString error;
        return f.open(QIODevice::ReadOnly) ? test::parseTopOracle(f.readAll(), &error) : std::vector<test::OracleRow>();
    };
    std::map<std::string, const DiffRow *> rows;
    for (const DiffRow &r : table->rows())
        rows[table->displayName(r)] = &r;
    const auto diff = oracle("example__optimized.cpu.pb.gz.diff_base.topall");
    QVERIFY(diff.size() > 20);
    for (const test::OracleRow &o : diff) {
        QVERIFY2(rows.count(o.name), o.name.c_str());
        const DiffRow &r = *rows[o.name];
        QCOMPARE(int64_t(r.afterFlatRaw - r.beforeFlatRaw), o.flat);
        QCOMPARE(int64_t(r.afterCumRaw - r.beforeCumRaw), o.cum);
    }
    for (const char *side : {"example__baseline.cpu.pb.gz.cpu.topall", "example__optimized.cpu.pb.gz.cpu.topall"}) {
        const bool before = std::string(side).find("baseline") != std::string::npos;
        const auto top = oracle(side);
        QVERIFY(top.size() > 20);
        for (const test::OracleRow &o : top) {
            QVERIFY2(rows.count(o.name), o.name.c_str());
            QCOMPARE(before ? rows[o.name]->beforeCumRaw : rows[o.name]->afterCumRaw, o.cum);
            QCOMPARE(before ? rows[o.name]->beforeFlatRaw : rows[o.name]->afterFlatRaw, o.flat);
        }
    }
    // The story the examples tell (README): one clear change beyond noise, one clear change within it.
    const DiffRow &checksums = *rows.at("main.verifyChecksums");
    QCOMPARE(checksums.diffClass, DiffClass::Faster);
    QVERIFY(std::fabs(checksums.deltaCum) > 5 * checksums.standardErrorCum);
    const DiffRow &render = *rows.at("main.renderSummary");
    QVERIFY(render.deltaCum != 0);
    QCOMPARE(render.diffClass, DiffClass::WithinNoise);
    QVERIFY(render.beforeCumRaw > 500'000'000);   // a large function: its delta is visible, not a speck
    // Nothing the optimized version did not touch is called slower.
    for (const DiffRow &r : table->rows())
        QVERIFY2(r.diffClass != DiffClass::Slower, table->displayName(r).c_str());
}

QTEST_MAIN(tst_FirstMinute)
#include "tst_firstminute.moc"
