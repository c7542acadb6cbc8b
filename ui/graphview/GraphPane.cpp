#include "graphview/GraphPane.h"

#include "graphview/GraphCanvas.h"

#include "graph/GraphMarks.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QVBoxLayout>

namespace qflame {

GraphPane::GraphPane(QWidget *parent) : QWidget(parent), m_canvas(new GraphCanvas)
{
    m_nodeCount = new QSpinBox;
    m_nodeCount->setRange(0, 100000);
    m_nodeCount->setValue(80);
    m_nodeCount->setSpecialValueText(tr("all"));
    m_nodeCount->setToolTip(tr("At most this many nodes (pprof's nodecount; 0: all)"));
    m_search = new QLineEdit;
    m_search->setPlaceholderText(tr("Search functions (regular expression)"));
    m_search->setClearButtonEnabled(true);
    m_focusLabel = new QLabel;
    m_clearFocus = new QPushButton(tr("Clear focus"));
    m_clearFocus->setVisible(false);
    auto *fit = new QPushButton(tr("Fit"));
    m_status = new QLabel;
    auto *bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Nodes:")));
    bar->addWidget(m_nodeCount);
    bar->addWidget(m_search, 1);
    bar->addWidget(m_focusLabel);
    bar->addWidget(m_clearFocus);
    bar->addWidget(fit);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_canvas, 1);
    layout->addWidget(m_status);

    connect(m_nodeCount, &QSpinBox::editingFinished, this, [this] {
        if (m_nodeCount->value() == m_builtNodeCount)
            return;   // focus left the field without a change
        m_stale = true;
        rebuild();
    });
    connect(m_search, &QLineEdit::textChanged, this, &GraphPane::updateSearch);
    connect(fit, &QPushButton::clicked, m_canvas, &GraphCanvas::fitToView);
    connect(m_clearFocus, &QPushButton::clicked, this, [this] {
        m_focus.clear();
        m_stale = true;
        rebuild();
    });
    connect(m_canvas, &GraphCanvas::focusRequested, this, &GraphPane::focusOn);
    connect(m_canvas, &GraphCanvas::nodeSelected, this, [this](int) { Q_EMIT nodeSelected(selectedName()); });
}

void GraphPane::showBuilt(const Built &built)
{
    std::shared_ptr<const GraphLayout> layout = built.layout;
    if (!layout) {
        m_status->setText(tr("No graph: %1").arg(built.error));
        return;
    }
    if (m_inlining && layout->graph().isDiff() && !layout->graph().hasInliningChanges())   // came while building
        layout = GraphLayout::withGraph(*layout, withInliningChanges(layout->graphPtr(), *m_inlining));
    m_canvas->setLayout(layout);
    const CallGraph &g = layout->graph();
    QString text = tr("%1 nodes, %2 edges; showing %3 of %4 total")
                       .arg(g.nodes().size())
                       .arg(g.edges().size())
                       .arg(QString::fromStdString(graphDeltaText(g, g.shownDelta())),
                            QString::fromStdString(graphDeltaText(g, g.scaledTotal())));
    if (g.droppedNodes())
        text += tr("; dropped %1 nodes (cum <= %2)").arg(g.droppedNodes())
                    .arg(QString::fromStdString(graphValueText(g, g.nodeCutoff())));
    if (g.nodes().size() < g.nodesBeforeLimit())
        text += tr("; top %1 nodes out of %2").arg(g.nodes().size()).arg(g.nodesBeforeLimit());
    if (g.isDiff())
        text += tr(" - red: more cost in the comparison, green: less, grey: within noise (%1 standard errors)")
                    .arg(g.noiseK());
    if (g.hasInliningChanges())
        text += tr("; purple edges: inlining changes (PGO)");
    // What the numbers mean, on a line of their own as the diff's headline has them: the normalisation (the
    // diff's sentence) and the rounds' measured noise.
    QStringList meaning;
    if (g.isNormalized())
        meaning << QString::fromStdString(graphNormalizationLine(g));
    if (g.hasMeasuredNoise())
        meaning << tr("%1 of %2 nodes and %3 of %4 edges by the noise measured from %5")
                       .arg(measuredNodeCount(g))
                       .arg(g.nodes().size())
                       .arg(measuredEdgeCount(g))
                       .arg(g.edges().size())
                       .arg(QString::fromStdString(g.measuredSource()));
    if (!meaning.isEmpty())
        text += QLatin1Char('\n') + meaning.join(QStringLiteral("; "));
    // Lines, not word wrap (which the panes' splitter does not give the height it needs); the whole in its tooltip.
    m_status->setText(text);
    m_status->setToolTip(text);
    updateSearch();
    Q_EMIT graphReady();
}

GraphPane::~GraphPane()
{
    m_job.waitForFinished();
}

