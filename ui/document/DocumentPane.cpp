#include "document/DocumentPane.h"

#include "document/UrlFetches.h"

#include "compare/DiffView.h"
#include "controls/FilterBar.h"
#include "controls/SearchBar.h"
#include "controls/TableSizing.h"
#include "flame/FlameGraphWidget.h"
#include "flame/FlameView.h"
#include "flame/FrameDetails.h"
#include "pgoview/PgoPanel.h"
#include "sourceview/SourceView.h"
#include "pprof/Units.h"
#include "tables/SandwichView.h"
#include "tables/TopTableModel.h"
#include "tree/Search.h"
#include "tree/StagedTree.h"

#include "export/FoldedWriter.h"
#include "export/ProfileWriter.h"
#include "tree/Subtree.h"

#include <QClipboard>
#include <QSaveFile>
#include <QFileDialog>
#include <QGuiApplication>
#include <QMenu>
#include <QRegularExpression>
#include <QTabWidget>

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <optional>
#include <utility>

namespace qflame {

std::string treeExportBytes(const CallTree &tree, bool pprof)
{
    return pprof ? gzipCompress(encodePprof(tree)) : writeFolded(tree);
}

QString writeExportFile(const QString &path, const std::string &bytes)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes.data(), qint64(bytes.size())) != qint64(bytes.size()) ||
        !f.commit())
        return DocumentPane::tr("%1: cannot write: %2").arg(path, f.errorString());
    return {};
}

// ---- DocumentPane -----------------------------------------------------------------------------------------

DocumentPane::DocumentPane(QWidget *parent) : QWidget(parent)
{
    m_sampleTypes = new QComboBox;
    m_sampleTypes->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_granularity = new QComboBox;
    m_granularity->addItem(tr("Functions"), int(Granularity::Functions));
    m_granularity->addItem(tr("Lines"), int(Granularity::Lines));
    m_granularity->addItem(tr("Addresses"), int(Granularity::Addresses));
    m_progress = new QProgressBar;
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(200);
    m_progress->hide();
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->hide();
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("paneStatus"));
    m_status->setTextFormat(Qt::RichText);
    m_status->hide();
    connect(m_status, &QLabel::linkActivated, this, [this] { reopen(); });
    m_header = new QHBoxLayout;
    m_header->addWidget(new QLabel(tr("Sample type:")));
    m_header->addWidget(m_sampleTypes);
    m_header->addWidget(new QLabel(tr("Granularity:")));
    m_header->addWidget(m_granularity);
    m_header->addStretch(1);
    m_header->addWidget(m_status);
    m_header->addWidget(m_progress);
    m_header->addWidget(m_cancel);
    connect(m_cancel, &QPushButton::clicked, this, &DocumentPane::userCancel);
    connect(m_sampleTypes, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_updatingControls && m_hasContent)
            rebuild();
    });
    connect(m_granularity, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_updatingControls && m_hasContent)
            rebuild();
    });
}

DocumentPane::~DocumentPane()
{
    cancel();   // the worker stops at its next progress check; nothing refers back to this pane
}

void DocumentPane::startedJob()
{
    m_progress->setValue(0);
    m_progress->show();
    m_cancel->show();
}

void DocumentPane::setProgress(int value)
{
    m_progress->setValue(value);
}

void DocumentPane::jobEnded()
{
    m_watcherActive = false;
    m_progress->hide();
    m_cancel->hide();
}

void DocumentPane::userCancel()
{
    if (m_fetches)
        m_fetches->cancel();   // its end says so in the header
    else
        cancel();
}

void DocumentPane::fetchThen(const QStringList &paths, bool reuseFetched, std::function<void()> then)
{
    cancel();
    delete std::exchange(m_fetches, nullptr);   // a fetch of what was asked before: superseded, like a job
    m_status->hide();
    const QStringList urls = UrlFetches::toFetch(paths, reuseFetched);
    if (urls.isEmpty())
        return then();
    m_fetches = new UrlFetches(this);
    auto show = [this] {
        m_status->setText(m_fetches->statusText().toHtmlEscaped());
        m_progress->setValue(m_fetches->progress());
    };
    connect(m_fetches, &UrlFetches::ticked, this, show);
    connect(m_fetches, &UrlFetches::finished, this, [this, urls, then](bool ok, bool cancelled, const QString &error) {
        m_fetches->deleteLater();
        m_fetches = nullptr;
        jobEnded();
        if (ok) {
            m_status->hide();
            return then();
        }
        if (cancelled) {   // the tab stays and says so; nothing else changes
            m_status->setText(tr("Cancelled: nothing was fetched from %1. <a href=\"again\">Fetch again</a>")
                                  .arg(urls.join(QLatin1String(", ")).toHtmlEscaped()));
            return;
        }
        m_status->hide();
        m_lastError = error;
        Q_EMIT loadFinished(false, error);
    });
    m_fetches->start(urls);
    startedJob();
    m_status->show();
    show();
}

