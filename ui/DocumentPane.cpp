#include "DocumentPane.h"

#include "DiffView.h"
#include "FlameGraphWidget.h"
#include "FlameView.h"
#include "FrameDetails.h"
#include "TopTableModel.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace qflame {

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
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(TopTableModel::SortRole);
    m_proxy->setFilterKeyColumn(TopTableModel::Name);
    m_table = new QTableView;
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(TopTableModel::Flat, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);

    auto *top = new QSplitter(Qt::Horizontal);
    top->addWidget(m_flameView);
    top->addWidget(m_details);
    top->setStretchFactor(0, 4);
    top->setStretchFactor(1, 1);
    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(top);
    split->addWidget(m_table);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(header());
    layout->addWidget(split, 1);

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

void ProfilePane::open(const QStringList &paths)
{
    m_paths = paths;
    run<LoadedView>(loadFilesAsync(paths, -1, Granularity(granularityBox()->currentData().toInt())),
                    [this](LoadedView v) { show(std::move(v)); });
}

void ProfilePane::rebuild()
{
    run<LoadedView>(rebuildAsync(m_view.profiles, sampleTypeBox()->currentIndex(),
                                 Granularity(granularityBox()->currentData().toInt())),
                    [this](LoadedView v) { show(std::move(v)); });
}

QString ProfilePane::title() const
{
    QStringList names;
    for (const QString &p : m_paths)
        names << QFileInfo(p).fileName();
    return names.join(QLatin1String(" + "));
}

void ProfilePane::show(LoadedView view)
{
    m_view = std::move(view);
    fillSampleTypes(*m_view.profiles.front(), m_view.sampleType, m_view.granularity);
    m_flameView->setTree(m_view.tree);
    m_model->setTable(m_view.flat);
    m_table->resizeColumnsToContents();
    m_details->showNode(nullptr, {}, -1);
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
                                  m_diffView->options()),
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
