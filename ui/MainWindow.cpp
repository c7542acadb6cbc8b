#include "MainWindow.h"

#include "SavedUrlConnections.h"
#include "ShortcutsDialog.h"
#include "ViewArrangement.h"

#include "compare/DiffView.h"
#include "controls/LatestJob.h"
#include "controls/OpenUrlDialog.h"
#include "controls/SearchBar.h"
#include "controls/SecondaryPanes.h"
#include "document/DocumentPane.h"
#include "document/StartPage.h"
#include "explorer/ConnectionStore.h"
#include "explorer/QrynExplorer.h"
#include "export/TableCsv.h"
#include "fetch/ProfileFetch.h"
#include "flame/FlameGraphWidget.h"
#include "flame/FlameView.h"
#include "names/Demangle.h"
#include "pgoview/PgoPanel.h"
#include "roundsview/RoundsPane.h"
#include "tree/CallTreeBuilder.h"

#include <QAction>
#include <QActionGroup>
#include <QCloseEvent>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QSaveFile>
#include <QSettings>
#include <QMenuBar>
#include <QPushButton>
#include <QMessageBox>
#include <QMimeData>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <functional>
#include <tuple>

namespace qflame {

namespace {

// After a tab closes: glibc keeps the freed memory of its arenas for later allocations, and the jobs of
// successive tabs run on different pool threads, so different arenas: 50 opens and closes of the r64 profile
// left 471 MB resident against 346 MB with the profile open once (bench/window.sh). Asked to, it returns the
// free pages (the same run then ends at 41 MB). Once the events of the closing have run (deleteLater), on a
// worker: trimming hundreds of MB takes milliseconds.
void giveMemoryBack()
{
#ifdef __GLIBC__
    QTimer::singleShot(0, qApp, [] { runDetached([] { malloc_trim(0); }); });
#endif
}

// Tells the window when its last tab goes or its first comes, however that happens (closed, failed, added).
class TabWidget : public QTabWidget {
public:
    std::function<void()> countChanged;

protected:
    void tabInserted(int) override { countChanged(); }
    void tabRemoved(int) override { countChanged(); }
};

}   // namespace

MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent)
{
    setWindowTitle(tr("qflame"));
    setAcceptDrops(true);
    auto *tabs = new TabWidget;
    m_tabs = tabs;
    m_tabs->setTabsClosable(true);
    m_tabs->setMovable(true);
    m_tabs->setDocumentMode(true);
    m_start = new StartPage;
    m_central = new QStackedWidget;
    m_central->addWidget(m_start);
    m_central->addWidget(m_tabs);
    setCentralWidget(m_central);
    tabs->countChanged = [this] { updateStartPage(); };
    connect(m_start, &StartPage::openRequested, this, &MainWindow::openDialog);
    connect(m_start, &StartPage::compareRequested, this, &MainWindow::compareDialog);
    connect(m_start, &StartPage::connectRequested, this, [this] { openExplorer()->connectDialog(); });
    connect(m_start, &StartPage::recentActivated, this, [this](const QString &entry) {
        const QStringList parts = entry.split(QLatin1Char('\n'));
        if (parts.size() == 2)
            compareFiles({parts[0]}, {parts[1]});
        else
            openFiles(parts);
    });
    connect(m_start, &StartPage::connectionActivated, this, &MainWindow::openSavedConnection);
    connect(m_start, &StartPage::filesDropped, this, &MainWindow::openArguments);
    connect(m_tabs, &QTabWidget::tabCloseRequested, this, [this](int i) {
        QWidget *w = m_tabs->widget(i);
        savePaneState(w);   // the next tab of its kind opens as this one was left
        m_tabs->removeTab(i);
        delete w;   // a pane cancels its job; the worker's result is dropped
        giveMemoryBack();
    });
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::updateTitle);
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::updateExportActions);
    createActions();
    restoreSettings();
    updateStartPage();
    // The status bar shows only while it has something to say: its empty row is the flamegraph's (issue #37).
    connect(statusBar(), &QStatusBar::messageChanged, this, [this](const QString &message) {
        statusBar()->setVisible(!message.isEmpty());
    });
    statusBar()->showMessage(tr("Open a profile (File > Open), compare two (File > Compare), or drop files here"));
}