void DocumentPane::cancel()
{
    if (!m_watcher)
        return;
    auto *base = static_cast<QFutureWatcherBase *>(m_watcher);
    base->disconnect(this);
    base->cancel();
    base->deleteLater();
    m_watcher = nullptr;
    ++m_generation;
    jobEnded();
    jobDropped();
}

void DocumentPane::fillSampleTypes(const Profile &p, int current, Granularity granularity)
{
    m_updatingControls = true;
    m_sampleTypes->clear();
    for (size_t i = 0; i < p.sampleTypes.size(); ++i) {
        QString text = QString::fromStdString(p.typeName(i) + "/" + p.unitName(i));
        if (int(i) == p.effectiveDefaultType())
            text += tr(" (default)");
        m_sampleTypes->addItem(text);
    }
    m_sampleTypes->setCurrentIndex(current);
    m_granularity->setCurrentIndex(m_granularity->findData(int(granularity)));
    m_updatingControls = false;
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
    m_views = new QTabWidget;
    m_views->addTab(top, tr("Flame graph"));
    m_views->addTab(m_sandwich, tr("Sandwich"));
    m_source = new SourceView;
    m_views->addTab(m_source, tr("Source"));
    // The PGO panel beside the top table under the flamegraph, not a view of its own: selecting an edge
    // highlights its caller and callee in the flamegraph, so both must be on screen together.
    m_pgo = new PgoPanel;
    m_lower = new QTabWidget;
    m_lower->setDocumentMode(true);
    m_lower->addTab(m_table, tr("Top"));
    m_lower->addTab(m_pgo, tr("PGO"));
    m_split = new QSplitter(Qt::Vertical);
    m_split->addWidget(m_views);
    m_split->addWidget(m_lower);
    m_split->setStretchFactor(0, 3);
    m_split->setStretchFactor(1, 1);
    connect(m_lower, &QTabWidget::currentChanged, this, &ProfilePane::updatePgo);
    connect(m_lower, &QTabWidget::currentChanged, this, [this] {
        // The PGO panel needs more room than the top table: readiness, controls and a table of edges.
        const QList<int> sizes = m_split->sizes();
        const int total = sizes.value(0) + sizes.value(1);
        if (m_lower->currentWidget() == m_pgo && total > 0 && sizes.value(1) < total * 2 / 5)
            m_split->setSizes({total - total * 2 / 5, total * 2 / 5});
    });
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(header());
    layout->addWidget(m_search);
    layout->addWidget(m_filters);
    layout->addWidget(m_split, 1);
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
            m_source->showFunction(m_view.profiles, size_t(m_view.sampleType),
                                   frames.strings().str(frames.frame(frame).key.name));
            m_views->setCurrentWidget(m_source);
        });
        menu.exec(m_table->viewport()->mapToGlobal(pos));
    });
    connect(m_flameView->graph(), &FlameGraphWidget::contextMenuRequested, this, &ProfilePane::frameMenu);
    connect(m_pgo, &PgoPanel::edgeSelected, this, &ProfilePane::highlightEdge);

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
}

FlameGraphWidget *ProfilePane::flameGraph() const
{
    return m_flameView->graph();
}

namespace {

DemangleMode g_demangle = DemangleMode::Simple;
bool g_collapseTemplates = false;

ReadOptions paneReadOptions()
{
    ReadOptions o;
    o.demangle = g_demangle;
    o.collapseTemplates = g_collapseTemplates;
    return o;
}

bool g_openInverted = false;

// The job startEarly began, until a pane takes it over or drops it.
struct EarlyJob {
    QStringList before, after;   // after empty: one profile
    QFuture<LoadedView> view;
    QFuture<LoadedDiff> diff;
};
std::optional<EarlyJob> g_early;

// The early job when it is of these files, read as a pane would read them now; nothing otherwise (a job of
// other files is cancelled: no pane will want it).
std::optional<EarlyJob> takeEarlyJob(const QStringList &before, const QStringList &after, Granularity granularity)
{
    std::optional<EarlyJob> job = std::exchange(g_early, std::nullopt);
    if (!job)
        return std::nullopt;
    if (job->before != before || job->after != after || granularity != Granularity::Functions ||
        g_demangle != DemangleMode::Simple || g_collapseTemplates) {
        job->view.cancel();
        job->diff.cancel();
        return std::nullopt;
    }
    return job;
}

}   // namespace

