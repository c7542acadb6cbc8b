#include "MainWindow.h"

#include "FlameGraphWidget.h"
#include "FlameView.h"
#include "FrameDetails.h"
#include "TopTableModel.h"
#include "Units.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QActionGroup>
#include <QClipboard>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStatusBar>
#include <QTableView>
#include <QToolBar>

namespace qflame {

MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent)
{
    setWindowTitle(tr("qflame"));
    setAcceptDrops(true);

    m_flameView = new FlameView;
    m_flame = m_flameView->graph();

    m_model = new TopTableModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(TopTableModel::SortRole);
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

    auto *splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(m_flameView);
    splitter->addWidget(m_table);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    setCentralWidget(splitter);

    m_details = new QLabel;
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_progress = new QProgressBar;
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(200);
    m_progress->hide();
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->hide();
    statusBar()->addWidget(m_details, 1);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);
    connect(m_cancel, &QPushButton::clicked, this, &MainWindow::cancel);

    m_detailsPanel = new FrameDetails;
    auto *dock = new QDockWidget(tr("Frame details"));
    dock->setObjectName(QStringLiteral("detailsDock"));
    dock->setWidget(m_detailsPanel);
    addDockWidget(Qt::RightDockWidgetArea, dock);

    createActions();

    connect(m_flame, &FlameGraphWidget::hovered, this, [this](NodeId n) {
        if (n == CallTree::kRoot || !m_flame->tree())
            m_details->clear();
        else
            m_details->setText(m_flame->describe(n).replace(QLatin1Char('\n'), QLatin1String("  |  ")));
        // The panel shows the hovered frame, and falls back to the selected one.
        const int64_t shown = n != CallTree::kRoot ? int64_t(n) : m_flame->selectedNode();
        m_detailsPanel->showNode(m_view.tree.get(), m_flame->viewport(), shown);
    });
    connect(m_flame, &FlameGraphWidget::selectionChanged, this, [this](NodeId n) {
        m_detailsPanel->showNode(m_view.tree.get(), m_flame->viewport(), n == CallTree::kRoot ? -1 : int64_t(n));
    });
    connect(m_flame, &FlameGraphWidget::contextMenuRequested, this, &MainWindow::frameMenu);
    connect(m_flame, &FlameGraphWidget::zoomChanged, this, &MainWindow::updateZoomInfo);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (!current.isValid())
                    m_flame->setHighlightedFrame(std::nullopt);
                else
                    m_flame->setHighlightedFrame(FrameId(current.data(TopTableModel::FrameRole).toUInt()));
            });
}

MainWindow::~MainWindow()
{
    cancel();
}

