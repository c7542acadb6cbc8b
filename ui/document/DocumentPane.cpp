#include "document/DocumentPane.h"

#include "compare/DiffView.h"
#include "controls/FilterBar.h"
#include "controls/SearchBar.h"
#include "controls/TableSizing.h"
#include "flame/FlameGraphWidget.h"
#include "flame/FlameView.h"
#include "flame/FrameDetails.h"
#include "pprof/Units.h"
#include "tables/SandwichView.h"
#include "tables/TopTableModel.h"
#include "tree/Search.h"

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
    m_header = new QHBoxLayout;
    m_header->addWidget(new QLabel(tr("Sample type:")));
    m_header->addWidget(m_sampleTypes);
    m_header->addWidget(new QLabel(tr("Granularity:")));
    m_header->addWidget(m_granularity);
    m_header->addStretch(1);
    m_header->addWidget(m_progress);
    m_header->addWidget(m_cancel);
    connect(m_cancel, &QPushButton::clicked, this, &DocumentPane::cancel);
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
    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(m_views);
    split->addWidget(m_table);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(header());
    layout->addWidget(m_search);
    layout->addWidget(m_filters);
    layout->addWidget(split, 1);
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
}

FlameGraphWidget *ProfilePane::flameGraph() const
{
    return m_flameView->graph();
}

namespace {

DemangleMode g_demangle = DemangleMode::Simple;

ReadOptions paneReadOptions()
{
    ReadOptions o;
    o.demangle = g_demangle;
    return o;
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

void ProfilePane::open(const QStringList &paths)
{
    m_paths = paths;
    run<LoadedView>(loadFilesAsync(paths, -1, Granularity(granularityBox()->currentData().toInt()), paneReadOptions()),
                    [this](LoadedView v) { showView(std::move(v)); });
}

void ProfilePane::rebuild()
{
    run<LoadedView>(rebuildAsync(m_view.profiles, sampleTypeBox()->currentIndex(),
                                 Granularity(granularityBox()->currentData().toInt()), m_filters->filters()),
                    [this](LoadedView v) { showView(std::move(v)); });
}

void ProfilePane::showSandwich(FrameId frame)
{
    if (!m_view.tree || frame == FrameTable::kRoot || frame >= m_view.tree->frames().size())
        return;
    m_sandwich->showFunction(*m_view.tree, frame);
    m_views->setCurrentWidget(m_sandwich);
}

void ProfilePane::runSearch()
{
    FlameGraphWidget *g = m_flameView->graph();
    const QString pattern = m_search->pattern();
    if (!m_view.tree || pattern.isEmpty()) {
        g->setMatches({});
        m_model->setFrameFilter(nullptr);
        m_search->setResultText(QString(), false);
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
    m_flameView->setTree(m_view.tree, m_view.layout);
    m_model->setTable(m_view.flat);
    sizeColumnsToText(m_table);
    m_details->showNode(nullptr, {}, -1);
    m_sandwich->clear();
    m_views->setCurrentIndex(0);
    runSearch();   // the search stays in force on the new tree
    // Nothing shown refers to the previous view now. Freeing a large profile's millions of strings here
    // would hold the GUI thread; a worker does it.
    (void)QtConcurrent::run([old = std::make_shared<LoadedView>(std::move(old))] {});
}

// ---- DiffPane ---------------------------------------------------------------------------------------------

DiffPane::DiffPane(QWidget *parent) : DocumentPane(parent)
{
    m_diffView = new DiffView;
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(header());
    layout->addWidget(m_diffView, 1);
}

void DiffPane::open(const QStringList &before, const QStringList &after)
{
    m_before = before;
    m_after = after;
    run<LoadedDiff>(loadDiffAsync(before, after, -1, Granularity(granularityBox()->currentData().toInt()),
                                  m_diffView->options(), paneReadOptions()),
                    [this](LoadedDiff d) {
                        m_loaded = std::move(d);
                        fillSampleTypes(*m_loaded.before.front(), m_loaded.sampleType, m_loaded.granularity);
                        m_diffView->setDiff(m_loaded.diff);
                    });
}

void DiffPane::rebuild()
{
    run<LoadedDiff>(rebuildDiffAsync(m_loaded.before, m_loaded.after, sampleTypeBox()->currentIndex(),
                                     Granularity(granularityBox()->currentData().toInt()), m_diffView->options()),
                    [this](LoadedDiff d) {
                        m_loaded = std::move(d);
                        fillSampleTypes(*m_loaded.before.front(), m_loaded.sampleType, m_loaded.granularity);
                        m_diffView->setDiff(m_loaded.diff);
                    });
}

QString DiffPane::title() const
{
    auto names = [](const QStringList &paths) {
        QStringList n;
        for (const QString &p : paths)
            n << QFileInfo(p).fileName();
        return n.join(QLatin1String(" + "));
    };
    return tr("%1 → %2").arg(names(m_before), names(m_after));
}

}   // namespace qflame