void DocumentPane::startEarly(const QStringList &files)
{
    if (files.isEmpty() || files.size() > 2)
        return;
    // What open() would start with a pane's defaults: functions, simple demangling, a diff's default options.
    EarlyJob job;
    job.before = {files.front()};
    if (files.size() == 2) {
        job.after = {files.back()};
        job.diff = loadDiffAsync(job.before, job.after, -1, Granularity::Functions, DiffOptions(), paneReadOptions());
    } else {
        SampleFilters filters;
        filters.inverted = g_openInverted;
        job.view = loadFilesAsync(job.before, -1, Granularity::Functions, paneReadOptions(), filters);
    }
    g_early = std::move(job);
}

DocumentPane::EarlyJobState DocumentPane::earlyJobState()
{
    if (!g_early)
        return EarlyJobState::None;
    const bool ended = g_early->view.isValid() ? g_early->view.isFinished() : g_early->diff.isFinished();
    return ended ? EarlyJobState::Ended : EarlyJobState::Running;
}

namespace {

bool sameDiffOptions(const DiffOptions &a, const DiffOptions &b)
{
    return a.normalization == b.normalization && a.factor == b.factor && a.noiseK == b.noiseK;
}

}   // namespace

void DocumentPane::setDemangleMode(DemangleMode mode)
{
    g_demangle = mode;
}

DemangleMode DocumentPane::demangleMode()
{
    return g_demangle;
}

void DocumentPane::setCollapseTemplates(bool on)
{
    g_collapseTemplates = on;
}

bool DocumentPane::collapseTemplates()
{
    return g_collapseTemplates;
}

void DocumentPane::setOpenInverted(bool on)
{
    g_openInverted = on;
}

void ProfilePane::open(const QStringList &paths)
{
    open(paths, false);
}

