#include "compare/DiffView.h"

#include "compare/DiffLegend.h"
#include "compare/DiffTableModel.h"
#include "controls/SearchBar.h"
#include "controls/SecondaryPanes.h"
#include "controls/TableSizing.h"
#include "diff/DiffHeadline.h"
#include "flame/FlameView.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace qflame {

DiffView::DiffView(QWidget *parent) : QWidget(parent)
{
    m_summary = new QLabel;
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_perSecondButton = new QPushButton(tr("Use per-second"));
    m_perSecondButton->hide();

    m_normalization = new QComboBox;
    m_normalization->addItem(tr("Absolute (none)"), int(Normalization::None));
    m_normalization->addItem(tr("Per second"), int(Normalization::PerSecond));
    m_normalization->addItem(tr("Share of total (reference only)"), int(Normalization::Total));
    m_normalization->addItem(tr("Custom factor"), int(Normalization::Factor));
    m_factor = new QDoubleSpinBox;
    m_factor->setDecimals(4);
    m_factor->setRange(0.0001, 1e6);
    m_factor->setValue(1.0);
    m_factor->setEnabled(false);
    m_noise = new QDoubleSpinBox;
    m_noise->setRange(0, 10);
    m_noise->setSingleStep(0.5);
    m_noise->setValue(2.0);
    m_noise->setSpecialValueText(tr("noise off"));
    m_noise->setSuffix(tr(" σ"));
    m_noise->setToolTip(tr("Noise threshold: a change smaller than this many standard errors (Poisson, from the "
                           "sample counts) is shown hatched, as noise (0 = off)"));
    m_bySelf = new QCheckBox(tr("Colour by self"));
    m_width = new QComboBox;
    m_width->addItem(tr("Width: max(before, after)"), int(DiffWidth::Max));
    m_width->addItem(tr("Width: comparison"), int(DiffWidth::Comparison));
    m_width->addItem(tr("Width: baseline"), int(DiffWidth::Baseline));
    m_scale = new QDoubleSpinBox;
    m_scale->setRange(0, 1e18);
    m_scale->setDecimals(0);
    m_scale->setSpecialValueText(tr("scale auto"));
    m_scale->setToolTip(tr("Colour scale: the |delta| that gets the full colour, in the sample unit (auto: the "
                           "largest change)"));
    m_common = new QCheckBox(tr("Common scale"));
    m_common->setChecked(true);
    m_common->setToolTip(tr("Side by side: draw both profiles on one absolute scale, so the lighter one is narrower"));
    m_legend = new DiffLegend;

    // Every control of the diff bar says what it does.
    m_normalization->setToolTip(tr("How the two profiles are made comparable before subtracting: absolute values "
                                   "(the same work in both), per second of profile (different durations), each "
                                   "side's share of its total (for reference: hides a change of the total), or a "
                                   "factor applied to the comparison"));
    m_factor->setToolTip(tr("Custom factor: the comparison's values are multiplied by this before subtracting"));
    m_noise->setPrefix(tr("noise "));
    m_bySelf->setToolTip(tr("Colour each frame by the change of its own (self) cost instead of its total"));
    m_width->setToolTip(tr("How wide a frame is: the larger of its two values, its comparison value, or its "
                           "baseline value"));
    m_scale->setPrefix(tr("scale "));
    m_scale->setMaximumWidth(fontMetrics().horizontalAdvance(QStringLiteral("scale 0000000000000")));
    m_perSecondButton->setToolTip(tr("The durations differ: compare per second of profile"));
    m_summary->setToolTip(tr("Totals before and after, the durations, the normalisation in force and the "
                             "noise threshold"));

    // The flamegraphs: the diff flamegraph or the two sides, switched by two buttons in the bar (a tab bar would
    // take a row of the flamegraph's height).
    m_diffView = new FlameView;
    m_beforeView = new FlameView;
    m_afterView = new FlameView;
    auto *sideBySide = new QSplitter(Qt::Horizontal);
    sideBySide->addWidget(m_beforeView);
    sideBySide->addWidget(m_afterView);
    m_tabs = new QTabWidget;
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_diffView, tr("Diff flamegraph"));
    m_tabs->addTab(sideBySide, tr("Side by side (baseline | comparison)"));
    m_tabs->tabBar()->hide();
    auto *viewButtons = new QButtonGroup(this);
    auto *controls = new QHBoxLayout;
    const std::pair<QString, QString> views[] = {
        {tr("Diff"), tr("The diff flamegraph: one frame per call path, coloured by its change (Alt+1)")},
        {tr("Side by side"), tr("The baseline and the comparison side by side, on one scale, zoomed together "
                                "(Alt+2)")}};
    for (int i = 0; i < 2; ++i) {
        auto *b = new QToolButton;
        b->setText(views[i].first);
        b->setToolTip(views[i].second);
        b->setCheckable(true);
        b->setChecked(i == 0);
        b->setShortcut(QKeySequence(i == 0 ? tr("Alt+1") : tr("Alt+2")));
        viewButtons->addButton(b, i);
        controls->addWidget(b);
    }
    connect(viewButtons, &QButtonGroup::idClicked, m_tabs, &QTabWidget::setCurrentIndex);
    connect(m_tabs, &QTabWidget::currentChanged, this, [viewButtons](int i) {
        if (QAbstractButton *b = viewButtons->button(i))
            b->setChecked(true);
    });
    controls->addSpacing(8);
    controls->addWidget(m_normalization);
    controls->addWidget(m_factor);
    m_factor->hide();   // shown with "Custom factor" only
    controls->addWidget(m_noise);
    controls->addWidget(m_bySelf);
    controls->addWidget(m_width);
    controls->addWidget(m_scale);
    controls->addWidget(m_common);
    controls->addStretch(1);

    m_model = new DiffTableModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(DiffTableModel::SortRole);
    m_proxy->setFilterKeyColumn(DiffTableModel::Name);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_table = new QTableView;
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(DiffTableModel::DeltaCum, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    // No filter field of its own: the search bar's pattern filters the table too (runSearch), one row less.
    // The diff flamegraph is the main view; the diff table the first of the panes below it (DiffPane adds more).
    m_panes = new SecondaryPanes(QStringLiteral("diff"), m_tabs);
    m_panes->addSecondaryPane(m_table, tr("Diff table"));

    // The bar: the summary with the legend beside it, then the controls. The legend's two lines sit beside a
    // summary that wraps to two lines on a narrow screen, so the bar is two rows high either way.
    auto *summaryRow = new QHBoxLayout;
    summaryRow->addWidget(m_summary, 1);
    summaryRow->addWidget(m_perSecondButton);
    summaryRow->addWidget(m_legend);
    m_search = new SearchBar;
    m_layout = new QVBoxLayout(this);
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_layout->setSpacing(2);
    m_layout->addLayout(summaryRow);
    m_layout->addLayout(controls);
    m_layout->addWidget(m_search);
    connect(m_search, &SearchBar::changed, this, &DiffView::runSearch);
    connect(m_search, &SearchBar::stepRequested, this, [this](int direction) {
        FlameView *v = m_tabs->currentIndex() == 0 ? m_diffView : m_beforeView;
        v->graph()->selectNextMatch(direction);
    });
    m_layout->addWidget(m_panes, 1);

    auto reapply = [this] { apply(); };
    connect(m_normalization, &QComboBox::currentIndexChanged, this, [this] {
        const bool factor = Normalization(m_normalization->currentData().toInt()) == Normalization::Factor;
        m_factor->setEnabled(factor);
        m_factor->setVisible(factor);
        apply();
    });
    connect(m_factor, &QDoubleSpinBox::valueChanged, this, reapply);
    connect(m_noise, &QDoubleSpinBox::valueChanged, this, reapply);
    connect(m_bySelf, &QCheckBox::toggled, this, reapply);
    connect(m_width, &QComboBox::currentIndexChanged, this, reapply);
    connect(m_scale, &QDoubleSpinBox::valueChanged, this, reapply);
    connect(m_common, &QCheckBox::toggled, this, [this](bool on) {
        m_commonScale = on;
        applyCommonScale();
    });
    connect(m_perSecondButton, &QPushButton::clicked, this, [this] {
        m_normalization->setCurrentIndex(m_normalization->findData(int(Normalization::PerSecond)));
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex &i) {
        if (i.isValid() && m_shown)
            highlightFunction(m_shown->frames().label(FrameId(i.data(DiffTableModel::FrameRole).toUInt())));
    });
    connect(m_diffView->graph(), &FlameGraphWidget::zoomChanged, this, [this](NodeId n) { syncFrom(0, n); });
    connect(m_beforeView->graph(), &FlameGraphWidget::zoomChanged, this, [this](NodeId n) { syncFrom(1, n); });
    connect(m_afterView->graph(), &FlameGraphWidget::zoomChanged, this, [this](NodeId n) { syncFrom(2, n); });
    connect(m_diffView->graph(), &FlameGraphWidget::selectionChanged, this, [this](NodeId n) { syncSelection(0, n); });
    connect(m_beforeView->graph(), &FlameGraphWidget::selectionChanged, this, [this](NodeId n) { syncSelection(1, n); });
    connect(m_afterView->graph(), &FlameGraphWidget::selectionChanged, this, [this](NodeId n) { syncSelection(2, n); });
}

