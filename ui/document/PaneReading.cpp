// How the window's tabs read files, process-wide: the names chosen (View > Demangle, View > Collapse Template
// Arguments), bottom-up at open (`qflame --inverted FILE`), and the job that `qflame FILE` starts before there is
// a window (startEarly), which the pane of the same files takes over.
#include "document/DocumentPane.h"

#include <optional>
#include <utility>

namespace qflame {

namespace {

NameOptions g_names;   // View > Demangle, View > Collapse Template Arguments
uint64_t g_maxReadBytes = ReadOptions().maxDecompressedBytes;   // `qflame --max-size MIB FILE`

ReadOptions paneReadOptions()
{
    ReadOptions options = g_names.appliedTo({});
    options.maxDecompressedBytes = g_maxReadBytes;
    return options;
}

bool g_openInverted = false;

// The job startEarly began, until a pane takes it over or drops it.
struct EarlyJob {
    QStringList before, after;   // after empty: one profile
    QFuture<LoadedView> view;
    QFuture<LoadedDiff> diff;
};
std::optional<EarlyJob> g_early;

// The early job when it is of these files, read as a pane would read them now; nothing otherwise (a job of
// other files is cancelled: no pane will want it).
std::optional<EarlyJob> takeEarlyJob(const QStringList &before, const QStringList &after, Granularity granularity)
{
    std::optional<EarlyJob> job = std::exchange(g_early, std::nullopt);
    if (!job)
        return std::nullopt;
    if (job->before != before || job->after != after || granularity != Granularity::Functions ||
        !(g_names == NameOptions())) {
        job->view.cancel();
        job->diff.cancel();
        return std::nullopt;
    }
    return job;
}

}   // namespace

void DocumentPane::startEarly(const QStringList &files)
{
    if (files.isEmpty() || files.size() > 2)
        return;
    // What open() would start with a pane's defaults: functions, simple demangling, a diff's default options.
    EarlyJob job;
    job.before = {files.front()};
    if (files.size() == 2) {
        job.after = {files.back()};
        job.diff = loadDiffAsync(job.before, job.after, -1, Granularity::Functions, DiffOptions(), paneReadOptions());
    } else {
        SampleFilters filters;
        filters.inverted = g_openInverted;
        job.view = loadFilesAsync(job.before, -1, Granularity::Functions, paneReadOptions(), filters);
    }
    g_early = std::move(job);
}

DocumentPane::EarlyJobState DocumentPane::earlyJobState()
{
    if (!g_early)
        return EarlyJobState::None;
    const bool ended = g_early->view.isValid() ? g_early->view.isFinished() : g_early->diff.isFinished();
    return ended ? EarlyJobState::Ended : EarlyJobState::Running;
}

ReadOptions DocumentPane::readOptions()
{
    return paneReadOptions();
}

QFuture<LoadedView> DocumentPane::takeEarlyView(const QStringList &paths, Granularity granularity)
{
    std::optional<EarlyJob> early = takeEarlyJob(paths, {}, granularity);
    return early && early->view.isValid() ? early->view : QFuture<LoadedView>();
}

QFuture<LoadedDiff> DocumentPane::takeEarlyDiff(const QStringList &before, const QStringList &after,
                                                Granularity granularity, const DiffOptions &options)
{
    std::optional<EarlyJob> early = takeEarlyJob(before, after, granularity);
    const DiffOptions defaults;
    const bool sameOptions = options.normalization == defaults.normalization && options.factor == defaults.factor &&
                             options.noiseK == defaults.noiseK;
    if (early && !(early->diff.isValid() && sameOptions)) {
        early->diff.cancel();
        early.reset();
    }
    return early ? early->diff : QFuture<LoadedDiff>();
}

void DocumentPane::setNameOptions(const NameOptions &names)
{
    g_names = names;
}

NameOptions DocumentPane::nameOptions()
{
    return g_names;
}

void DocumentPane::setOpenInverted(bool on)
{
    g_openInverted = on;
}

bool DocumentPane::openInverted()
{
    return g_openInverted;
}

void DocumentPane::setMaxReadBytes(uint64_t bytes)
{
    g_maxReadBytes = bytes;
}

uint64_t DocumentPane::maxReadBytes()
{
    return g_maxReadBytes;
}

}   // namespace qflame
