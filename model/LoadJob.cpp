#include "LoadJob.h"

#include <QPromise>
#include <QtConcurrent/QtConcurrentRun>

namespace qflame {

namespace {

void build(QPromise<LoadedView> &promise, LoadedView &view, double from)
{
    if (view.sampleType < 0)
        view.sampleType = view.profiles.front()->effectiveDefaultType();
    if (view.sampleType < 0)
        throw ProfileError(view.profiles.front()->sourceName + ": the profile has no sample types");
    BuildOptions options;
    options.granularity = view.granularity;
    options.progress = [&](double f) {
        promise.setProgressValue(int(1000 * (from + (1 - from) * 0.95 * f)));
        return !promise.isCanceled();
    };
    view.tree = CallTreeBuilder::build(view.profiles, size_t(view.sampleType), options);
    if (promise.isCanceled())
        throw Cancelled();
    view.flat = FlatTable::compute(view.tree);
}

void finish(QPromise<LoadedView> &promise, LoadedView view)
{
    promise.setProgressValue(1000);
    promise.addResult(std::move(view));
}

}   // namespace

QFuture<LoadedView> loadFilesAsync(const QStringList &paths, int sampleType, Granularity granularity,
                                   ReadOptions options)
{
    return QtConcurrent::run([paths, sampleType, granularity, options](QPromise<LoadedView> &promise) mutable {
        promise.setProgressRange(0, 1000);
        LoadedView view;
        view.sampleType = sampleType;
        view.granularity = granularity;
        try {
            for (int i = 0; i < paths.size(); ++i) {
                const double from = 0.6 * i / paths.size(), span = 0.6 / paths.size();
                options.progress = [&](double f) {
                    promise.setProgressValue(int(1000 * (from + span * f)));
                    return !promise.isCanceled();
                };
                view.profiles.push_back(readProfileFile(paths[i], options));
            }
            build(promise, view, 0.6);
        } catch (const Cancelled &) {
            return;   // no result: the caller dropped this job
        } catch (const std::exception &e) {
            view = LoadedView{};
            view.error = QString::fromStdString(e.what());
        }
        finish(promise, std::move(view));
    });
}

QFuture<LoadedView> rebuildAsync(std::vector<std::shared_ptr<const Profile>> profiles, int sampleType,
                                 Granularity granularity)
{
    return QtConcurrent::run([profiles = std::move(profiles), sampleType, granularity](QPromise<LoadedView> &promise) {
        promise.setProgressRange(0, 1000);
        LoadedView view;
        view.profiles = profiles;
        view.sampleType = sampleType;
        view.granularity = granularity;
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

}   // namespace qflame
