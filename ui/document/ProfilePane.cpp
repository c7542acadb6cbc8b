#include "document/ProfilePane.h"

#include "controls/FilterBar.h"
#include "controls/LatestJob.h"
#include "controls/SearchBar.h"
#include "controls/SecondaryPanes.h"
#include "controls/TableSizing.h"
#include "export/StackExport.h"
#include "flame/FlameGraphWidget.h"
#include "flame/FlameView.h"
#include "flame/FrameDetails.h"
#include "graphview/GraphPane.h"
#include "time/TimePane.h"
#include "pgoview/PgoPanel.h"
#include "pprof/Units.h"
#include "sourceview/SourceView.h"
#include "asmview/AsmView.h"
#include "tables/SandwichView.h"
#include "tables/TopTableModel.h"
#include "tree/Search.h"
#include "tree/StagedTree.h"
#include "tree/Subtree.h"

#include <QClipboard>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHeaderView>
#include <QMenu>
#include <QRegularExpression>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <optional>
#include <utility>

namespace qflame {

void markPgoTab(SecondaryPanes *panes, PgoPanel *pgo)
{
    // Only what go build -pgo would reject or weaken; a profile PGO does not apply to (not CPU) gets no mark.
    const PgoLevel level = pgo->worstReadinessLevel();
    panes->setBadge(pgo,
                    level == PgoLevel::Error     ? SecondaryPanes::Badge::Error
                    : level == PgoLevel::Warning ? SecondaryPanes::Badge::Warning
                                                 : SecondaryPanes::Badge::None,
                    level == PgoLevel::Error ? ProfilePane::tr("go build -pgo would reject this profile: the PGO tab says why")
                                             : ProfilePane::tr("The PGO tab has a warning about go build -pgo"));
}

// ---- ProfilePane ------------------------------------------------------------------------------------------

ProfilePane::ProfilePane(QWidget *parent) : DocumentPane(parent)
{
    m_flameView = new FlameView;
    m_details = new FrameDetails;
    m_model = new TopTableModel(this);
    m_table = new QTableView;
    m_table->setModel(m_model);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(TopTableModel::Flat, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);

    m_search = new SearchBar;
    m_filters = new FilterBar;
    m_sandwich = new SandwichView;
    auto *top = new QSplitter(Qt::Horizontal);
    top->addWidget(m_flameView);
    top->addWidget(m_details);
    top->setStretchFactor(0, 4);
    top->setStretchFactor(1, 1);
    // The flamegraph is the main view, the rest are panes below it, the top table open at first. The PGO panel is
    // a pane, not a view of its own: selecting an edge highlights its caller and callee in the flamegraph, so
    // both must be on screen together. The sandwich, the source and the PGO panel need more room than a table.
    // The Source, Assembly and PGO panes are made when first opened or asked for (4.7 of the 7.7 ms the tab took
    // to make, before its profile could be painted).
    m_panes = new SecondaryPanes(QStringLiteral("profile"), top);
    m_panes->addSecondaryPane(m_table, tr("Top"));
    m_panes->addSecondaryPane(m_sandwich, tr("Sandwich"), 0.5);
    m_sourceTab = m_panes->addLazyPane([] { return new SourceView; }, tr("Source"), 0.5);
    // The Assembly pane (ui/asmview): a function's instructions, disassembled when asked.
    m_asmTab = m_panes->addLazyPane([] { return new AsmView; }, tr("Assembly"), 0.5);
    m_pgoTab = m_panes->addLazyPane(
        [this] {
            auto *pgo = new PgoPanel;
            connect(pgo, &PgoPanel::computed, this, [this, pgo] { markPgoTab(m_panes, pgo); });
            connect(pgo, &PgoPanel::edgeSelected, this, &ProfilePane::highlightEdge);
            return pgo;
        },
        tr("PGO"), 0.4);
    auto *graph = new GraphPane;   // the call graph (ui/graphview), built when first shown
    m_panes->addSecondaryPane(graph, tr("Graph"), 0.6);
    m_panes->addSecondaryPane(new TimePane, tr("Time"), 0.6);   // sample times (ui/time), issue #35
    // A node selected in the graph selects its function's row in the top table (which outlines its frames).
    connect(graph, &GraphPane::nodeSelected, this, [this](const QString &name) {
        const FrameTable *frames = m_view.tree ? &m_view.tree->frames() : nullptr;
        for (FrameId f = 1; frames && f < frames->size(); ++f)
            if (frames->label(f) == name.toStdString()) {
                const QModelIndexList rows = m_model->match(m_model->index(0, 0), TopTableModel::FrameRole,
                                                            QVariant(uint(f)), 1, Qt::MatchExactly);
                if (!rows.isEmpty())
                    m_table->setCurrentIndex(rows.first());
                return;
            }
    });
    connect(m_panes, &SecondaryPanes::currentPaneChanged, this, &ProfilePane::updatePgo);
    // One row for the tab's controls and the search, one for the filters: the height is the flamegraph's.
    addHeaderWidget(m_search, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addLayout(header());
    layout->addWidget(m_filters);
    layout->addWidget(m_panes, 1);
    connect(m_search, &SearchBar::changed, this, &ProfilePane::runSearch);
    connect(m_search, &SearchBar::stepRequested, this, [this](int direction) {
        m_flameView->graph()->selectNextMatch(direction);
    });
    connect(m_filters, &FilterBar::filtersChanged, this, [this] {
        if (hasContent())
            rebuild();
    });
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex &index) {
        showSandwich(FrameId(index.data(TopTableModel::FrameRole).toUInt()));
    });
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_table, &QWidget::customContextMenuRequested, this, [this](QPoint pos) {
        const QModelIndex index = m_table->indexAt(pos);
        if (!index.isValid() || !m_view.tree)
            return;
        const FrameId frame = FrameId(index.data(TopTableModel::FrameRole).toUInt());
        QMenu menu(this);
        menu.addAction(tr("&Sandwich (Callers and Callees)"), this, [this, frame] { showSandwich(frame); });
        menu.addAction(tr("Show So&urce"), this, [this, frame] {
            const FrameTable &frames = m_view.tree->frames();
            sourceView()->showFunction(m_view.profiles, size_t(m_view.sampleType),
                                       frames.strings().str(frames.frame(frame).key.name));
            m_panes->showPane(sourceView());
        });
        menu.exec(m_table->viewport()->mapToGlobal(pos));
    });
    connect(m_flameView->graph(), &FlameGraphWidget::contextMenuRequested, this, &ProfilePane::frameMenu);

    FlameGraphWidget *g = m_flameView->graph();
    connect(g, &FlameGraphWidget::hovered, this, [this, g](NodeId n) {
        const int64_t shown = n != CallTree::kRoot ? int64_t(n) : g->selectedNode();
        m_details->showNode(m_view.tree.get(), g->viewport(), shown);
    });
    connect(g, &FlameGraphWidget::selectionChanged, this, [this, g](NodeId n) {
        m_details->showNode(m_view.tree.get(), g->viewport(), n == CallTree::kRoot ? -1 : int64_t(n));
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [g](const QModelIndex &current) {
                g->setHighlightedFrame(current.isValid() ? std::optional<FrameId>(current.data(TopTableModel::FrameRole).toUInt())
                                                         : std::nullopt);
            });
    // The other way: a row of the top table, or a frame of the flamegraph, selects the function's graph node.
    auto selectInGraph = [this](FrameId frame) {
        auto *graph = findChild<GraphPane *>();
        if (graph && m_view.tree && frame < m_view.tree->frames().size())
            graph->selectFunction(QString::fromStdString(m_view.tree->frames().label(frame)));
    };
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [selectInGraph](const QModelIndex &current) {
                if (current.isValid())
                    selectInGraph(FrameId(current.data(TopTableModel::FrameRole).toUInt()));
            });
    connect(g, &FlameGraphWidget::selectionChanged, this, [this, selectInGraph](NodeId n) {
        if (m_view.tree && n != CallTree::kRoot)
            selectInGraph(m_view.tree->frame(n));
    });
}

