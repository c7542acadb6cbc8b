// The main window: a flamegraph above a top table, a sample-type selector, loading with progress and cancel.
#pragma once

#include "LoadJob.h"

#include <QFutureWatcher>
#include <QMainWindow>

#include <memory>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QAction;

namespace qflame {

class FlameGraphWidget;
class FlameView;
class FrameDetails;
class TopTableModel;

class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // Opens files in the background (several are merged). What is open stays until the new load succeeds.
    void openFiles(const QStringList &paths);
    bool isLoading() const;
    QString lastError() const { return m_lastError; }
    const LoadedView &view() const { return m_view; }

    FlameGraphWidget *flameGraph() const { return m_flame; }
    FlameView *flameView() const { return m_flameView; }
    FrameDetails *detailsPanel() const { return m_detailsPanel; }
    QTableView *topTable() const { return m_table; }
    QComboBox *sampleTypeBox() const { return m_sampleTypes; }

Q_SIGNALS:
    void loadFinished(bool ok);

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createActions();
    void start(QFuture<LoadedView> future, const QString &what);
    void finished(QFuture<LoadedView> future, quint64 generation);
    void showView(LoadedView view);
    void showError(const QString &message);
    void rebuild();
    void cancel();
    void updateZoomInfo();
    void openDialog();
    void exportImage(bool svg);
    void frameMenu(NodeId node, QPoint globalPos);

    FlameView *m_flameView = nullptr;
    FlameGraphWidget *m_flame = nullptr;
    FrameDetails *m_detailsPanel = nullptr;
    QTableView *m_table = nullptr;
    TopTableModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QComboBox *m_sampleTypes = nullptr;
    QComboBox *m_granularity = nullptr;
    QLabel *m_details = nullptr;
    QLabel *m_zoomInfo = nullptr;
    QProgressBar *m_progress = nullptr;
    QPushButton *m_cancel = nullptr;
    QAction *m_backAction = nullptr;
    QAction *m_resetAction = nullptr;

    LoadedView m_view;
    QString m_lastError;
    quint64 m_generation = 0;
    QFutureWatcher<LoadedView> *m_watcher = nullptr;
    bool m_updatingControls = false;
};

}   // namespace qflame
