// One tab of the window: a profile (flamegraph, top table, details) or a comparison (DiffView), with its own
// sample type and granularity, and its own background job with progress and cancel.
#pragma once

#include "LoadJob.h"
#include "controls/LatestJob.h"
#include "names/NameOptions.h"

#include <QList>
#include <QPointer>
#include <QWidget>

#include <cstdint>

#include <memory>

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

// export/StackExport's writeExportFile for the window: "" or the error line, naming the path.
QString writeExportFileOrError(const QString &path, const std::string &bytes);

class DocumentPane : public QWidget {
    Q_OBJECT

public:
    explicit DocumentPane(QWidget *parent = nullptr);
    ~DocumentPane() override;

    virtual QString title() const = 0;
    bool isLoading() const { return (m_job && m_job->running()) || m_fetches; }
    bool hasContent() const { return m_hasContent; }
    QString lastError() const { return m_lastError; }
    QComboBox *sampleTypeBox() const { return m_sampleTypes; }
    QComboBox *granularityBox() const { return m_granularity; }
    // What the header says beside the progress: a URL's countdown while it is fetched, or that it was cancelled.
    QLabel *statusLabel() const { return m_status; }
    void cancel();
    // How the files read from now on show names (View > Demangle, View > Collapse Template Arguments; the CLI's
    // defaults until changed). Process-wide: every tab reads as the menu says.
    static void setNameOptions(const NameOptions &names);
    static NameOptions nameOptions();
    // Whether profile tabs opened from now on show their tree bottom-up (`qflame --inverted FILE`); off by default.
    static void setOpenInverted(bool on);
    static bool openInverted();
    // The size in bytes above which every file, download and round the window reads is refused (inflated size;
    // `qflame --max-size MIB FILE`), process-wide; ReadOptions' 1 GiB by default.
    static void setMaxReadBytes(uint64_t bytes);
    static uint64_t maxReadBytes();
    // How the window's tabs read files now (View > Demangle, Collapse Template Arguments, the size cap).
    static ReadOptions readOptions();
    // Reads the pane's files again (with the names now chosen); a pane that shows no files does nothing.
    virtual void reopen() {}
    // Starts reading and building what `qflame FILE` (one file) or `qflame BASE NEW` (two) opens before there is
    // a window, even before the application object: the start of Qt and of the window then overlaps the work.
    // The pane that opens the same files with the same settings takes the job over; any other open cancels it.
    static void startEarly(const QStringList &files);
    // The same for a job started elsewhere: by `qflame`, before it loaded the window (app/WindowHandoff.h).
    static void adoptEarly(OpeningJob job);
    // Whether such a job waits for its pane, and whether it has ended (for the tests).
    enum class EarlyJobState { None, Running, Ended };
    static EarlyJobState earlyJobState();

Q_SIGNALS:
    // A job ended: ok, or the one-line error. A failed job leaves what the pane showed untouched.
    void loadFinished(bool ok, const QString &error);

protected:
    // Follows a job (controls/LatestJob); a newer job supersedes a running one, whose result is dropped. The job's
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
    // Puts `w` into the header row, after the sample type and granularity, before the status and progress.
    void addHeaderWidget(QWidget *w, int stretch = 0);
    // The job startEarly began, when it is of these files read as a pane would read them now (and, for a
    // comparison, with the default options); an invalid future otherwise, the early job then cancelled.
    static QFuture<LoadedView> takeEarlyView(const QStringList &paths, Granularity granularity);
    static QFuture<LoadedDiff> takeEarlyDiff(const QStringList &before, const QStringList &after,
                                             Granularity granularity, const DiffOptions &options);
    void setHasContent() { m_hasContent = true; }
    // While the job just started reads `paths`, each of `graphs` that has nothing to show says so ("Reading
    // NAME...") instead of its placeholder (how to open a file); the placeholder comes back when the job ends, in
    // whatever way. Called after run(), whose cancel of an earlier job ends that one first.
    void sayReading(const QStringList &paths, const QList<FlameGraphWidget *> &graphs);
    bool m_updatingControls = false;

private:
    void jobEnded();
    void startedJob();
    void setProgress(int value);
    void userCancel();

    QHBoxLayout *m_header;
    int m_headerInsert = 0;   // where addHeaderWidget puts the next widget
    QComboBox *m_sampleTypes;
    QComboBox *m_granularity;
    QProgressBar *m_progress;
    QPushButton *m_cancel;
    QLabel *m_status;
    UrlFetches *m_fetches = nullptr;
    struct SaysReading {
        QPointer<FlameGraphWidget> graph;
        QString placeholder;   // its own, put back when the job ends
    };
    QList<SaysReading> m_saysReading;
    std::unique_ptr<LatestJobBase> m_job;   // a LatestJob<T> of the last run's T
    bool m_hasContent = false;
    QString m_lastError;
};

template <typename T>
void DocumentPane::run(QFuture<T> future, std::function<void(T)> onResult, std::function<void(T)> onEarlier)
{
    cancel();
    auto *job = dynamic_cast<LatestJob<T> *>(m_job.get());
    if (!job)
        m_job.reset(job = new LatestJob<T>(this));
    typename LatestJob<T>::Hooks hooks;
    hooks.progress = [this](int v) { setProgress(v); };
    hooks.earlier = std::move(onEarlier);
    hooks.cancelled = [this] {
        jobEnded();
        jobDropped();
        Q_EMIT loadFinished(false, tr("cancelled"));
    };
    job->follow(
        std::move(future),
        [this, onResult = std::move(onResult)](T result) {
            jobEnded();
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
        },
        std::move(hooks));
    startedJob();
}

}   // namespace qflame

// The two kinds of file tab, one per file (issue #30); here so that one include gives every pane.
#include "document/DiffPane.h"
#include "document/ProfilePane.h"