FlameGraphWidget *ProfilePane::flameGraph() const
{
    return m_flameView->graph();
}

void ProfilePane::open(const QStringList &paths)
{
    open(paths, false);
}

void ProfilePane::open(const QStringList &paths, bool reuseFetched)
{
    m_paths = paths;
    if (openInverted() && !hasContent() && !m_filters->filters().inverted) {   // qflame --inverted FILE
        const QSignalBlocker quiet(m_filters);
        m_filters->setInverted(true);
    }
    fetchThen(paths, reuseFetched, [this, paths] {
        const Granularity granularity = Granularity(granularityBox()->currentData().toInt());
        QFuture<LoadedView> early = takeEarlyView(paths, granularity);
        if (early.isValid() && m_filters->filters().inverted != openInverted()) {   // built the other way up
            early.cancel();
            early = QFuture<LoadedView>();
        }
        run<LoadedView>(early.isValid() ? early
                                        : loadFilesAsync(paths, -1, granularity, readOptions(), m_filters->filters()),
                        [this](LoadedView v) { showView(std::move(v)); },
                        [this](LoadedView v) { showFirstLook(std::move(v)); });
        sayReading(paths, {flameGraph()});
    });
}

void ProfilePane::rebuild()
{
    run<LoadedView>(rebuildAsync(m_view.profiles, sampleTypeBox()->currentIndex(),
                                 Granularity(granularityBox()->currentData().toInt()), m_filters->filters()),
                    [this](LoadedView v) { showView(std::move(v)); },
                    [this](LoadedView v) { showFirstLook(std::move(v)); });
}

