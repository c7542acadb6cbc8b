// How the window's tabs read files, process-wide: the names chosen (View > Demangle, View > Collapse Template
// Arguments), bottom-up at open (`qflame --inverted FILE`), and the job that `qflame FILE` starts before there is
// a window (startEarly; or adoptEarly, when `qflame` started it: app/WindowHandoff.h), which the pane of the same
// files takes over.
#include "document/DocumentPane.h"
#include "io/PhaseTrace.h"

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

// The job startEarly began (or adoptEarly was given), until a pane takes it over or drops it.
std::optional<OpeningJob> g_early;

// The early job when it is of these files, read as a pane would read them now; nothing otherwise (a job of
// other files is cancelled: no pane will want it).
std::optional<OpeningJob> takeEarlyJob(const QStringList &before, const QStringList &after, Granularity granularity)
{
    std::optional<OpeningJob> job = std::exchange(g_early, std::nullopt);
    if (!job)
        return std::nullopt;
    if (job->before != before || job->after != after || granularity != Granularity::Functions ||
        !(g_names == NameOptions())) {
        job->view.cancel();
        job->diff.cancel();
        return std::nullopt;
    }
    tracePhase("early job taken over");
    return job;
}

}   // namespace

void DocumentPane::startEarly(const QStringList &files)
{
    if (files.isEmpty() || files.size() > 2)
        return;
    // What open() would start with a pane's defaults: functions, simple demangling, a diff's default options.
    g_early = startOpening(files, g_openInverted, paneReadOptions());
}

void DocumentPane::adoptEarly(OpeningJob job)
{
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
    std::optional<OpeningJob> early = takeEarlyJob(paths, {}, granularity);
    return early && early->view.isValid() ? early->view : QFuture<LoadedView>();
}

QFuture<LoadedDiff> DocumentPane::takeEarlyDiff(const QStringList &before, const QStringList &after,
                                                Granularity granularity, const DiffOptions &options)
{
    std::optional<OpeningJob> early = takeEarlyJob(before, after, granularity);
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
