#include "document/DiffPane.h"

#include "compare/DiffTableModel.h"
#include "compare/DiffView.h"
#include "controls/SearchBar.h"
#include "controls/SecondaryPanes.h"
#include "flame/FlameGraphWidget.h"
#include "flame/FlameView.h"
#include "graphview/GraphPane.h"
#include "pgoview/PgoPanel.h"
#include "sourceview/SourceView.h"
#include "asmview/AsmView.h"

#include <QComboBox>
#include <QFileInfo>
#include <QItemSelectionModel>
#include <QMenu>
#include <QTableView>
#include <QVBoxLayout>

namespace qflame {

// ---- DiffPane ---------------------------------------------------------------------------------------------

DiffPane::DiffPane(QWidget *parent) : DocumentPane(parent)
{
    m_diffView = new DiffView;
    m_pgo = new PgoPanel;   // made at once: a comparison computes its inlining changes as it arrives
    connect(m_diffView->diffGraph()->graph(), &FlameGraphWidget::contextMenuRequested, this, &DiffPane::diffFrameMenu);
    // The diff flamegraph is the main view; the diff table, the source and the PGO panel of the new side are the
    // panes below it, the table open at first. The PGO panel's readiness stays in its pane: its tab gets a mark.
    // The source and assembly panes are made when first needed (SecondaryPanes::addLazyPane).
    SecondaryPanes *panes = m_diffView->secondaryPanes();
    m_sourceTab = panes->addLazyPane([] { return new SourceView; }, tr("Source"), 0.5);
    // Both builds' instructions by source line (ui/asmview).
    m_asmTab = panes->addLazyPane([] { return new AsmView; }, tr("Assembly"), 0.5);
    panes->addSecondaryPane(m_pgo, tr("PGO"), 0.4);
    auto *graph = new GraphPane;   // the comparison's call graph (ui/graphview)
    panes->addSecondaryPane(graph, tr("Graph"), 0.6);
    connect(m_pgo, &PgoPanel::computed, this, [this] { markPgoTab(m_diffView->secondaryPanes(), m_pgo); });
    addHeaderWidget(m_diffView->takeSearchBar(), 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addLayout(header());
    layout->addWidget(m_diffView, 1);
    connect(m_pgo, &PgoPanel::inliningChangesReady, m_diffView, &DiffView::setInliningChanges);
    // A change of k or of normalisation (which decides whether the rounds' measured noise applies) reaches the
    // graph once the diff view has applied it.
    connect(m_diffView, &DiffView::applied, this, [this] { updateGraph(m_diffView->shownDiff()); });
    connect(m_pgo, &PgoPanel::inliningChangesReady, graph, &GraphPane::setInliningChanges);   // on their edges
    // Selection both ways: a graph node selects its function's row of the diff table (which outlines its frames);
    // a row, or a frame of the diff flamegraph, selects the function's node.
    connect(graph, &GraphPane::nodeSelected, this, [this](const QString &name) {
        const DiffTable *table = m_diffView->diffTable();
        if (!table || name.isEmpty())
            return;
        const FrameTable &frames = table->tree().frames();
        for (FrameId f = 1; f < frames.size(); ++f)
            if (frames.label(f) == name.toStdString()) {
                QAbstractItemModel *model = m_diffView->table()->model();
                const QModelIndexList rows = model->match(model->index(0, 0), DiffTableModel::FrameRole, QVariant(uint(f)),
                                                          1, Qt::MatchExactly);
                if (!rows.isEmpty())
                    m_diffView->table()->setCurrentIndex(rows.first());
                return;
            }
    });
    connect(m_diffView->table()->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this, graph](const QModelIndex &current) {
                const DiffTable *table = m_diffView->diffTable();
                if (table && current.isValid())
                    graph->selectFunction(QString::fromStdString(
                        table->tree().frames().label(FrameId(current.data(DiffTableModel::FrameRole).toUInt()))));
            });
    connect(m_diffView->diffGraph()->graph(), &FlameGraphWidget::selectionChanged, this, [this, graph](NodeId n) {
        const DiffTree *d = m_diffView->diff();
        if (d && n != DiffTree::kRoot)
            graph->selectFunction(QString::fromStdString(d->frames().label(d->frame(n))));
    });
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

void DiffPane::updateGraph(const DiffTree *shown)
{
    auto *graph = findChild<GraphPane *>();
    if (!graph || m_loaded.before.empty())
        return;
    // Rounds' measured noise, where the comparison is in its unit (per second), as the diff table uses it.
    const MeasuredNoise *noise = m_diffView->measuredNoise();
    if (!shown || !noise || noise->normalization != shown->options().normalization)
        noise = nullptr;
    DiffOptions diff = shown ? shown->options() : m_diffView->options();   // the graph scales as the diff does
    diff.noiseK = m_diffView->options().noiseK;
    const double k = diff.noiseK;
    const double scale[2] = {noise ? shown->beforeScale() : 1, noise ? shown->afterScale() : 1};
    if (k == m_graphNoiseK && noise == m_graphNoise && scale[0] == m_graphScale[0] && scale[1] == m_graphScale[1] &&
        diff.normalization == m_graphNormalization && diff.factor == m_graphFactor)
        return;
    m_graphNormalization = diff.normalization;
    m_graphFactor = diff.factor;
    m_graphNoiseK = k;
    m_graphNoise = noise;
    m_graphScale[0] = scale[0];
    m_graphScale[1] = scale[1];
    graph->setMeasuredNoise(noise ? std::make_shared<MeasuredNoise>(*noise) : nullptr, scale[0], scale[1]);
    graph->setInputs(m_loaded.before, m_loaded.after, m_loaded.sampleType, m_loaded.granularity, {}, diff);
}

void DiffPane::diffFrameMenu(NodeId node, QPoint globalPos)
{
    const DiffTree *d = m_diffView->diff();
    if (!d || node == CallTree::kRoot)
        return;
    QMenu menu(this);
    menu.addAction(tr("Show So&urce (Before and After)"), this, [this, node] { showSource(node); });
    menu.addAction(tr("Show &Assembly (Before and After)"), this, [this, node] {
        const DiffTree *diff = m_diffView->diff();
        const FrameTable &frames = diff->frames();
        asmView()->showFunctionDiff(m_loaded.before, m_loaded.after, size_t(m_loaded.sampleType),
                                    frames.strings().str(frames.frame(diff->frame(node)).key.name),
                                    m_diffView->options().noiseK);
        m_diffView->secondaryPanes()->showPane(asmView());
    });
    menu.exec(globalPos);
}

void DiffPane::showSource(NodeId node)
{
    const DiffTree *d = m_diffView->diff();
    if (!d || node == CallTree::kRoot)
        return;
    const FrameTable &frames = d->frames();
    const std::string function = frames.strings().str(frames.frame(d->frame(node)).key.name);
    sourceView()->showFunctionDiff(m_loaded.before, m_loaded.after, size_t(m_loaded.sampleType), function,
                                   m_diffView->options().noiseK);
    m_diffView->secondaryPanes()->showPane(sourceView());
}

SourceView *DiffPane::sourceView() const
{
    return static_cast<SourceView *>(m_diffView->secondaryPanes()->pane(m_sourceTab));
}

AsmView *DiffPane::asmView() const
{
    return static_cast<AsmView *>(m_diffView->secondaryPanes()->pane(m_asmTab));
}

void DiffPane::showDiff(LoadedDiff d)
{
    m_loaded = std::move(d);
    fillSampleTypes(*m_loaded.before.front(), m_loaded.sampleType, m_loaded.granularity);
    m_diffView->setDiff(m_loaded.diff);
    m_graphNoiseK = -1;   // new inputs: the graph is rebuilt
    updateGraph(m_loaded.diff.get());
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
        QFuture<LoadedDiff> early = takeEarlyDiff(before, after, granularity, m_diffView->options());
        run<LoadedDiff>(early.isValid() ? early
                                        : loadDiffAsync(before, after, -1, granularity, m_diffView->options(), readOptions()),
                        [this](LoadedDiff d) {
                            showDiff(std::move(d));
                            if (m_frames.addsLabelFrames() || m_frames.inverted)   // read again: built as arranged
                                rebuild();
                        });
        sayReading(before + after, {m_diffView->diffGraph()->graph(), m_diffView->beforeGraph()->graph(),
                                    m_diffView->afterGraph()->graph()});
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