template <typename F>
void MainWindow::forEachGraph(F f)
{
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (auto *p = qobject_cast<ProfilePane *>(m_tabs->widget(i)))
            f(p->flameGraph());
        if (auto *d = qobject_cast<DiffPane *>(m_tabs->widget(i)))
            for (FlameView *v : {d->diffView()->diffGraph(), d->diffView()->beforeGraph(), d->diffView()->afterGraph()})
                f(v->graph());
    }
}

void MainWindow::createActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open..."), QKeySequence::Open, this, &MainWindow::openDialog);
    file->addAction(tr("Open &URL..."), QKeySequence(tr("Ctrl+Shift+O")), this, [this] {
        OpenUrlDialog dialog(this);
        // Credentials of a saved qryn connection for the same server, read from the keychain when chosen.
        auto *store = new qryn::ConnectionStore(nullptr, &dialog);
        dialog.setSavedConnections(savedConnectionsOf(store));
        if (dialog.exec() == QDialog::Accepted)
            openFiles({dialog.fetchedName()});   // reads the bytes the dialog fetched (fetch::handOver)
    });
    file->addAction(tr("&Compare..."), QKeySequence(tr("Ctrl+D")), this, &MainWindow::compareDialog);
    file->addAction(tr("Compare &Rounds..."), this, [this] { openRounds({}); });
    file->addAction(tr("Connect to &qryn..."), this, [this] { openExplorer()->connectDialog(); });
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::fillRecentMenu);
    QMenu *exportMenu = file->addMenu(tr("&Export"));
    exportMenu->setToolTipsVisible(true);   // the tooltips say that filters apply
    const QString shown = tr("What the tab shows: its sample type and granularity, with the active filters");
    const std::tuple<ExportFormat, QString, QString> exportItems[] = {
        {ExportFormat::Pprof, tr("Profile as &pprof (gzip)..."), shown},
        {ExportFormat::Folded, tr("&Folded Stacks..."), shown},
        {ExportFormat::Speedscope, tr("&Speedscope JSON..."), shown},
        {ExportFormat::TopCsv, tr("&Top Table as CSV..."), tr("Every function of the top table, exact values, in pprof's order; with "
                                        "the active filters")},
        {ExportFormat::DiffCsv, tr("&Diff Table as CSV..."), tr("Every function of the diff table, exact values under the normalisation "
                                         "in force")},
        {ExportFormat::Png, tr("View as P&NG..."), tr("The whole flame graph as shown, every level")},
        {ExportFormat::Svg, tr("View as &SVG..."), tr("The whole flame graph as shown, every level")},
    };
    m_exportActions.resize(qsizetype(std::size(exportItems)));
    for (const auto &[item, text, tip] : exportItems) {
        const ExportFormat format = item;   // clang 14 (the fuzz build) captures no structured binding
        if (format == ExportFormat::Png)
            exportMenu->addSeparator();
        QAction *a = exportMenu->addAction(text, this, [this, format] { exportDialog(format); });
        a->setToolTip(tip);
        a->setStatusTip(tip);
        m_exportActions[int(format)] = a;
    }
    connect(exportMenu, &QMenu::aboutToShow, this, &MainWindow::updateExportActions);
    updateExportActions();
    // What was fetched from a URL, byte for byte as the server sent it (for go build -pgo, or to keep).
    file->addAction(tr("Save Fetc&hed Profile..."), this, [this] {
        const LoadedView &v = view();
        const std::optional<QByteArray> bytes =
            v.profiles.size() == 1 ? fetch::fetchedBytes(QString::fromStdString(v.profiles[0]->sourceName))
                                   : std::nullopt;
        if (!bytes)
            return showError(tr("The current tab was not fetched from a URL."));
        const QString path = QFileDialog::getSaveFileName(this, tr("Save Fetched Profile"), QStringLiteral("profile.pb.gz"));
        QSaveFile out(path);
        if (!path.isEmpty() && !(out.open(QIODevice::WriteOnly) && out.write(*bytes) == bytes->size() && out.commit()))
            showError(tr("Cannot write %1: %2").arg(path, out.errorString()));
    });
    file->addSeparator();
    file->addAction(tr("Close &Tab"), QKeySequence::Close, this, [this] {
        if (m_tabs->currentIndex() >= 0)
            Q_EMIT m_tabs->tabCloseRequested(m_tabs->currentIndex());
    });
    file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::closeAllWindows);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(tr("&Find..."), QKeySequence::Find, this, [this] {
        if (ProfilePane *p = currentProfile())
            p->searchBar()->focusSearch();
        else if (DiffPane *d = currentDiff())
            d->diffView()->searchBar()->focusSearch();
    });
    edit->addAction(tr("Find &Next"), QKeySequence::FindNext, this, [this] {
        if (FlameGraphWidget *g = flameGraph())
            g->selectNextMatch(1);
    });
    edit->addAction(tr("Find &Previous"), QKeySequence::FindPrevious, this, [this] {
        if (FlameGraphWidget *g = flameGraph())
            g->selectNextMatch(-1);
    });

    // PGO: the current tab's panel (a profile's, or a comparison's new side), its saves as its buttons are.
    QMenu *pgo = menuBar()->addMenu(tr("&PGO"));
    auto pgoPanel = [this]() -> PgoPanel * {
        if (ProfilePane *p = currentProfile())
            return p->pgoPanel();
        if (DiffPane *d = currentDiff())
            return d->pgoPanel();
        return nullptr;
    };
    QAction *showPgo = pgo->addAction(tr("Show PGO &Panel"), QKeySequence(tr("Ctrl+G")), this, [this] {
        if (ProfilePane *p = currentProfile())
            p->showPgo();
        else if (DiffPane *d = currentDiff())
            d->diffView()->secondaryPanes()->showPane(d->pgoPanel());
    });
    QAction *saveTrimmed = pgo->addAction(tr("Save for go build -&pgo..."), this, [pgoPanel] {
        if (PgoPanel *p = pgoPanel())
            p->saveTrimmed();
    });
    QAction *savePreprofile = pgo->addAction(tr("Save Pre&profile..."), this, [pgoPanel] {
        if (PgoPanel *p = pgoPanel())
            p->savePreprofile();
    });
    connect(pgo, &QMenu::aboutToShow, this, [this, pgoPanel, showPgo, saveTrimmed, savePreprofile] {
        PgoPanel *p = pgoPanel();
        showPgo->setEnabled(currentProfile() != nullptr || currentDiff() != nullptr);
        saveTrimmed->setEnabled(p && p->saveTrimmedButton()->isEnabled());
        savePreprofile->setEnabled(p && p->savePreprofileButton()->isEnabled());
    });

    QMenu *view = menuBar()->addMenu(tr("&View"));
    auto onGraph = [this](auto f) {
        return [this, f] {
            if (FlameGraphWidget *g = flameGraph())
                f(g);
        };
    };
    // Back undoes zooms first, then the tab's arrangement changes (Group by Label, Bottom-up: ViewArrangement.h).
    auto *arrangements = new ArrangementHistory(this);
    view->addAction(tr("&Back"), QKeySequence::Back, this, [this, arrangements] {
        FlameGraphWidget *g = flameGraph();
        if (g && g->canGoBack())
            g->back();
        else
            arrangements->back(qobject_cast<DocumentPane *>(m_tabs->currentWidget()));
    });
    view->addAction(tr("&Forward"), QKeySequence::Forward, this, onGraph([](FlameGraphWidget *g) { g->forward(); }));
    view->addAction(tr("&Reset Zoom"), this, onGraph([](FlameGraphWidget *g) { g->resetZoom(); }));
    view->addAction(tr("Zoom &In"), QKeySequence::ZoomIn, this,
                    onGraph([](FlameGraphWidget *g) { g->zoomViewport(1 / 1.5); }));
    view->addAction(tr("Zoom &Out"), QKeySequence::ZoomOut, this,
                    onGraph([](FlameGraphWidget *g) { g->zoomViewport(1.5); }));
    // Reads the open files again: demangling is a step of reading (names/Demangle.h), not of painting.
    QMenu *demangle = view->addMenu(tr("&Demangle"));
    auto *modes = new QActionGroup(this);
    for (DemangleMode mode : {DemangleMode::None, DemangleMode::Simple, DemangleMode::Templates, DemangleMode::Full}) {
        QAction *a = demangle->addAction(QString::fromLatin1(demangleModeName(mode)));
        a->setCheckable(true);
        a->setChecked(mode == DocumentPane::nameOptions().demangle);
        modes->addAction(a);
        connect(a, &QAction::triggered, this, [this, mode] {
            NameOptions names = DocumentPane::nameOptions();
            names.demangle = mode;
            DocumentPane::setNameOptions(names);
            reopenAll();
        });
    }
    // Also a step of reading: frames whose names become equal merge in the trees built from what was read.
    QAction *collapse = view->addAction(tr("Collapse &Template Arguments"));
    collapse->setObjectName(QStringLiteral("collapseTemplates"));
    collapse->setCheckable(true);
    collapse->setChecked(DocumentPane::nameOptions().collapseTemplates);
    collapse->setStatusTip(tr("Shows std::vector<int>::size and std::vector<double>::size as one frame, "
                              "std::vector<>::size, with their values summed"));
    connect(collapse, &QAction::toggled, this, [this](bool on) {
        NameOptions names = DocumentPane::nameOptions();
        names.collapseTemplates = on;
        DocumentPane::setNameOptions(names);
        reopenAll();
    });
    view->addSeparator();
    QAction *icicle = m_icicleAction = view->addAction(tr("&Icicle (Root at the Top)"));
    icicle->setCheckable(true);
    connect(icicle, &QAction::toggled, this, [this](bool on) {
        m_icicle = on;
        forEachGraph([on](FlameGraphWidget *g) {
            g->setOrientation(on ? FlameGraphWidget::Orientation::Icicle : FlameGraphWidget::Orientation::Flame);
        });
    });
    QAction *group = view->addAction(tr("Group by &Label..."));
    group->setObjectName(QStringLiteral("groupByLabel"));
    group->setStatusTip(tr("Label values as frames at the root or the leaves, as pprof's -tagroot/-tagleaf"));
    connect(group, &QAction::triggered, this, [this, arrangements] {
        auto *pane = qobject_cast<DocumentPane *>(m_tabs->currentWidget());
        const std::optional<Arrangement> now = arrangementOf(pane);
        if (!now)
            return;
        GroupByLabelDialog dialog(*now, this);
        if (dialog.exec() == QDialog::Accepted)
            arrangements->change(pane, dialog.arrangement());
    });
    QAction *bottomUp = view->addAction(tr("&Bottom-up"));
    bottomUp->setObjectName(QStringLiteral("bottomUp"));
    bottomUp->setCheckable(true);
    bottomUp->setStatusTip(tr("The whole profile bottom-up: the functions samples end in as roots, callers above"));
    connect(bottomUp, &QAction::triggered, this, [this, arrangements](bool on) {
        auto *pane = qobject_cast<DocumentPane *>(m_tabs->currentWidget());
        std::optional<Arrangement> a = arrangementOf(pane);
        if (!a)
            return;
        a->inverted = on;
        arrangements->change(pane, *a);
    });
    connect(view, &QMenu::aboutToShow, this, [this, group, bottomUp] {   // each tab keeps its own
        const std::optional<Arrangement> a = arrangementOf(qobject_cast<DocumentPane *>(m_tabs->currentWidget()));
        group->setEnabled(a.has_value());
        bottomUp->setEnabled(a.has_value());
        bottomUp->setChecked(a && a->inverted);
    });
    QMenu *colors = view->addMenu(tr("&Colours"));
    auto *schemes = new QActionGroup(this);
    const std::pair<QString, ColorScheme> items[] = {{tr("By &Package"), ColorScheme::Package},
                                                     {tr("By &Mapping (Library)"), ColorScheme::Mapping},
                                                     {tr("By &Self Heat"), ColorScheme::SelfHeat}};
    for (const auto &[label, scheme] : items) {
        QAction *a = colors->addAction(label);
        a->setCheckable(true);
        a->setChecked(scheme == ColorScheme::Package);
        a->setData(int(scheme));
        schemes->addAction(a);
        m_schemeActions << a;
        connect(a, &QAction::triggered, this, [this, scheme = scheme] {
            m_scheme = int(scheme);
            forEachGraph([scheme](FlameGraphWidget *g) { g->setColorScheme(scheme); });
        });
    }
    colors->addSeparator();
    QAction *safe = m_colorBlindAction = colors->addAction(tr("Colour-&Blind Safe"));
    safe->setCheckable(true);
    connect(safe, &QAction::toggled, this, [this](bool on) {
        m_colorBlind = on;
        forEachGraph([on](FlameGraphWidget *g) { g->setColorBlindSafe(on); });
        for (int i = 0; i < m_tabs->count(); ++i)
            if (auto *d = qobject_cast<DiffPane *>(m_tabs->widget(i)))
                d->diffView()->setColorBlindSafe(on);
            else if (auto *r = qobject_cast<RoundsPane *>(m_tabs->widget(i)))
                r->setColorBlindSafe(on);
    });

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *keys = help->addAction(tr("&Keyboard Shortcuts"), QKeySequence::HelpContents, this, [this] {
        auto *dialog = new ShortcutsDialog(menuBar(), this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });
    keys->setObjectName(QStringLiteral("keyboardShortcuts"));
}