QList<QPair<QString, QString>> DiffView::keyBindings()
{
    // The shortcuts of the view buttons, set in the constructor.
    return {{tr("Alt+1"), tr("Comparison: the diff flamegraph")},
            {tr("Alt+2"), tr("Comparison: the two profiles side by side")}};
}

DiffOptions DiffView::options() const
{
    DiffOptions o;
    o.normalization = Normalization(m_normalization->currentData().toInt());
    o.factor = m_factor->value();
    o.noiseK = m_noise->value();
    return o;
}

void DiffView::setOptions(const DiffOptions &o)
{
    const QSignalBlocker b1(m_normalization), b2(m_factor), b3(m_noise);
    m_normalization->setCurrentIndex(m_normalization->findData(int(o.normalization)));
    m_factor->setEnabled(o.normalization == Normalization::Factor);
    m_factor->setVisible(o.normalization == Normalization::Factor);
    m_factor->setValue(o.factor);
    m_noise->setValue(o.noiseK);
    apply();
}

void DiffView::setWidthMode(DiffWidth width)
{
    m_width->setCurrentIndex(m_width->findData(int(width)));
}

void DiffView::setColoring(DiffColoring coloring)
{
    const QSignalBlocker b1(m_bySelf), b2(m_scale);
    m_bySelf->setChecked(coloring.bySelf);
    m_scale->setValue(coloring.scale);
    apply();
}