void ProfilePane::showFirstLook(LoadedView look)
{
    if (!look.isFirstLook)
        return;
    // Only the flamegraph: its frames have the whole tree's values at this zoom. What needs the whole tree (the
    // top table, search, sandwich, details, exports, zooming) waits for it: m_view holds no tree until then.
    LoadedView old = std::exchange(m_view, LoadedView{});
    m_view.profiles = look.profiles;
    m_view.sampleType = look.sampleType;
    m_view.granularity = look.granularity;
    m_view.filters = look.filters;
    fillSampleTypes(*m_view.profiles.front(), m_view.sampleType, m_view.granularity);
    m_firstLook = look.tree;
    m_flameView->setTree(look.tree, look.layout);
    m_flameView->graph()->setProvisional(true);
    // The job builds the rest once the first look is on the screen: until then the paint has a core to itself.
    // That is once the paint that draws it has ended, with the rest of the window's and the flush to the screen
    // (a zero timer runs after them).
    if (look.shown && m_flameView->graph()->isVisible()) {
        connect(
            m_flameView->graph(), &FlameGraphWidget::painted, this,
            [shown = look.shown] { QTimer::singleShot(0, [shown] { shown->notify(); }); }, Qt::SingleShotConnection);
    } else if (look.shown) {
        look.shown->notify();   // no paint will come: a tab or view not shown
    }
    m_model->setTable(nullptr);
    m_details->showNode(nullptr, {}, -1);
    m_sandwich->clear();
    runSearch();
    setHasContent();   // a sample type chosen now rebuilds from these profiles
    releaseOffThread(std::move(old));
}

void ProfilePane::dropFirstLook()
{
    if (!m_firstLook)
        return;
    m_firstLook.reset();
    m_flameView->graph()->setProvisional(false);
    m_flameView->setTree(nullptr);
}

void ProfilePane::jobDropped()
{
    dropFirstLook();   // a first look whose whole tree will not come is not left on screen
}

void ProfilePane::showSandwich(FrameId frame)
{
    if (!m_view.tree || frame == FrameTable::kRoot || frame >= m_view.tree->frames().size())
        return;
    m_sandwich->showFunction(*m_view.tree, frame);
    m_panes->showPane(m_sandwich);
}

void ProfilePane::showSource(NodeId node)
{
    if (!m_view.tree || node == CallTree::kRoot)
        return;
    const FrameTable &frames = m_view.tree->frames();
    const std::string function = frames.strings().str(frames.frame(m_view.tree->frame(node)).key.name);
    sourceView()->showFunction(m_view.profiles, size_t(m_view.sampleType), function);
    m_panes->showPane(sourceView());
}