void MainWindow::reopenAll()
{
    for (int i = 0; i < m_tabs->count(); ++i)
        if (auto *pane = qobject_cast<DocumentPane *>(m_tabs->widget(i)))
            pane->reopen();
}

void MainWindow::addPane(DocumentPane *pane, const QString &title)
{
    statusBar()->clearMessage();
    const int index = m_tabs->addTab(pane, title);
    m_tabs->setCurrentIndex(index);
    m_tabs->setTabToolTip(index, title);
    forEachGraph([this](FlameGraphWidget *g) {
        g->setOrientation(m_icicle ? FlameGraphWidget::Orientation::Icicle : FlameGraphWidget::Orientation::Flame);
        g->setColorScheme(ColorScheme(m_scheme));
        g->setColorBlindSafe(m_colorBlind);
    });
    if (auto *d = qobject_cast<DiffPane *>(pane))   // a profile pane has its own menu, with filters
        for (FlameView *v : {d->diffView()->diffGraph(), d->diffView()->beforeGraph(), d->diffView()->afterGraph()})
            connect(v->graph(), &FlameGraphWidget::contextMenuRequested, this,
                    [this, g = v->graph()](NodeId n, QPoint pos) { frameMenu(g, n, pos); });
    connect(pane, &DocumentPane::loadFinished, this, [this, pane](bool ok, const QString &error) {
        if (!ok) {
            if (!pane->hasContent()) {   // a new tab that never showed anything goes away again
                const int i = m_tabs->indexOf(pane);
                if (i >= 0)
                    m_tabs->removeTab(i);
                pane->deleteLater();
            }
            showError(error);
        } else {
            m_lastError.clear();
            updateTitle();
        }
        updateExportActions();
        Q_EMIT loadFinished(ok);
    });
}