void DiffView::setCommonScale(bool on)
{
    m_common->setChecked(on);
}

void DiffView::setColorBlindSafe(bool on)
{
    for (FlameView *v : {m_diffView, m_beforeView, m_afterView})
        v->graph()->setColorBlindSafe(on);
    m_legend->set(m_source.get(), on);
}

void DiffView::setDiff(std::shared_ptr<const DiffTree> diff)
{
    m_diff = std::move(diff);
    {
        const QSignalBlocker b1(m_normalization), b2(m_factor), b3(m_noise);
        const DiffOptions &o = m_diff->options();
        m_normalization->setCurrentIndex(m_normalization->findData(int(o.normalization)));
        m_factor->setEnabled(o.normalization == Normalization::Factor);
        m_factor->setVisible(o.normalization == Normalization::Factor);
        m_factor->setValue(o.factor);
        m_noise->setValue(o.noiseK);
    }
    m_diffOfBefore.assign(m_diff->before().tree->size(), DiffTree::kAbsent);
    m_diffOfAfter.assign(m_diff->after().tree->size(), DiffTree::kAbsent);
    for (NodeId n = 0; n < m_diff->size(); ++n) {
        if (m_diff->inBefore(n))
            m_diffOfBefore[m_diff->beforeNode(n)] = n;
        if (m_diff->inAfter(n))
            m_diffOfAfter[m_diff->afterNode(n)] = n;
    }
    m_syncing = true;
    m_beforeView->setTree(m_diff->before().tree);
    m_afterView->setTree(m_diff->after().tree);
    m_syncing = false;
    applyNow();
}

std::function<DiffView::Applied()> DiffView::applyWork() const
{
    DiffColoring coloring;
    coloring.bySelf = m_bySelf->isChecked();
    coloring.scale = m_scale->value();
    return [diff = m_diff, options = options(), width = DiffWidth(m_width->currentData().toInt()), coloring,
            inlining = m_inlining, measured = m_measured]() -> Applied {
        Applied a;
        try {
            a.shown = diff->withOptions(options);
        } catch (const std::exception &e) {
            a.error = QString::fromUtf8(e.what());   // per-second without durations, and the like
            return a;
        }
        auto source = std::make_shared<DiffSource>(a.shown, width, coloring);
        if (inlining)   // by the frames of the tree shown: a rebuild for another granularity has other frames
            source->setCallMarks(callMarksOf(*a.shown, *inlining));
        a.source = std::move(source);
        a.table = DiffTable::compute(a.shown, measured);
        return a;
    };
}

void DiffView::apply()
{
    if (!m_diff)
        return;
    m_applyJob.start(applyWork(), [this](Applied a) { install(std::move(a)); });
}

