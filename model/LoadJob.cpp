#include "LoadJob.h"

#include "formats/ProfileInput.h"
#include "io/BesideThread.h"
#include "io/PhaseTrace.h"
#include "io/Prefault.h"
#include "tree/StagedTree.h"

#include <QPromise>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>

namespace qflame {

namespace {

std::atomic<int64_t> g_longestFirstLookWait{100};   // ms: a paint takes 4-20 ms, a whole tree of this size seconds

// QtConcurrent::run, submitted from runBeside's helper, which starts on another CPU (io/HelperThread.h): a thread
// it creates (the pool's first) is placed there too. A file named on the command line is read while this thread
// builds the window for another 50 ms; the pool thread created for it here waited on this thread's CPU for
// 0.3-4 ms (measured on pprof__large.cpu) before it began, 0.3-0.5 ms when so submitted. The pool itself is made
// here first: a QObject made on the helper would belong to a thread that is gone.
// Once the job is over (whatever its end), the window's heap trims as malloc's does (io/Prefault.h, windowHeap).
template <typename Result, typename Work>
QFuture<Result> runReadingJob(Work &&work)
{
    QThreadPool *pool = QThreadPool::globalInstance();
    auto job = [work = std::forward<Work>(work)](QPromise<Result> &promise) mutable {
        struct TrimAfter {
            ~TrimAfter() { usualHeapTrimming(); }
        } trimAfter;
        work(promise);
    };
    QFuture<Result> future;
    runBeside([&] { future = QtConcurrent::run(pool, std::move(job)); }, [] {});
    return future;
}

}   // namespace

void FirstLookShown::notify()
{
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_shown = true;
    }
    m_changed.notify_all();
}

bool FirstLookShown::isShown() const
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    return m_shown;
}

bool FirstLookShown::waitFor(std::chrono::milliseconds timeout)
{
    std::unique_lock<std::mutex> lock(m_mutex);
    return m_changed.wait_for(lock, timeout, [this] { return m_shown; });
}

void FirstLookShown::setLongestWait(std::chrono::milliseconds wait)
{
    g_longestFirstLookWait = wait.count();
}

std::chrono::milliseconds FirstLookShown::longestWait()
{
    return std::chrono::milliseconds(g_longestFirstLookWait.load());
}

namespace {

// Until the first look is shown, at most FirstLookShown::longestWait(), and while the job is wanted.
void waitUntilShown(const QPromise<LoadedView> &promise, FirstLookShown &shown)
{
    using namespace std::chrono;
    const steady_clock::time_point until = steady_clock::now() + FirstLookShown::longestWait();
    for (steady_clock::time_point now = steady_clock::now(); now < until && !promise.isCanceled();
         now = steady_clock::now()) {
        if (shown.waitFor(std::min(milliseconds(5), duration_cast<milliseconds>(until - now) + milliseconds(1))))
            return;
    }
}

void build(QPromise<LoadedView> &promise, LoadedView &view, double from)
{
    if (view.sampleType < 0)
        view.sampleType = view.profiles.front()->effectiveDefaultType();
    if (view.sampleType < 0)
        throw ProfileError(view.profiles.front()->sourceName + ": the profile has no sample types");
    BuildOptions options;
    options.granularity = view.granularity;
    options.filters = view.filters;
    options.progress = [&](double f) {
        promise.setProgressValue(int(1000 * (from + (1 - from) * 0.95 * f)));
        return !promise.isCanceled();
    };
    // A large tree is shown from its first look while the rest of it is built: the frames a view of the whole
    // profile can show are all there, with their values, and the window paints them a second or so earlier.
    StagedTreeBuild staged(view.profiles, size_t(view.sampleType), options, StagedTreeBuild::viewCullDivisor());
    view.tree = staged.firstLook();
    tracePhase(view.tree->isComplete() ? "tree" : "first look");
    if (promise.isCanceled())
        throw Cancelled();
    if (!view.tree->isComplete()) {
        LoadedView look;
        look.profiles = view.profiles;
        look.sampleType = view.sampleType;
        look.granularity = view.granularity;
        look.filters = view.filters;
        look.tree = view.tree;
        look.layout = std::make_shared<const FlameLayout>(*look.tree);
        look.isFirstLook = true;
        const auto shown = look.shown = std::make_shared<FirstLookShown>();
        promise.addResult(std::move(look), 0);
        waitUntilShown(promise, *shown);
        if (promise.isCanceled())
            throw Cancelled();
        view.firstLook = std::exchange(view.tree, staged.complete());
        tracePhase("whole tree");
        if (promise.isCanceled())
            throw Cancelled();
    }
    // The flamegraph's layout and the top table need only the tree: one on each core.
    runBeside([&] { view.layout = std::make_shared<const FlameLayout>(*view.tree); },
              [&] { view.flat = FlatTable::compute(view.tree); });
}

void finish(QPromise<LoadedView> &promise, LoadedView view)
{
    promise.setProgressValue(1000);
    promise.addResult(std::move(view), promise.future().resultCount());   // after a first look
}

}   // namespace