void MainWindow::openFiles(const QStringList &paths)
{
    for (const QString &path : paths) {
        auto *pane = new ProfilePane;
        pane->open({path});
        addPane(pane, pane->title());
        remember(fetch::isProfileUrl(path) ? path : QFileInfo(path).absoluteFilePath());
    }
}

void MainWindow::compareFiles(const QStringList &before, const QStringList &after)
{
    auto *pane = new DiffPane;
    pane->open(before, after);
    addPane(pane, pane->title());
    if (before.size() == 1 && after.size() == 1)
        remember(QFileInfo(before[0]).absoluteFilePath() + QLatin1Char('\n') + QFileInfo(after[0]).absoluteFilePath());
}

void MainWindow::compareRounds(const QStringList &before, const QStringList &after,
                               std::shared_ptr<const MeasuredNoise> noise)
{
    auto *pane = new DiffPane;
    // Rounds are compared as rates: per second, the unit their measured errors are in.
    DiffOptions options = pane->diffView()->options();
    options.normalization = Normalization::PerSecond;
    pane->diffView()->setOptions(options);
    pane->diffView()->setMeasuredNoise(std::move(noise));
    pane->open(before, after);
    addPane(pane, pane->title());
}

void MainWindow::compareRoundTrees(const QString &beforeName, const std::vector<std::shared_ptr<const Profile>> &before,
                                   const QString &afterName, const std::vector<std::shared_ptr<const Profile>> &after,
                                   std::shared_ptr<const MeasuredNoise> noise)
{
    auto *pane = new DiffPane;
    DiffOptions options = pane->diffView()->options();
    options.normalization = Normalization::PerSecond;   // as compareRounds: the rounds' errors are per second
    pane->diffView()->setOptions(options);
    pane->diffView()->setMeasuredNoise(std::move(noise));
    pane->openProfiles(beforeName, before, afterName, after);
    addPane(pane, pane->title());
}