void MainWindow::createActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *open = file->addAction(tr("&Open..."), this, &MainWindow::openDialog);
    open->setShortcut(QKeySequence::Open);
    QMenu *exportMenu = file->addMenu(tr("&Export View"));
    exportMenu->addAction(tr("As &PNG..."), this, [this] { exportImage(false); });
    exportMenu->addAction(tr("As &SVG..."), this, [this] { exportImage(true); });
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    m_backAction = view->addAction(tr("&Back"), m_flame, &FlameGraphWidget::back);
    m_backAction->setShortcut(QKeySequence::Back);
    m_resetAction = view->addAction(tr("&Reset Zoom"), m_flame, &FlameGraphWidget::resetZoom);
    m_resetAction->setShortcut(Qt::Key_Escape);
    m_resetAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    QAction *forwardAction = view->addAction(tr("&Forward"), m_flame, &FlameGraphWidget::forward);
    forwardAction->setShortcut(QKeySequence::Forward);
    view->addAction(tr("Zoom &In"), this, [this] { m_flame->zoomViewport(1 / 1.5); });
    view->addAction(tr("Zoom &Out"), this, [this] { m_flame->zoomViewport(1.5); });
    view->addSeparator();
    QAction *icicle = view->addAction(tr("&Icicle (Root at the Top)"));
    icicle->setCheckable(true);
    connect(icicle, &QAction::toggled, this, [this](bool on) {
        m_flame->setOrientation(on ? FlameGraphWidget::Orientation::Icicle : FlameGraphWidget::Orientation::Flame);
    });
    QMenu *colors = view->addMenu(tr("&Colours"));
    auto *schemes = new QActionGroup(this);
    const std::pair<QString, ColorScheme> schemeItems[] = {{tr("By &Package"), ColorScheme::Package},
                                                          {tr("By &Mapping (Library)"), ColorScheme::Mapping},
                                                          {tr("By &Self Heat"), ColorScheme::SelfHeat}};
    for (const auto &[label, scheme] : schemeItems) {
        QAction *a = colors->addAction(label);
        a->setCheckable(true);
        a->setChecked(scheme == ColorScheme::Package);
        schemes->addAction(a);
        connect(a, &QAction::triggered, this, [this, scheme = scheme] { m_flame->setColorScheme(scheme); });
    }
    colors->addSeparator();
    QAction *safe = colors->addAction(tr("Colour-&Blind Safe"));
    safe->setCheckable(true);
    connect(safe, &QAction::toggled, m_flame, &FlameGraphWidget::setColorBlindSafe);

    QToolBar *bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->addAction(open);
    bar->addAction(m_backAction);
    bar->addAction(m_resetAction);
    bar->addSeparator();
    bar->addWidget(new QLabel(tr(" Sample type: ")));
    m_sampleTypes = new QComboBox;
    m_sampleTypes->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    bar->addWidget(m_sampleTypes);
    bar->addWidget(new QLabel(tr("  Granularity: ")));
    m_granularity = new QComboBox;
    m_granularity->addItem(tr("Functions"), int(Granularity::Functions));
    m_granularity->addItem(tr("Lines"), int(Granularity::Lines));
    m_granularity->addItem(tr("Addresses"), int(Granularity::Addresses));
    bar->addWidget(m_granularity);
    bar->addSeparator();
    m_zoomInfo = new QLabel;
    bar->addWidget(m_zoomInfo);
    connect(m_sampleTypes, &QComboBox::currentIndexChanged, this, &MainWindow::rebuild);
    connect(m_granularity, &QComboBox::currentIndexChanged, this, &MainWindow::rebuild);
    updateZoomInfo();
}

void MainWindow::openDialog()
{
    const QStringList files = QFileDialog::getOpenFileNames(
        this, tr("Open Profile"), QString(),
        tr("pprof profiles (*.pb.gz *.pprof *.prof *.pb *.pb.zst *.gz);;All files (*)"));
    if (!files.isEmpty())
        openFiles(files);
}

void MainWindow::openFiles(const QStringList &paths)
{
    if (paths.isEmpty())
        return;
    QStringList names;
    for (const QString &p : paths)
        names << QFileInfo(p).fileName();
    start(loadFilesAsync(paths, -1, Granularity(m_granularity->currentData().toInt())),
          tr("Loading %1").arg(names.join(QLatin1String(" + "))));
}

void MainWindow::rebuild()
{
    if (m_updatingControls || m_view.profiles.empty())
        return;
    start(rebuildAsync(m_view.profiles, m_sampleTypes->currentIndex(),
                       Granularity(m_granularity->currentData().toInt())),
          tr("Building %1").arg(m_sampleTypes->currentText()));
}

bool MainWindow::isLoading() const
{
    return m_watcher != nullptr;
}

void MainWindow::start(QFuture<LoadedView> future, const QString &what)
{
    cancel();   // a newer request supersedes a running one
    const quint64 generation = ++m_generation;
    m_watcher = new QFutureWatcher<LoadedView>(this);
    connect(m_watcher, &QFutureWatcherBase::progressValueChanged, m_progress, &QProgressBar::setValue);
    connect(m_watcher, &QFutureWatcherBase::finished, this, [this, future, generation] { finished(future, generation); });
    m_watcher->setFuture(future);
    m_progress->setValue(0);
    m_progress->show();
    m_cancel->show();
    statusBar()->showMessage(what);
}

void MainWindow::cancel()
{
    if (!m_watcher)
        return;
    m_watcher->disconnect(this);
    m_watcher->cancel();
    m_watcher->deleteLater();   // the worker stops at its next progress check; its result is dropped
    m_watcher = nullptr;
    ++m_generation;
    m_progress->hide();
    m_cancel->hide();
    statusBar()->clearMessage();
}

