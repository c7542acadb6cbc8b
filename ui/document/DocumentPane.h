// One tab of the window: a profile (flamegraph, top table, details) or a comparison (DiffView), with its own
// sample type and granularity, and its own background job with progress and cancel.
#pragma once

#include "LoadJob.h"

#include <QFutureWatcher>
#include <QWidget>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableView;
class QHBoxLayout;
class QSplitter;
class QTabWidget;

namespace qflame {

class DiffView;
class FilterBar;
class FlameGraphWidget;
class SandwichView;
class SearchBar;
class FlameView;
class FrameDetails;
class PgoPanel;
class SourceView;
class TopTableModel;
class UrlFetches;

// A call tree as export bytes: gzip pprof (one sample type, the tree's nodes and values) or folded stacks.
std::string treeExportBytes(const CallTree &tree, bool pprof);
// Writes `bytes` to `path` whole, through a temporary file, so that a failed write leaves no half file behind;
// returns "" or the error, naming the path.
QString writeExportFile(const QString &path, const std::string &bytes);

class DocumentPane : public QWidget {
    Q_OBJECT

public:
    explicit DocumentPane(QWidget *parent = nullptr);
    ~DocumentPane() override;

    virtual QString title() const = 0;
    bool isLoading() const { return m_watcherActive || m_fetches; }
    bool hasContent() const { return m_hasContent; }
    QString lastError() const { return m_lastError; }
    QComboBox *sampleTypeBox() const { return m_sampleTypes; }
    QComboBox *granularityBox() const { return m_granularity; }
    // What the header says beside the progress: a URL's countdown while it is fetched, or that it was cancelled.
    QLabel *statusLabel() const { return m_status; }
    void cancel();
    // How the files read from now on show mangled names (View > Demangle; simple, as the CLI's default).
    static void setDemangleMode(DemangleMode mode);
    static DemangleMode demangleMode();
    // Whether the files read from now on have their names' template arguments collapsed to "<>" (View > Collapse
    // Template Arguments; off, as in the CLI).
    static void setCollapseTemplates(bool on);
    static bool collapseTemplates();
    // Whether profile tabs opened from now on show their tree bottom-up (`qflame --inverted FILE`); off by default.
    static void setOpenInverted(bool on);
    // Reads the pane's files again (with the names now chosen); a pane that shows no files does nothing.
    virtual void reopen() {}
    // Starts reading and building what `qflame FILE` (one file) or `qflame BASE NEW` (two) opens before there is
    // a window, even before the application object: the start of Qt and of the window then overlaps the work.
    // The pane that opens the same files with the same settings takes the job over; any other open cancels it.
    static void startEarly(const QStringList &files);
    // Whether such a job waits for its pane, and whether it has ended (for the tests).
    enum class EarlyJobState { None, Running, Ended };
    static EarlyJobState earlyJobState();

Q_SIGNALS:
    // A job ended: ok, or the one-line error. A failed job leaves what the pane showed untouched.
    void loadFinished(bool ok, const QString &error);

protected:
    // Runs a job; a newer job supersedes a running one, whose result is dropped (generation counter). The job's
    // last result is its result; `onEarlier`, when given, sees an earlier result 0 while the job still runs (a
    // large tree's first look, LoadJob.h).
    template <typename T>
    void run(QFuture<T> future, std::function<void(T)> onResult, std::function<void(T)> onEarlier = {});
    // A running job was cancelled or superseded before its result.
    virtual void jobDropped() {}
    void fillSampleTypes(const Profile &profile, int current, Granularity granularity);
    // Before a job that reads `paths`: fetches the http(s) URLs among them first (document/UrlFetches: the
    // countdown of a CPU profile in the header, Cancel stops it and the header says so), then calls `then`. With
    // `reuseFetched` (the same files read again), bytes fetched before are read instead of asking again. A failed
    // fetch ends as a failed job does: loadFinished(false, its line), what the pane showed untouched.
    void fetchThen(const QStringList &paths, bool reuseFetched, std::function<void()> then);
    virtual void rebuild() = 0;
    QHBoxLayout *header() const { return m_header; }
    void setHasContent() { m_hasContent = true; }
    bool m_updatingControls = false;

private:
    void jobEnded();
    void startedJob();
    void setProgress(int value);
    void userCancel();

    QHBoxLayout *m_header;
    QComboBox *m_sampleTypes;
    QComboBox *m_granularity;
    QProgressBar *m_progress;
    QPushButton *m_cancel;
    QLabel *m_status;
    UrlFetches *m_fetches = nullptr;
    QObject *m_watcher = nullptr;
    bool m_watcherActive = false;
    bool m_hasContent = false;
    quint64 m_generation = 0;
    QString m_lastError;
};

template <typename T>
void DocumentPane::run(QFuture<T> future, std::function<void(T)> onResult, std::function<void(T)> onEarlier)
{
    cancel();
    const quint64 generation = ++m_generation;
    auto *watcher = new QFutureWatcher<T>(this);
    m_watcher = watcher;
    m_watcherActive = true;
    connect(watcher, &QFutureWatcherBase::progressValueChanged, this, [this](int v) { setProgress(v); });
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, onResult] {
        watcher->deleteLater();
        if (generation != m_generation)
            return;   // stale: a newer job replaced this one
        m_watcher = nullptr;
        jobEnded();
        const int results = watcher->future().resultCount();
        if (results == 0 || watcher->future().isCanceled()) {
            jobDropped();
            Q_EMIT loadFinished(false, tr("cancelled"));
            return;
        }
        T result = watcher->future().resultAt(results - 1);
        if (!result.error.isEmpty()) {
            jobDropped();   // what an earlier result of this job showed goes too
            m_lastError = result.error;
            Q_EMIT loadFinished(false, result.error);
            return;
        }
        m_lastError.clear();
        onResult(std::move(result));
        m_hasContent = true;
        Q_EMIT loadFinished(true, QString());
    });
    if (onEarlier) {
        connect(watcher, &QFutureWatcherBase::resultReadyAt, this, [this, watcher, generation, onEarlier](int index) {
            // Not when the job has ended meanwhile: its last result is shown at once instead.
            if (generation == m_generation && index == 0 && !watcher->future().isFinished())
                onEarlier(watcher->future().resultAt(0));
        });
    }
    watcher->setFuture(future);
    startedJob();
}

