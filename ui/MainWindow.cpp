// The window: its tabs (profiles, comparisons, rounds, explorers), opening and comparing, the start page, settings,
// drops and errors. The menus are in MainWindowMenus.cpp, File > Export in MainWindowExport.cpp.
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

bool isSizeCapError(const QString &error)
{
    return error.contains(QLatin1String("larger than the size limit"));
}

// A read refused by the size cap says how to raise it: the window's cap is the command line's (`--max-size`).
QString withSizeCapHint(const QString &error)
{
    if (!isSizeCapError(error))
        return error;
    return MainWindow::tr("%1\n\nThe window reads at most %2 MiB of a profile (after decompression). To open a "
                          "larger one, start qflame with a higher limit: qflame --max-size MIB FILE")
        .arg(error)
        .arg(DocumentPane::maxReadBytes() >> 20);
}

// The cap to open `paths` again with: twice the cap, and at least each local file's size (what a raw file inflates
// to), rounded up to a power of two MiB. A compressed file's inflated size is not known before reading it.
uint64_t largerCap(const QStringList &paths)
{
    uint64_t need = DocumentPane::maxReadBytes() * 2;
    for (const QString &path : paths)
        if (!fetch::isProfileUrl(path))
            need = std::max(need, uint64_t(std::max<qint64>(0, QFileInfo(path).size())));
    uint64_t mib = 1;
    while ((mib << 20) < need)
        mib <<= 1;
    return mib << 20;
}

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

void MainWindow::forEachGraph(const std::function<void(FlameGraphWidget *)> &f)
{
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (auto *p = qobject_cast<ProfilePane *>(m_tabs->widget(i)))
            f(p->flameGraph());
        if (auto *d = qobject_cast<DiffPane *>(m_tabs->widget(i)))
            for (FlameView *v : {d->diffView()->diffGraph(), d->diffView()->beforeGraph(), d->diffView()->afterGraph()})
                f(v->graph());
    }
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
            bool newTab = false;
            if (!pane->hasContent()) {   // a new tab that never showed anything goes away again
                const int i = m_tabs->indexOf(pane);
                if (i >= 0)
                    m_tabs->removeTab(i);
                pane->deleteLater();
                newTab = true;
            }
            if (newTab && isSizeCapError(error))
                showSizeCapError(withSizeCapHint(error), pane);
            else
                showError(withSizeCapHint(error));
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

QMessageBox *MainWindow::showError(const QString &message, const QString &title)
{
    m_lastError = message;
    // Non-modal, so that a failed load never blocks what is already open.
    auto *box = new QMessageBox(QMessageBox::Warning, title.isEmpty() ? tr("Cannot open profile") : title, message,
                                QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    statusBar()->showMessage(message, 15000);
    return box;
}

void MainWindow::showSizeCapError(const QString &message, const DocumentPane *failed)
{
    QMessageBox *box = showError(message);
    QStringList before, after;   // the failed tab's files: before alone for a profile
    if (auto *p = qobject_cast<const ProfilePane *>(failed))
        before = p->paths();
    else if (auto *d = qobject_cast<const DiffPane *>(failed))
        before = d->beforePaths(), after = d->afterPaths();
    if (before.isEmpty())   // profiles handed over, not files: nothing to read again
        return;
    const uint64_t cap = largerCap(before + after);
    QPushButton *raise = box->addButton(tr("Open with a %1 MiB Limit").arg(cap >> 20), QMessageBox::AcceptRole);
    connect(raise, &QPushButton::clicked, this, [this, cap, before, after] {
        DocumentPane::setMaxReadBytes(cap);   // for every later read too, as --max-size would
        if (after.isEmpty()) {
            auto *again = new ProfilePane;
            again->open(before);
            addPane(again, again->title());
        } else {
            compareFiles(before, after);
        }
    });
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