QFuture<LoadedView> loadFilesAsync(const QStringList &paths, int sampleType, Granularity granularity,
                                   ReadOptions options, SampleFilters filters)
{
    return runReadingJob<LoadedView>([paths, sampleType, granularity, options, filters](QPromise<LoadedView> &promise) mutable {
        promise.setProgressRange(0, 1000);
        LoadedView view;
        view.sampleType = sampleType;
        view.granularity = granularity;
        view.filters = filters;
        try {
            for (int i = 0; i < paths.size(); ++i) {
                const double from = 0.6 * i / paths.size(), span = 0.6 / paths.size();
                options.progress = [&](double f) {
                    promise.setProgressValue(int(1000 * (from + span * f)));
                    return !promise.isCanceled();
                };
                view.profiles.push_back(readProfileFile(paths[i], options));
            }
            tracePhase("read");
            build(promise, view, 0.6);
        } catch (const Cancelled &) {
            return;   // no result: the caller dropped this job
        } catch (const std::exception &e) {
            view = LoadedView{};
            view.filters = filters;
            view.error = QString::fromStdString(e.what());
        }
        finish(promise, std::move(view));
    });
}

QFuture<LoadedView> rebuildAsync(std::vector<std::shared_ptr<const Profile>> profiles, int sampleType,
                                 Granularity granularity, SampleFilters filters)
{
    return QtConcurrent::run([profiles = std::move(profiles), sampleType, granularity,
                              filters = std::move(filters)](QPromise<LoadedView> &promise) {
        promise.setProgressRange(0, 1000);
        LoadedView view;
        view.profiles = profiles;
        view.sampleType = sampleType;
        view.granularity = granularity;
        view.filters = filters;
        try {
            build(promise, view, 0.0);
        } catch (const Cancelled &) {
            return;
        } catch (const std::exception &e) {
            view.tree.reset();
            view.flat.reset();
            view.error = QString::fromStdString(e.what());
        }
        finish(promise, std::move(view));
    });
}

namespace {

void buildDiff(QPromise<LoadedDiff> &promise, LoadedDiff &d, const DiffOptions &options)
{
    if (d.sampleType < 0)
        d.sampleType = d.before.front()->effectiveDefaultType();
    if (d.sampleType < 0)
        throw ProfileError(d.before.front()->sourceName + ": the profile has no sample types");
    BuildOptions build;
    build.granularity = d.granularity;
    build.filters.tagRoot = d.frames.tagRoot;
    build.filters.tagLeaf = d.frames.tagLeaf;
    build.filters.inverted = d.frames.inverted;
    build.progress = [&](double) { return !promise.isCanceled(); };
    const DiffSide base = DiffSide::fromProfiles(d.before, size_t(d.sampleType), build);
    promise.setProgressValue(800);
    const DiffSide cmp = DiffSide::fromProfiles(d.after, base.tree->sampleType(), build);
    promise.setProgressValue(900);
    if (promise.isCanceled())
        throw Cancelled();
    d.diff = DiffTree::build(base, cmp, options);
    d.table = DiffTable::compute(d.diff);
}

void runDiff(QPromise<LoadedDiff> &promise, LoadedDiff d, const DiffOptions &options)
{
    try {
        buildDiff(promise, d, options);
    } catch (const Cancelled &) {
        return;
    } catch (const std::exception &e) {
        d.diff.reset();
        d.table.reset();
        d.error = QString::fromStdString(e.what());
    }
    promise.setProgressValue(1000);
    promise.addResult(std::move(d));
}

}   // namespace