void GraphPane::setInputs(Profiles before, Profiles after, int sampleType, Granularity granularity,
                          SampleFilters filters, double noiseK)
{
    DiffOptions diff;
    diff.noiseK = noiseK;
    setInputs(std::move(before), std::move(after), sampleType, granularity, std::move(filters), diff);
}

void GraphPane::setInputs(Profiles before, Profiles after, int sampleType, Granularity granularity,
                          SampleFilters filters, const DiffOptions &diff)
{
    m_before = std::move(before);
    m_after = std::move(after);
    m_sampleType = sampleType;
    m_granularity = granularity;
    m_filters = std::move(filters);
    m_diff = diff;
    m_focus.clear();
    m_stale = true;
    if (isVisible())
        rebuild();
}

const GraphLayout *GraphPane::graphLayout() const
{
    return m_canvas->graphLayout();
}

QString GraphPane::selectedName() const
{
    const GraphLayout *layout = m_canvas->graphLayout();
    const int node = m_canvas->selectedNode();
    return layout && node >= 0 ? QString::fromStdString(layout->graph().name(uint32_t(node))) : QString();
}

void GraphPane::showEvent(QShowEvent *)
{
    rebuild();
}

void GraphPane::rebuild()
{
    if (!m_stale || m_after.empty() || m_sampleType < 0)
        return;
    m_stale = false;
    GraphOptions options;
    options.nodeCount = m_builtNodeCount = m_nodeCount->value();
    BuildOptions build;
    build.granularity = m_granularity;
    build.filters = m_filters;
    if (!m_focus.isEmpty())   // pprof's focus, exactly this function
        build.filters.focus = ("^" + QRegularExpression::escape(m_focus) + "$").toStdString();
    m_focusLabel->setText(m_focus.isEmpty() ? QString() : tr("Focus: %1").arg(m_focus));
    m_clearFocus->setVisible(!m_focus.isEmpty());
    m_status->setText(tr("Building the graph..."));
    m_job.start(
        [before = m_before, after = m_after, type = size_t(m_sampleType), build, options, diff = m_diff,
         inlining = m_inlining, measured = m_measured, sb = m_measuredScale[0], sa = m_measuredScale[1]] {
            Built built;
            try {
                auto graph = before.empty() ? CallGraph::build(after, type, build, options)
                                            : CallGraph::buildDiff(before, after, type, build, options, diff);
                if (measured)
                    graph = withMeasuredNoise(std::move(graph), *measured, sb, sa);
                if (inlining)
                    graph = withInliningChanges(std::move(graph), *inlining);
                built.layout = GraphLayout::compute(std::move(graph));
            } catch (const std::exception &e) {   // a filter that matches nothing, Graphviz failing: one line
                built.error = QString::fromUtf8(e.what());
            }
            return built;
        },
        [this](Built built) { showBuilt(built); });
}

void GraphPane::setInliningChanges(std::shared_ptr<const InliningChanges> changes)
{
    m_inlining = std::move(changes);
    const GraphLayout *layout = m_canvas->graphLayout();
    if (!layout || !m_inlining || !layout->graph().isDiff())
        return;   // a later build marks them
    // Marks only: the shown layout keeps its place (Graphviz is not asked again).
    m_canvas->replaceLayout(GraphLayout::withGraph(*layout, withInliningChanges(layout->graphPtr(), *m_inlining)));
    if (!m_status->text().contains(tr("inlining changes"))) {   // on the first line, before the normalisation's
        QString text = m_status->text();
        const qsizetype end = text.indexOf(QLatin1Char('\n'));
        text.insert(end < 0 ? text.size() : end, tr("; purple edges: inlining changes (PGO)"));
        m_status->setText(text);
    }
}

void GraphPane::setMeasuredNoise(std::shared_ptr<const MeasuredNoise> noise, double scaleBefore, double scaleAfter)
{
    m_measured = std::move(noise);
    m_measuredScale[0] = scaleBefore;
    m_measuredScale[1] = scaleAfter;
}

void GraphPane::selectFunction(const QString &name)
{
    const GraphLayout *layout = m_canvas->graphLayout();
    if (!layout || name == selectedName())
        return;
    int node = -1;
    const std::string wanted = name.toStdString();
    for (uint32_t i = 0; i < layout->graph().nodes().size() && node < 0; ++i)
        if (layout->graph().name(i) == wanted)
            node = int(i);
    m_canvas->selectNode(node);
}

void GraphPane::focusOn(int node)
{
    const GraphLayout *layout = m_canvas->graphLayout();
    if (!layout || node < 0)
        return;
    m_focus = QString::fromStdString(layout->graph().name(uint32_t(node)));
    m_stale = true;
    rebuild();
}

void GraphPane::updateSearch()
{
    const QString text = m_search->text();
    const int matches = m_canvas->setSearch(QRegularExpression(text, QRegularExpression::CaseInsensitiveOption));
    if (!text.isEmpty())
        m_search->setToolTip(tr("%n matching nodes", nullptr, matches));
}

}   // namespace qflame
