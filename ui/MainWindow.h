// The main window: one tab per open profile or comparison, menus that act on the current tab.
#pragma once

#include "LoadJob.h"

#include <QMainWindow>

class QComboBox;
class QMenu;
class QTabWidget;
class QTableView;

namespace qflame {

class DiffPane;
class DocumentPane;
class FlameGraphWidget;
class ProfilePane;

class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget *parent = nullptr);

    // Opens each file in a new tab, in the background. A file that fails shows its error and closes its tab;
    // the other tabs are untouched.
    void openFiles(const QStringList &paths);
    // Opens a comparison of `before` (baseline) with `after` in a new tab.
    void compareFiles(const QStringList &before, const QStringList &after);
    // What the command line and drops mean: one file opens, two files compare.
    void openArguments(const QStringList &paths);

    bool isLoading() const;
    // Most recent first, at most 10: files opened and comparisons (as "BASE\nNEW"), kept in QSettings.
    QStringList recentFiles() const;
    QString lastError() const { return m_lastError; }
    QTabWidget *tabs() const { return m_tabs; }

    // The current tab, when it is a profile (nullptr otherwise), and its parts.
    ProfilePane *currentProfile() const;
    DiffPane *currentDiff() const;
    FlameGraphWidget *flameGraph() const;   // the current profile's, or the current comparison's diff graph
    QTableView *topTable() const;
    QComboBox *sampleTypeBox() const;
    const LoadedView &view() const;

Q_SIGNALS:
    void loadFinished(bool ok);

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createActions();
    void addPane(DocumentPane *pane, const QString &title);
    void showError(const QString &message);
    void exportImage(bool svg);
    void openDialog();
    void compareDialog();
    void updateTitle();
    void remember(const QString &entry);
    void fillRecentMenu();
    void restoreSettings();
    void frameMenu(FlameGraphWidget *graph, quint32 node, QPoint globalPos);
    template <typename F>
    void forEachGraph(F f);

    QTabWidget *m_tabs;
    QMenu *m_recentMenu = nullptr;
    QAction *m_icicleAction = nullptr;
    QAction *m_colorBlindAction = nullptr;
    QList<QAction *> m_schemeActions;
    QString m_lastError;
    bool m_icicle = false;
    bool m_colorBlind = false;
    int m_scheme = 0;
};

}   // namespace qflame
