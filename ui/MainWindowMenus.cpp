// The window's menus and their actions (File, Edit, View, Go, Help), each acting on the current tab.
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
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QSaveFile>
#include <QSettings>
#include <QMenuBar>
#include <QPushButton>
#include <QMessageBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>

#include <functional>
#include <tuple>

namespace qflame {

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
        if (!bytes) {
            showError(tr("The current tab was not fetched from a URL."));
            return;
        }
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

}   // namespace qflame