void ProfilePane::showAssembly(NodeId node)
{
    if (!m_view.tree || node == CallTree::kRoot)
        return;
    const FrameTable &frames = m_view.tree->frames();
    const std::string function = frames.strings().str(frames.frame(m_view.tree->frame(node)).key.name);
    asmView()->showFunction(m_view.profiles, size_t(m_view.sampleType), function);
    m_panes->showPane(asmView());
}

void ProfilePane::updatePgo()
{
    if (!m_pgoStale || m_panes->tabs()->currentIndex() != m_pgoTab || m_panes->isCollapsed() ||
        m_view.profiles.empty())
        return;
    m_pgoStale = false;
    pgoPanel()->setProfiles(m_view.profiles, m_pgoBytes);
}

PgoPanel *ProfilePane::pgoPanel() const
{
    return static_cast<PgoPanel *>(m_panes->pane(m_pgoTab));
}

SourceView *ProfilePane::sourceView() const
{
    return static_cast<SourceView *>(m_panes->pane(m_sourceTab));
}

AsmView *ProfilePane::asmView() const
{
    return static_cast<AsmView *>(m_panes->pane(m_asmTab));
}

void ProfilePane::showPgo()
{
    m_panes->showPane(pgoPanel());
    updatePgo();   // when it was current already, but folded away
}

void ProfilePane::highlightEdge(const std::string &caller, const std::string &callee)
{
    if (!m_view.tree || (caller.empty() && callee.empty())) {
        runSearch();   // no edge selected: the search bar's matches again
        return;
    }
    // The search's dimming, reused: the caller's and callee's frames keep their colour, the rest fade.
    m_flameView->graph()->setMatches(framesOfFunctions(m_view.tree->frames(), caller, callee));
}

void ProfilePane::runSearch()
{
    FlameGraphWidget *g = m_flameView->graph();
    const QString pattern = m_search->pattern();
    if (auto *time = findChild<TimePane *>())   // the Time tab's flame chart and range flamegraph dim alike
        time->setSearch(pattern, m_search->caseSensitivity());
    if (!m_view.tree || pattern.isEmpty()) {
        g->setMatches({});
        m_model->setFrameFilter(nullptr);
        // A first look has no search: its sums would lack the frames still to come. The whole tree runs it.
        m_search->setResultText(m_firstLook && !pattern.isEmpty() ? tr("searching once the whole tree is built…")
                                                                  : QString(),
                                false);
        return;
    }
    const SearchResult r = Search::run(*m_view.tree, pattern, m_search->caseSensitivity());
    if (!r.valid()) {
        m_search->setResultText(tr("invalid pattern: %1").arg(r.error), true);
        return;
    }
    auto matches = std::make_shared<const std::vector<uint8_t>>(r.frameMatches.begin(), r.frameMatches.end());
    g->setMatches(*matches);
    m_model->setFrameFilter(std::move(matches));   // the top table shows the functions the search matched
    const std::string &unit = m_view.tree->sampleType().unit;
    m_search->setResultText(tr("%n function(s), matched %1 (%2 of the profile)", "", int(r.matchedFrames))
                                .arg(QString::fromStdString(formatValue(double(r.matchedTotal), unit)),
                                     QString::fromStdString(formatPercent(double(r.matchedTotal), double(r.rootTotal)))),
                            false);
}

bool ProfilePane::exportSubtree(NodeId node, bool pprof, const QString &chosenPath)
{
    QString path = chosenPath;
    if (path.isEmpty())
        path = QFileDialog::getSaveFileName(this, tr("Export Subtree"), QString(),
                                            pprof ? tr("pprof (*.pb.gz)") : tr("Folded stacks (*.folded *.txt)"));
    if (path.isEmpty() || !m_view.tree)
        return false;
    const QString error = writeExportFileOrError(
        path, stackExportBytes(*subtreeWithPath(*m_view.tree, node), pprof ? StackFormat::Pprof : StackFormat::Folded));
    if (!error.isEmpty()) {
        Q_EMIT loadFinished(false, error);
        return false;
    }
    return true;
}