void ProfilePane::open(const QStringList &paths, bool reuseFetched)
{
    m_paths = paths;
    if (g_openInverted && !hasContent() && !m_filters->filters().inverted) {
        const QSignalBlocker quiet(m_filters);
        m_filters->setInverted(true);
    }
    fetchThen(paths, reuseFetched, [this, paths] {
        const Granularity granularity = Granularity(granularityBox()->currentData().toInt());
        std::optional<EarlyJob> early = takeEarlyJob(paths, {}, granularity);
        if (early && m_filters->filters().inverted != g_openInverted) {
            early->view.cancel();
            early.reset();
        }
        run<LoadedView>(early && early->view.isValid()
                            ? early->view
                            : loadFilesAsync(paths, -1, granularity, paneReadOptions(), m_filters->filters()),
                        [this](LoadedView v) { showView(std::move(v)); },
                        [this](LoadedView v) { showFirstLook(std::move(v)); });
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
    m_model->setTable(nullptr);
    m_details->showNode(nullptr, {}, -1);
    m_sandwich->clear();
    m_views->setCurrentIndex(0);
    runSearch();
    setHasContent();   // a sample type chosen now rebuilds from these profiles
    (void)QtConcurrent::run([old = std::make_shared<LoadedView>(std::move(old))] {});
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
    m_views->setCurrentWidget(m_sandwich);
}

void ProfilePane::showSource(NodeId node)
{
    if (!m_view.tree || node == CallTree::kRoot)
        return;
    const FrameTable &frames = m_view.tree->frames();
    const std::string function = frames.strings().str(frames.frame(m_view.tree->frame(node)).key.name);
    m_source->showFunction(m_view.profiles, size_t(m_view.sampleType), function);
    m_views->setCurrentWidget(m_source);
}

void ProfilePane::updatePgo()
{
    if (!m_pgoStale || m_lower->currentWidget() != m_pgo || m_view.profiles.empty())
        return;
    m_pgoStale = false;
    m_pgo->setProfiles(m_view.profiles, m_pgoBytes);
}

void ProfilePane::showPgo()
{
    m_lower->setCurrentWidget(m_pgo);
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
    const QString error = writeExportFile(path, treeExportBytes(*subtreeWithPath(*m_view.tree, node), pprof));
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
        m_views->setCurrentIndex(0);
    }
    m_view.firstLook.reset();
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
    (void)QtConcurrent::run([old = std::make_shared<LoadedView>(std::move(old))] {});
}

// ---- DiffPane ---------------------------------------------------------------------------------------------

DiffPane::DiffPane(QWidget *parent) : DocumentPane(parent)
{
    m_diffView = new DiffView;
    m_pgo = new PgoPanel;
    m_source = new SourceView;
    m_diffView->tabs()->addTab(m_source, tr("Source"));
    connect(m_diffView->diffGraph()->graph(), &FlameGraphWidget::contextMenuRequested, this, &DiffPane::diffFrameMenu);
    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(m_diffView);
    split->addWidget(m_pgo);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setSizes({700, 300});   // proportions until shown: the diff view keeps most of the height
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(header());
    layout->addWidget(split, 1);
    connect(m_pgo, &PgoPanel::inliningChangesReady, m_diffView, &DiffView::setInliningChanges);
    connect(m_pgo, &PgoPanel::edgeSelected, this, [this](const std::string &caller, const std::string &callee) {
        // The edges are the new side's: its frames in the diff flamegraph keep their colour, the rest fade.
        const DiffTree *d = m_diffView->diff();
        if (!d)
            return;
        FlameGraphWidget *g = m_diffView->diffGraph()->graph();
        g->setMatches(caller.empty() && callee.empty() ? std::vector<uint8_t>()
                                                        : framesOfFunctions(d->frames(), caller, callee));
    });
}

void DiffPane::diffFrameMenu(NodeId node, QPoint globalPos)
{
    const DiffTree *d = m_diffView->diff();
    if (!d || node == CallTree::kRoot)
        return;
    QMenu menu(this);
    menu.addAction(tr("Show So&urce (Before and After)"), this, [this, node] { showSource(node); });
    menu.exec(globalPos);
}

void DiffPane::showSource(NodeId node)
{
    const DiffTree *d = m_diffView->diff();
    if (!d || node == CallTree::kRoot)
        return;
    const FrameTable &frames = d->frames();
    const std::string function = frames.strings().str(frames.frame(d->frame(node)).key.name);
    m_source->showFunctionDiff(m_loaded.before, m_loaded.after, size_t(m_loaded.sampleType), function,
                               m_diffView->options().noiseK);
    m_diffView->tabs()->setCurrentWidget(m_source);
}

void DiffPane::showDiff(LoadedDiff d)
{
    m_loaded = std::move(d);
    fillSampleTypes(*m_loaded.before.front(), m_loaded.sampleType, m_loaded.granularity);
    m_diffView->setDiff(m_loaded.diff);
    uint64_t bytes = 0;
    for (const QString &p : m_after)
        bytes += uint64_t(QFileInfo(p).size());
    m_pgo->setComparison(m_loaded.before, m_loaded.after, bytes);
}

void DiffPane::open(const QStringList &before, const QStringList &after, bool reuseFetched)
{
    m_before = before;
    m_after = after;
    fetchThen(before + after, reuseFetched, [this, before, after] {
        const Granularity granularity = Granularity(granularityBox()->currentData().toInt());
        std::optional<EarlyJob> early = takeEarlyJob(before, after, granularity);
        if (early && !(early->diff.isValid() && sameDiffOptions(m_diffView->options(), DiffOptions()))) {
            early->diff.cancel();
            early.reset();
        }
        run<LoadedDiff>(early ? early->diff
                              : loadDiffAsync(before, after, -1, granularity, m_diffView->options(), paneReadOptions()),
                        [this](LoadedDiff d) {
                            showDiff(std::move(d));
                            if (m_frames.addsLabelFrames() || m_frames.inverted)   // read again: built as arranged
                                rebuild();
                        });
    });
}

void DiffPane::openProfiles(const QString &beforeName, std::vector<std::shared_ptr<const Profile>> before,
                            const QString &afterName, std::vector<std::shared_ptr<const Profile>> after)
{
    m_before.clear();
    m_after.clear();
    m_beforeName = beforeName;
    m_afterName = afterName;
    run<LoadedDiff>(rebuildDiffAsync(std::move(before), std::move(after), -1,
                                     Granularity(granularityBox()->currentData().toInt()), m_diffView->options()),
                    [this](LoadedDiff d) { showDiff(std::move(d)); });
}

void DiffPane::reopen()
{
    if (!m_before.isEmpty())
        open(m_before, m_after, true);
}

void DiffPane::rebuild()
{
    run<LoadedDiff>(rebuildDiffAsync(m_loaded.before, m_loaded.after, sampleTypeBox()->currentIndex(),
                                     Granularity(granularityBox()->currentData().toInt()), m_diffView->options(),
                                     m_frames),
                    [this](LoadedDiff d) { showDiff(std::move(d)); });
}

void DiffPane::setFrames(const SampleFilters &frames)
{
    m_frames = frames;
    if (hasContent())
        rebuild();
}

QString DiffPane::title() const
{
    auto names = [](const QStringList &paths) {
        QStringList n;
        for (const QString &p : paths)
            n << QFileInfo(p).fileName();
        return n.join(QLatin1String(" + "));
    };
    if (m_before.isEmpty() && !m_beforeName.isEmpty())
        return tr("%1 → %2").arg(m_beforeName, m_afterName);
    return tr("%1 → %2").arg(names(m_before), names(m_after));
}

}   // namespace qflame