class ProfilePane : public DocumentPane {
    Q_OBJECT

public:
    explicit ProfilePane(QWidget *parent = nullptr);
    void open(const QStringList &paths);
    void reopen() override { open(m_paths, true); }
    QString title() const override;

    const LoadedView &view() const { return m_view; }
    FlameView *flameView() const { return m_flameView; }
    FlameGraphWidget *flameGraph() const;
    QTableView *topTable() const { return m_table; }
    FrameDetails *details() const { return m_details; }
    SearchBar *searchBar() const { return m_search; }
    FilterBar *filterBar() const { return m_filters; }
    SandwichView *sandwichView() const { return m_sandwich; }
    QTabWidget *views() const { return m_views; }
    // Below the flamegraph: the top table and the PGO panel, as tabs.
    QTabWidget *lowerTabs() const { return m_lower; }
    PgoPanel *pgoPanel() const { return m_pgo; }
    SourceView *sourceView() const { return m_source; }
    // Shows the PGO panel (the edges are computed when the profiles arrive, so it is ready).
    void showPgo();
    // Lists the source lines of the function of `node` in the Source view.
    void showSource(NodeId node);
    // Shows the sandwich of a frame of the current tree.
    void showSandwich(FrameId frame);
    // Writes the subtree of `node` (with its path) as gzip pprof or folded stacks; asks for a file when `path`
    // is empty. A failure is reported through loadFinished(false, message).
    bool exportSubtree(NodeId node, bool pprof, const QString &path = QString());
    // Shows a view built elsewhere (a server's merged flamegraph: the qryn explorer); sample type and filter
    // changes rebuild from its profiles as for a file.
    void showLoaded(LoadedView view);

protected:
    void rebuild() override;
    void jobDropped() override;

private:
    void open(const QStringList &paths, bool reuseFetched);
    void showView(LoadedView view);
    // A large tree's first look (LoadJob.h): the flamegraph only, until the whole view replaces it.
    void showFirstLook(LoadedView look);
    void dropFirstLook();
    std::shared_ptr<const CallTree> m_firstLook;
    void runSearch();
    void highlightEdge(const std::string &caller, const std::string &callee);
    // Hands the view's profiles to the PGO panel once it is shown: the edge walk reads every sample and its table
    // can hold 100,000 edges, work a user who never opens the panel should not wait behind (a server's large
    // flamegraph in the explorer stalled the GUI thread past 100 ms with it).
    void updatePgo();
    bool m_pgoStale = false;
    uint64_t m_pgoBytes = 0;
    void frameMenu(NodeId node, QPoint globalPos);
    LoadedView m_view;
    SearchBar *m_search;
    FilterBar *m_filters;
    SandwichView *m_sandwich;
    QTabWidget *m_views;
    QStringList m_paths;
    FlameView *m_flameView;
    FrameDetails *m_details;
    TopTableModel *m_model;
    QTableView *m_table;
    QTabWidget *m_lower;
    PgoPanel *m_pgo;
    SourceView *m_source;
    QSplitter *m_split;
};

class DiffPane : public DocumentPane {
    Q_OBJECT

public:
    explicit DiffPane(QWidget *parent = nullptr);
    void open(const QStringList &before, const QStringList &after) { open(before, after, false); }
    // A comparison of profiles already read (a server's rounds: each window's merged tree), named for the title;
    // its diff is built off the GUI thread as a file comparison's is.
    void openProfiles(const QString &beforeName, std::vector<std::shared_ptr<const Profile>> before,
                      const QString &afterName, std::vector<std::shared_ptr<const Profile>> after);
    // Files are read again; profiles that came without files keep their names as they were read.
    void reopen() override;
    QString title() const override;
    DiffView *diffView() const { return m_diffView; }
    const LoadedDiff &loaded() const { return m_loaded; }
    // The PGO panel of the comparison's new side, with the inlining changes from the baseline.
    PgoPanel *pgoPanel() const { return m_pgo; }
    SourceView *sourceView() const { return m_source; }
    // Lists the source lines of the function of a diff flamegraph node, before and after.
    void showSource(NodeId node);
    // Label values as frames and bottom-up (tagRoot, tagLeaf, inverted; View > Group by Label..., View >
    // Bottom-up): the comparison is built again with them.
    void setFrames(const SampleFilters &frames);
    const SampleFilters &frames() const { return m_frames; }

protected:
    void rebuild() override;

private:
    void open(const QStringList &before, const QStringList &after, bool reuseFetched);
    void showDiff(LoadedDiff d);
    void diffFrameMenu(NodeId node, QPoint globalPos);
    LoadedDiff m_loaded;
    QStringList m_before, m_after;
    QString m_beforeName, m_afterName;   // openProfiles' names, when there are no files
    SampleFilters m_frames;
    DiffView *m_diffView;
    PgoPanel *m_pgo;
    SourceView *m_source;
};

}   // namespace qflame