QFuture<LoadedDiff> loadDiffAsync(const QStringList &before, const QStringList &after, int sampleType,
                                  Granularity granularity, DiffOptions options, ReadOptions readOptions)
{
    return runReadingJob<LoadedDiff>([=](QPromise<LoadedDiff> &promise) mutable {
        promise.setProgressRange(0, 1000);
        LoadedDiff d;
        d.sampleType = sampleType;
        d.granularity = granularity;
        const QStringList all = before + after;
        try {
            for (int i = 0; i < all.size(); ++i) {
                readOptions.progress = [&](double f) {
                    promise.setProgressValue(int(600 * (i + f) / all.size()));
                    return !promise.isCanceled();
                };
                (i < before.size() ? d.before : d.after).push_back(readProfileFile(all[i], readOptions));
            }
        } catch (const Cancelled &) {
            return;
        } catch (const std::exception &e) {
            d.error = QString::fromStdString(e.what());
            promise.addResult(std::move(d));
            return;
        }
        runDiff(promise, std::move(d), options);
    });
}

QFuture<LoadedDiff> rebuildDiffAsync(std::vector<std::shared_ptr<const Profile>> before,
                                     std::vector<std::shared_ptr<const Profile>> after, int sampleType,
                                     Granularity granularity, DiffOptions options, SampleFilters frames)
{
    return QtConcurrent::run([=](QPromise<LoadedDiff> &promise) {
        promise.setProgressRange(0, 1000);
        LoadedDiff d;
        d.before = before;
        d.after = after;
        d.sampleType = sampleType;
        d.granularity = granularity;
        d.frames = frames;
        runDiff(promise, std::move(d), options);
    });
}

namespace {

void compareInto(QPromise<LoadedRounds> &promise, LoadedRounds &loaded)
{
    if (loaded.inputs.empty()) {
        loaded.result = std::make_shared<const RoundsResult>();
        return;
    }
    loaded.result = std::make_shared<const RoundsResult>(compareRounds(loaded.inputs, loaded.options));
    if (promise.isCanceled())
        throw Cancelled();
}

}   // namespace

QFuture<LoadedRounds> loadRoundsAsync(std::vector<RoundFiles> rounds, RoundsOptions options, ReadOptions readOptions)
{
    return QtConcurrent::run([rounds = std::move(rounds), options, readOptions](QPromise<LoadedRounds> &promise) mutable {
        promise.setProgressRange(0, 1000);
        LoadedRounds loaded;
        loaded.options = options;
        try {
            readOptions.progress = [&](double f) {
                promise.setProgressValue(int(900 * f));
                return !promise.isCanceled();
            };
            loaded.inputs = readRoundFiles(rounds, readOptions);
            compareInto(promise, loaded);
        } catch (const Cancelled &) {
            return;
        } catch (const std::exception &e) {
            loaded = LoadedRounds{};
            loaded.error = QString::fromStdString(e.what());
        }
        promise.setProgressValue(1000);
        promise.addResult(std::move(loaded));
    });
}

QFuture<LoadedRounds> compareRoundsAsync(std::vector<RoundInput> inputs, RoundsOptions options)
{
    return QtConcurrent::run([inputs = std::move(inputs), options](QPromise<LoadedRounds> &promise) mutable {
        promise.setProgressRange(0, 1000);
        LoadedRounds loaded;
        loaded.inputs = std::move(inputs);
        loaded.options = options;
        try {
            compareInto(promise, loaded);
        } catch (const Cancelled &) {
            return;
        } catch (const std::exception &e) {
            loaded.result.reset();
            loaded.error = QString::fromStdString(e.what());
        }
        promise.setProgressValue(1000);
        promise.addResult(std::move(loaded));
    });
}

OpeningJob startOpening(const QStringList &files, bool inverted, ReadOptions options)
{
    OpeningJob job;
    if (files.isEmpty() || files.size() > 2)
        return job;
    job.before = {files.front()};
    if (files.size() == 2)
        job.after = {files.back()};
    if (!job.after.isEmpty()) {
        job.diff = loadDiffAsync(job.before, job.after, -1, Granularity::Functions, DiffOptions(), std::move(options));
    } else {
        SampleFilters filters;
        filters.inverted = inverted;
        job.view = loadFilesAsync(job.before, -1, Granularity::Functions, std::move(options), filters);
    }
    return job;
}

}   // namespace qflame