void MainWindow::openRounds(std::vector<RoundFiles> rounds, RoundsOptions options)
{
    auto *pane = new RoundsPane;
    pane->setColorBlindSafe(m_colorBlind);
    connect(pane, &RoundsPane::compareRequested, this, &MainWindow::compareRounds);
    // The tab's title names its rounds, which change as they are added, renamed or removed.
    connect(pane, &DocumentPane::loadFinished, this, [this, pane](bool ok) {
        const int i = m_tabs->indexOf(pane);
        if (ok && i >= 0) {
            m_tabs->setTabText(i, pane->title());
            m_tabs->setTabToolTip(i, pane->title());
        }
    });
    addPane(pane, pane->title());
    if (rounds.empty())
        QMetaObject::invokeMethod(pane, &RoundsPane::askForRound, Qt::QueuedConnection);
    else
        pane->open(std::move(rounds), options);
}

void MainWindow::openServerRounds(const qryn::ConnectionSettings &settings, const qryn::ServerRoundsQuery &query,
                                  RoundsOptions options)
{
    auto *pane = new RoundsPane;
    pane->setColorBlindSafe(m_colorBlind);
    connect(pane, &RoundsPane::compareTreesRequested, this, &MainWindow::compareRoundTrees);
    connect(pane, &DocumentPane::loadFinished, this, [this, pane](bool ok) {
        const int i = m_tabs->indexOf(pane);
        if (ok && i >= 0) {
            m_tabs->setTabText(i, pane->title());
            m_tabs->setTabToolTip(i, pane->title());
        }
    });
    addPane(pane, pane->title());
    pane->openServer(settings, query, options);
}

