// The main window: one tab per open profile or comparison, menus that act on the current tab.
#pragma once

#include "diff/DiffTable.h"

#include "LoadJob.h"
#include "qryn/ServerRounds.h"

#include <QMainWindow>

#include <functional>
#include <memory>

class QComboBox;
class QMenu;
class QMessageBox;
class QStackedWidget;
class QTabWidget;
class QTableView;

namespace qflame::qryn {
class QrynExplorer;
}

namespace qflame {

class DiffPane;
class DiffView;
class DocumentPane;
class FlameGraphWidget;
class ProfilePane;
class RoundsPane;
class StartPage;

class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget *parent = nullptr);

    // Opens each file in a new tab, in the background. A file that fails shows its error and closes its tab;
    // the other tabs are untouched.
    void openFiles(const QStringList &paths);
    // Opens a comparison of `before` (baseline) with `after` in a new tab.
    void compareFiles(const QStringList &before, const QStringList &after);
    // Two rounds of a rounds tab: a comparison per second whose diff table uses the rounds' measured noise.
    void compareRounds(const QStringList &before, const QStringList &after,
                       std::shared_ptr<const MeasuredNoise> noise);
    // The same for two rounds of a server's windows: their merged trees, named by their rounds.
    void compareRoundTrees(const QString &beforeName, const std::vector<std::shared_ptr<const Profile>> &before,
                           const QString &afterName, const std::vector<std::shared_ptr<const Profile>> &after,
                           std::shared_ptr<const MeasuredNoise> noise);
    // Opens a rounds tab on these rounds (the first the baseline); an empty list opens the tab and asks for one.
    void openRounds(std::vector<RoundFiles> rounds, RoundsOptions options = {});
    // A rounds tab of a server's windows (the explorer's Rounds button).
    void openServerRounds(const qryn::ConnectionSettings &settings, const qryn::ServerRoundsQuery &query,
                          RoundsOptions options = {});
    // What the command line and drops mean: one file opens, two files compare.
    void openArguments(const QStringList &paths);
    // A new qryn explorer tab, not yet connected (QrynExplorer::start, connectDialog connect it); its Rounds
    // button opens rounds tabs here.
    qryn::QrynExplorer *openExplorer();
    // An explorer tab on the saved connection `name`, its secrets from the keychain and its last query loaded.
    void openSavedConnection(const QString &name);
    // Shown instead of the tabs while none is open.
    StartPage *startPage() const { return m_start; }

    // The first window without a remembered one: a share of the screen's available area (all of a small one,
    // maximized). showFirstTime() shows the window so, or as it was when last closed.
    struct FirstGeometry {
        QRect rect;
        bool maximized = false;
    };
    static FirstGeometry firstGeometry(const QRect &available);
    void showFirstTime();

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

    // What File > Export writes, from what the current tab shows: the whole tree (not only the zoomed part) of
    // its sample type and granularity, with its active filters; the diff table under the tab's normalisation.
    enum class ExportFormat { Pprof, Folded, TopCsv, DiffCsv, Png, Svg, Speedscope };
    bool canExport(ExportFormat format) const;
    // Writes the current tab as `format` to `path`, without asking, before returning (scripts and tests). A
    // failure shows a message box and leaves every tab as it was.
    bool exportTo(ExportFormat format, const QString &path);
    // The same as the menu does it: the bytes are made and written off the GUI thread (a large tree's pprof
    // takes seconds; a bottom-up tab first builds its top-down tree), then exported() or the message box.
    void exportInBackground(ExportFormat format, const QString &path);
    QAction *exportAction(ExportFormat format) const { return m_exportActions.value(int(format)); }

Q_SIGNALS:
    void loadFinished(bool ok);
    void exported(const QString &path);   // a file written by exportTo or exportInBackground

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createActions();
    void addPane(DocumentPane *pane, const QString &title);
    // Reads every tab's files again: the names' demangling and collapsing are steps of reading.
    void reopenAll();
    // A non-modal message box (returned, for its buttons), the status bar and lastError() say it.
    QMessageBox *showError(const QString &message, const QString &title = QString());
    // A new tab's read refused by the size cap: the message, and a button that opens the failed tab's files again
    // in a new tab under a larger cap, kept for later reads as `--max-size` would.
    void showSizeCapError(const QString &message, const DocumentPane *failed);
    ProfilePane *exportPane() const;        // the current profile tab's pane, or the qryn explorer's
    DiffView *exportDiffView() const;       // the current comparison's, or the qryn explorer's when it shows one
    FlameGraphWidget *exportGraph() const;  // the graph of one of those
    void exportDialog(ExportFormat format);
    bool exportFiltered(ExportFormat format) const;   // the tab's filters shape what is written
    QString writePicture(ExportFormat format, const QString &path);   // PNG or SVG; the error or empty
    // The bytes of a stack or table export written to `path` (the error or empty), from the tab's immutable model
    // results only: it runs on any thread.
    std::function<QString()> exportWork(ExportFormat format, const QString &path) const;
    bool exportDone(const QString &path, const QString &error, bool filtered);
    void updateExportActions();
    void openDialog();
    void compareDialog();
    void updateTitle();
    void remember(const QString &entry);
    void fillRecentMenu();
    void restoreSettings();
    void savePaneState(QWidget *tab) const;   // a profile or comparison tab's panes, for the next of its kind
    void updateStartPage();   // the start page's lists, and whether it or the tabs show
    void frameMenu(FlameGraphWidget *graph, quint32 node, QPoint globalPos);
    void forEachGraph(const std::function<void(FlameGraphWidget *)> &f);   // every tab's flamegraphs

    QTabWidget *m_tabs;
    StartPage *m_start;
    QStackedWidget *m_central;
    QMenu *m_recentMenu = nullptr;
    QAction *m_icicleAction = nullptr;
    QAction *m_colorBlindAction = nullptr;
    QList<QAction *> m_schemeActions;
    QList<QAction *> m_exportActions;   // indexed by ExportFormat
    QString m_lastError;
    bool m_restoredGeometry = false;
    bool m_icicle = false;
    bool m_colorBlind = false;
    int m_scheme = 0;
};

}   // namespace qflame