void DiffView::applyNow()
{
    if (!m_diff)
        return;
    m_applyJob.drop();
    install(applyWork()());
}

void DiffView::install(Applied a)
{
    if (!a.error.isEmpty()) {
        // Say why and keep what is shown.
        m_summary->setText(tr("<b>Cannot apply this normalisation:</b> %1").arg(a.error.toHtmlEscaped()));
        Q_EMIT applied();
        return;
    }
    m_shown = std::move(a.shown);
    m_source = std::move(a.source);
    const QString legend = tr("Colours: green (blue when colour-blind safe), less cost in the comparison; red (orange), "
                              "more; grey, unchanged; hatched, "
                              "a change within the noise threshold; dashed outline, a frame on one side only");
    m_legend->setToolTip(m_source->hasCallMarks()
                             ? legend + tr(". Frames with a purple corner: the call from their parent changed "
                                           "inlining between the profiles (see the PGO panel's Inlining changes)")
                             : legend);
    m_syncing = true;
    m_diffView->setSource(m_source, true);
    m_syncing = false;
    m_model->setTable(std::move(a.table));
    sizeColumnsToText(m_table);
    m_legend->set(m_source.get(), m_diffView->graph()->colorBlindSafe());
    updateSummary();
    applyCommonScale();
    runSearch();
    Q_EMIT applied();
}

void DiffView::setInliningChanges(std::shared_ptr<const InliningChanges> changes)
{
    if (!changes && !m_inlining)
        return;   // no marks before nor after: a second apply() of a large diff for nothing
    m_inlining = std::move(changes);
    apply();
}

SearchBar *DiffView::takeSearchBar()
{
    m_layout->removeWidget(m_search);
    return m_search;
}

const DiffTable *DiffView::diffTable() const
{
    return m_model->table();
}

std::shared_ptr<const DiffTable> DiffView::sharedDiffTable() const
{
    return m_model->sharedTable();
}

QString DiffView::summaryText() const
{
    return m_summary->text();
}

void DiffView::updateSummary()
{
    const DiffTree &d = *m_shown;
    const DiffHeadline h = diffHeadline(d, m_measured.get());
    auto s = [](const std::string &text) { return QString::fromStdString(text).toHtmlEscaped(); };
    m_summary->setText(tr("<b>%1</b> → <b>%2</b> (%3, %4 of the baseline) · %5 · normalisation: %6 · %7")
                           .arg(s(h.beforeText), s(h.afterText), s(h.deltaText), s(h.changePercent), s(h.durations),
                                s(h.normalization), s(h.noise)));
    m_perSecondButton->setVisible(d.durationsDiffer() && d.options().normalization != Normalization::PerSecond);
    if (h.measured == DiffHeadline::Measured::None)
        return;
    QString measured;
    if (h.measured == DiffHeadline::Measured::OtherNormalization) {
        measured = tr("measured noise (%1) applies per second only: the table uses Poisson's")
                       .arg(s(h.measuredSource));
    } else {
        const double k = d.options().noiseK;
        const QString verdict = h.measured == DiffHeadline::Measured::NotTested ? tr("not tested")
                                : h.measured == DiffHeadline::Measured::Real    ? tr("beyond %1 SE: a real change").arg(k)
                                                                                : tr("within %1 SE: noise").arg(k);
        measured = tr("measured noise from %1: total change %2 ± %3, %4; the table's functions use their measured "
                      "errors, the flamegraph's frames Poisson's")
                       .arg(s(h.measuredSource), s(h.deltaText), s(h.measuredErrorText), verdict);
    }
    m_summary->setText(m_summary->text() + QStringLiteral("<br>") + measured);
}

void DiffView::setMeasuredNoise(std::shared_ptr<const MeasuredNoise> noise)
{
    m_measured = std::move(noise);
    if (m_shown)
        apply();
}

void DiffView::syncFrom(int side, NodeId node)
{
    if (m_syncing || !m_shown)
        return;
    m_syncing = true;
    // The diff node of the zoomed frame, then each side's node with the same path (or its nearest ancestor
    // that exists on that side).
    const NodeId d = side == 0 ? node : (side == 1 ? m_diffOfBefore[node] : m_diffOfAfter[node]);
    auto follow = [&](FlameView *view, bool before) {
        NodeId n = d;
        while (n != DiffTree::kRoot && (before ? !m_shown->inBefore(n) : !m_shown->inAfter(n)))
            n = m_shown->parent(n);
        const NodeId target = before ? m_shown->beforeNode(n) : m_shown->afterNode(n);
        view->graph()->showState(target, view->graph()->layout()->viewportOf(target));
    };
    if (d != DiffTree::kAbsent) {
        if (side != 0)
            m_diffView->graph()->showState(d, m_diffView->graph()->layout()->viewportOf(d));
        if (side != 1)
            follow(m_beforeView, true);
        if (side != 2)
            follow(m_afterView, false);
    }
    m_syncing = false;
    applyCommonScale();
}