void ProfilePane::frameMenu(NodeId node, QPoint globalPos)
{
    FlameGraphWidget *g = m_flameView->graph();
    if (!m_view.tree)
        return;
    const QString name = QString::fromStdString(m_view.tree->label(node));
    // Filters on this function by name: anchored and escaped, so they hit this function only.
    const QString exact = QStringLiteral("^") + QRegularExpression::escape(name) + QStringLiteral("$");
    QMenu menu(this);
    menu.addAction(tr("&Zoom Into Frame"), this, [g, node] { g->zoomTo(node); });
    menu.addAction(tr("&Sandwich (Callers and Callees)"), this, [this, node] { showSandwich(m_view.tree->frame(node)); });
    menu.addAction(tr("Show So&urce"), this, [this, node] { showSource(node); });
    menu.addAction(tr("Show &Assembly"), this, [this, node] { showAssembly(node); });
    menu.addSeparator();
    menu.addAction(tr("&Focus on %1").arg(name), this, [this, exact] { m_filters->setFilter(FilterBar::Focus, exact); });
    menu.addAction(tr("&Ignore %1").arg(name), this, [this, exact] { m_filters->setFilter(FilterBar::Ignore, exact); });
    menu.addAction(tr("&Hide %1").arg(name), this, [this, exact] { m_filters->setFilter(FilterBar::Hide, exact); });
    menu.addAction(tr("Sho&w Only %1").arg(name), this, [this, exact] { m_filters->setFilter(FilterBar::Show, exact); });
    menu.addSeparator();
    menu.addAction(tr("Export Subtree as &Folded Stacks..."), this, [this, node] { exportSubtree(node, false); });
    menu.addAction(tr("Export Subtree as &pprof..."), this, [this, node] { exportSubtree(node, true); });
    menu.addAction(tr("&Copy Name"), this, [name] { QGuiApplication::clipboard()->setText(name); });
    menu.exec(globalPos);
}

QString ProfilePane::title() const
{
    QStringList names;
    for (const QString &p : m_paths)
        names << QFileInfo(p).fileName();
    return names.join(QLatin1String(" + "));
}

void ProfilePane::showLoaded(LoadedView view)
{
    showView(std::move(view));
    setHasContent();
}

void ProfilePane::showView(LoadedView view)
{
    LoadedView old = std::exchange(m_view, std::move(view));
    fillSampleTypes(*m_view.profiles.front(), m_view.sampleType, m_view.granularity);
    if (m_firstLook && m_firstLook == m_view.firstLook) {
        // The whole tree in place of its first look, in the same state (zoom, history, selection, scroll);
        // zooming asked for meanwhile is done now. At this zoom it paints the same pixels.
        m_flameView->replaceTree(m_view.tree, m_view.layout, nodesInComplete(*m_firstLook, *m_view.tree));
        m_firstLook.reset();
    } else {
        dropFirstLook();
        m_flameView->setTree(m_view.tree, m_view.layout);
        m_details->showNode(nullptr, {}, -1);
    }
    m_view.firstLook.reset();
    if (auto *graph = findChild<GraphPane *>())
        graph->setInputs({}, m_view.profiles, m_view.sampleType, m_view.granularity, m_view.filters);
    if (auto *time = findChild<TimePane *>())
        time->setInputs(m_view.profiles, m_view.sampleType, BuildOptions{m_view.granularity, m_view.filters, {}, {}});
    m_model->setTable(m_view.flat);
    sizeColumnsToText(m_table);
    m_sandwich->clear();
    runSearch();   // the search stays in force on the new tree
    uint64_t bytes = 0;   // on disk, for the readiness' size check; a server's merge has none (0: unknown)
    for (const QString &p : m_paths)
        bytes += uint64_t(QFileInfo(p).size());
    m_pgoBytes = bytes;
    m_pgoStale = true;
    updatePgo();
    // Nothing shown refers to the previous view now. Freeing a large profile's millions of strings here
    // would hold the GUI thread; a worker does it.
    releaseOffThread(std::move(old));
}

}   // namespace qflame