void MainWindow::finished(QFuture<LoadedView> future, quint64 generation)
{
    if (generation != m_generation)
        return;   // stale: a newer job replaced this one
    m_watcher->deleteLater();
    m_watcher = nullptr;
    m_progress->hide();
    m_cancel->hide();
    statusBar()->clearMessage();
    if (future.resultCount() == 0) {
        Q_EMIT loadFinished(false);
        return;
    }
    LoadedView view = future.result();
    if (!view.error.isEmpty()) {
        showError(view.error);
        Q_EMIT loadFinished(false);
        return;
    }
    showView(std::move(view));
    Q_EMIT loadFinished(true);
}

void MainWindow::showError(const QString &message)
{
    m_lastError = message;
    // Non-modal, so that a failed load never blocks what is already open.
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Cannot open profile"), message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    statusBar()->showMessage(message, 15000);
}

void MainWindow::showView(LoadedView view)
{
    m_lastError.clear();
    m_view = std::move(view);
    const Profile &first = *m_view.profiles.front();
    m_updatingControls = true;
    m_sampleTypes->clear();
    for (size_t i = 0; i < first.sampleTypes.size(); ++i) {
        QString text = QString::fromStdString(first.typeName(i) + "/" + first.unitName(i));
        if (int(i) == first.effectiveDefaultType())
            text += tr(" (default)");
        m_sampleTypes->addItem(text);
    }
    m_sampleTypes->setCurrentIndex(m_view.sampleType);
    m_granularity->setCurrentIndex(m_granularity->findData(int(m_view.granularity)));
    m_updatingControls = false;

    m_flameView->setTree(m_view.tree);
    m_model->setTable(m_view.flat);
    m_table->resizeColumnsToContents();
    m_detailsPanel->showNode(nullptr, {}, -1);
    QStringList names;
    for (const auto &p : m_view.profiles)
        names << QFileInfo(QString::fromStdString(p->sourceName)).fileName();
    setWindowTitle(tr("%1 — %2 — qflame").arg(names.join(QLatin1String(" + ")), m_sampleTypes->currentText()));
    updateZoomInfo();
}

void MainWindow::exportImage(bool svg)
{
    if (!m_flame->tree())
        return;
    const QString path = QFileDialog::getSaveFileName(this, svg ? tr("Export SVG") : tr("Export PNG"), QString(),
                                                      svg ? tr("SVG images (*.svg)") : tr("PNG images (*.png)"));
    if (path.isEmpty())
        return;
    const int width = std::max(m_flame->width(), 1200);
    const bool ok = svg ? m_flame->writeSvg(path, width) : m_flame->renderImage(width).save(path, "PNG");
    if (!ok)
        showError(tr("Cannot write %1").arg(path));
    else
        statusBar()->showMessage(tr("Wrote %1").arg(path), 5000);
}

void MainWindow::frameMenu(NodeId node, QPoint globalPos)
{
    const CallTree *t = m_flame->tree();
    if (!t)
        return;
    QMenu menu(this);
    menu.addAction(tr("&Zoom Into Frame"), this, [this, node] { m_flame->zoomTo(node); });
    menu.addAction(tr("&Copy Name"), this, [t, node] {
        QGuiApplication::clipboard()->setText(QString::fromStdString(t->label(node)));
    });
    menu.exec(globalPos);
}

void MainWindow::updateZoomInfo()
{
    const CallTree *t = m_flame->tree();
    m_backAction->setEnabled(m_flame->canGoBack());
    m_resetAction->setEnabled(t && m_flame->zoomRoot() != CallTree::kRoot);
    if (!t) {
        m_zoomInfo->clear();
        return;
    }
    const NodeId z = m_flame->zoomRoot();
    const std::string &unit = t->sampleType().unit;
    QString text = tr("Total %1").arg(QString::fromStdString(formatValue(double(t->total(CallTree::kRoot)), unit)));
    if (z != CallTree::kRoot)
        text += tr("  |  zoomed into %1: %2 (%3)")
                    .arg(QString::fromStdString(t->label(z)),
                         QString::fromStdString(formatValue(double(t->total(z)), unit)),
                         QString::fromStdString(formatPercent(double(t->total(z)), double(t->total(CallTree::kRoot)))));
    m_zoomInfo->setText(text);
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
        openFiles(files);
    }
}

}   // namespace qflame