qryn::QrynExplorer *MainWindow::openExplorer()
{
    auto *explorer = new qryn::QrynExplorer;
    connect(explorer, &qryn::QrynExplorer::roundsRequested, this,
            [this](const qryn::ConnectionSettings &s, const qryn::ServerRoundsQuery &q) { openServerRounds(s, q); });
    connect(explorer, &qryn::QrynExplorer::compareTreesRequested, this, &MainWindow::compareRoundTrees);
    // The tab is named by its connection, which may come later (the dialog, the keychain).
    connect(explorer, &qryn::QrynExplorer::requestFinished, this, [this, explorer](const QString &what) {
        const int i = m_tabs->indexOf(explorer);
        if (what == u"types" && i >= 0) {
            m_tabs->setTabText(i, explorer->title());
            m_tabs->setTabToolTip(i, explorer->title());
        }
    });
    addPane(explorer, explorer->title());
    return explorer;
}

void MainWindow::openSavedConnection(const QString &name)
{
    qryn::ConnectionStore store;
    qryn::QrynExplorer::Start start;
    start.settings = store.connection(name);
    start.name = name;
    start.secretsFromStore = true;
    openExplorer()->start(start);
}

void MainWindow::updateStartPage()
{
    const bool none = m_tabs->count() == 0;
    if (none) {
        m_start->setRecent(recentFiles());
        const qryn::ConnectionStore store;
        QStringList names = store.names(), urls;
        for (const QString &name : names)
            urls << store.connection(name).displayUrl();
        m_start->setConnections(names, urls);
    }
    m_central->setCurrentWidget(none ? static_cast<QWidget *>(m_start) : m_tabs);
}

QStringList MainWindow::recentFiles() const
{
    return QSettings().value(QStringLiteral("recentFiles")).toStringList();
}

void MainWindow::remember(const QString &entry)
{
    QStringList recent = recentFiles();
    recent.removeAll(entry);
    recent.prepend(entry);
    QSettings().setValue(QStringLiteral("recentFiles"), recent.mid(0, 10));
    updateStartPage();
}

void MainWindow::fillRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = recentFiles();
    if (recent.isEmpty())
        m_recentMenu->addAction(tr("(none)"))->setEnabled(false);
    for (const QString &entry : recent) {
        const QStringList parts = entry.split(QLatin1Char('\n'));
        QAction *a = m_recentMenu->addAction(StartPage::recentText(entry), this, [this, parts] {
            if (parts.size() == 2)
                compareFiles({parts[0]}, {parts[1]});
            else
                openFiles(parts);
        });
        a->setToolTip(parts.join(QLatin1String(" → ")));
    }
}