NodeId DiffView::diffNodeOf(int side, NodeId node) const
{
    if (side == 0)
        return node;
    const std::vector<NodeId> &map = side == 1 ? m_diffOfBefore : m_diffOfAfter;
    return node < map.size() ? map[node] : DiffTree::kAbsent;
}

void DiffView::syncSelection(int side, NodeId node)
{
    if (m_syncing || !m_shown)
        return;
    m_syncing = true;
    // The same path in the other views, when it exists there; nothing selected otherwise.
    const NodeId d = node == DiffTree::kRoot ? DiffTree::kAbsent : diffNodeOf(side, node);
    auto select = [&](FlameView *view, int target) {
        int64_t n = -1;
        if (d != DiffTree::kAbsent) {
            if (target == 0)
                n = d;
            else if (target == 1 && m_shown->inBefore(d))
                n = m_shown->beforeNode(d);
            else if (target == 2 && m_shown->inAfter(d))
                n = m_shown->afterNode(d);
        }
        view->graph()->setSelectedNode(n);
    };
    if (side != 0)
        select(m_diffView, 0);
    if (side != 1)
        select(m_beforeView, 1);
    if (side != 2)
        select(m_afterView, 2);
    m_syncing = false;
}

void DiffView::applyCommonScale()
{
    FlameGraphWidget *b = m_beforeView->graph(), *a = m_afterView->graph();
    if (!b->layout() || !a->layout())
        return;
    const Viewport vb = b->layout()->viewportOf(b->zoomRoot()), va = a->layout()->viewportOf(a->zoomRoot());
    if (!m_commonScale) {
        b->showState(b->zoomRoot(), vb);
        a->showState(a->zoomRoot(), va);
        return;
    }
    // One absolute scale: both viewports as wide as the heavier side's, so the lighter frame is narrower.
    const double span = std::max(vb.span(), va.span());
    b->showState(b->zoomRoot(), {vb.begin, vb.begin + span});
    a->showState(a->zoomRoot(), {va.begin, va.begin + span});
}

void DiffView::runSearch()
{
    const QString pattern = m_search->pattern();
    QRegularExpression rx(pattern);
    if (m_search->caseSensitivity() == Qt::CaseInsensitive)
        rx.setPatternOptions(QRegularExpression::CaseInsensitiveOption);
    if (!pattern.isEmpty() && !rx.isValid()) {
        m_search->setResultText(tr("invalid pattern: %1").arg(rx.errorString()), true);
        return;
    }
    // Frames match by their label in each view's own frame table; an empty pattern clears the search.
    auto matches = [&](const FrameTable &frames) {
        std::vector<uint8_t> m;
        if (pattern.isEmpty())
            return m;
        m.assign(frames.size(), 0);
        for (FrameId f = 1; f < frames.size(); ++f)
            m[f] = rx.match(QString::fromStdString(frames.label(f))).hasMatch();
        return m;
    };
    if (!m_shown)
        return;
    const auto diffMatches = matches(m_shown->frames());
    m_diffView->graph()->setMatches(diffMatches);
    m_beforeView->graph()->setMatches(matches(m_shown->before().tree->frames()));
    m_afterView->graph()->setMatches(matches(m_shown->after().tree->frames()));
    m_proxy->setFilterRegularExpression(pattern.isEmpty() ? QRegularExpression() : rx);
    const int count = int(std::count(diffMatches.begin(), diffMatches.end(), 1));
    m_search->setResultText(pattern.isEmpty() ? QString() : tr("%n function(s) match", "", count), false);
}

void DiffView::highlightFunction(const std::string &label)
{
    auto frameIn = [&](const FrameTable &frames) -> std::optional<FrameId> {
        for (FrameId f = 1; f < frames.size(); ++f)
            if (frames.label(f) == label)
                return f;
        return std::nullopt;
    };
    m_diffView->graph()->setHighlightedFrame(frameIn(m_shown->frames()));
    m_beforeView->graph()->setHighlightedFrame(frameIn(m_shown->before().tree->frames()));
    m_afterView->graph()->setHighlightedFrame(frameIn(m_shown->after().tree->frames()));
}

}   // namespace qflame