void MainWindow::restoreSettings()
{
    QSettings s;
    m_restoredGeometry = restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(s.value(QStringLiteral("window/state")).toByteArray());
    m_icicleAction->setChecked(s.value(QStringLiteral("view/icicle"), false).toBool());
    m_colorBlindAction->setChecked(s.value(QStringLiteral("view/colorBlindSafe"), false).toBool());
    const int scheme = s.value(QStringLiteral("view/colorScheme"), 0).toInt();
    for (QAction *a : std::as_const(m_schemeActions))
        if (a->data().toInt() == scheme)
            a->trigger();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    savePaneState(m_tabs->currentWidget());
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/state"), saveState());
    s.setValue(QStringLiteral("view/icicle"), m_icicle);
    s.setValue(QStringLiteral("view/colorBlindSafe"), m_colorBlind);
    s.setValue(QStringLiteral("view/colorScheme"), m_scheme);
    QMainWindow::closeEvent(event);
}

void MainWindow::openArguments(const QStringList &paths)
{
    if (paths.size() == 2)
        compareFiles({paths[0]}, {paths[1]});
    else
        openFiles(paths);
}

void MainWindow::openDialog()
{
    const QStringList files = QFileDialog::getOpenFileNames(
        this, tr("Open Profiles"), QString(),
        tr("Profiles (*.pb.gz *.pprof *.prof *.pb *.pb.zst *.gz *.folded *.txt *.json);;All files (*)"));
    openFiles(files);
}

void MainWindow::compareDialog()
{
    const QString before = QFileDialog::getOpenFileName(this, tr("Baseline Profile"));
    if (before.isEmpty())
        return;
    const QString after = QFileDialog::getOpenFileName(this, tr("Comparison Profile"));
    if (!after.isEmpty())
        compareFiles({before}, {after});
}

bool MainWindow::isLoading() const
{
    for (int i = 0; i < m_tabs->count(); ++i)
        if (static_cast<DocumentPane *>(m_tabs->widget(i))->isLoading())
            return true;
    return false;
}

ProfilePane *MainWindow::currentProfile() const
{
    return qobject_cast<ProfilePane *>(m_tabs->currentWidget());
}

DiffPane *MainWindow::currentDiff() const
{
    return qobject_cast<DiffPane *>(m_tabs->currentWidget());
}

FlameGraphWidget *MainWindow::flameGraph() const
{
    if (ProfilePane *p = currentProfile())
        return p->flameGraph();
    if (DiffPane *d = currentDiff())
        return d->diffView()->diffGraph()->graph();
    return nullptr;
}

QTableView *MainWindow::topTable() const
{
    ProfilePane *p = currentProfile();
    return p ? p->topTable() : nullptr;
}

QComboBox *MainWindow::sampleTypeBox() const
{
    auto *pane = static_cast<DocumentPane *>(m_tabs->currentWidget());
    return pane ? pane->sampleTypeBox() : nullptr;
}

const LoadedView &MainWindow::view() const
{
    static const LoadedView none;
    ProfilePane *p = currentProfile();
    return p ? p->view() : none;
}

void MainWindow::updateTitle()
{
    auto *pane = static_cast<DocumentPane *>(m_tabs->currentWidget());
    if (!pane) {
        setWindowTitle(tr("qflame"));
        return;
    }
    const int i = m_tabs->currentIndex();
    m_tabs->setTabText(i, pane->title());
    setWindowTitle(tr("%1 — %2 — qflame").arg(pane->title(), pane->sampleTypeBox()->currentText()));
}

void MainWindow::showError(const QString &message, const QString &title)
{
    m_lastError = message;
    // Non-modal, so that a failed load never blocks what is already open.
    auto *box = new QMessageBox(QMessageBox::Warning, title.isEmpty() ? tr("Cannot open profile") : title, message,
                                QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    statusBar()->showMessage(message, 15000);
}

void MainWindow::frameMenu(FlameGraphWidget *graph, quint32 node, QPoint globalPos)
{
    if (!graph->source())
        return;
    QMenu menu(this);
    menu.addAction(tr("&Zoom Into Frame"), this, [graph, node] { graph->zoomTo(node); });
    const QString name = QString::fromStdString(graph->source()->labelBytes(node));
    menu.addAction(tr("&Copy Name"), this, [name] { QGuiApplication::clipboard()->setText(name); });
    menu.exec(globalPos);
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    QStringList files;
    for (const QUrl &url : event->mimeData()->urls())
        if (url.isLocalFile())
            files << url.toLocalFile();
    if (!files.isEmpty()) {
        event->acceptProposedAction();
        openArguments(files);   // one file opens, two compare
    }
}

}   // namespace qflame
