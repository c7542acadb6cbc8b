// A widget's background work, one kind at a time, and the one place in ui/ that starts or watches a job
// (tests/check_includes.py: no other ui/ file includes QtConcurrent or QFutureWatcher).
//
// start() runs a function on the global thread pool; follow() watches a future the model started (LoadJob.h's
// loads, the qryn client's requests). Either hands the job's result to a callback on the owner's (GUI) thread,
// unless a newer start()/follow() or a drop() came meanwhile: the latest job wins, an older one's result is dropped
// and its future cancelled (a load stops at its next progress check, a request is aborted, a function not yet begun
// never runs). The result is moved to the callback, never copied (a big flamegraph takes tens of ms to copy and to
// free on the GUI thread); of several results (a first look, then the whole tree) the last, copied. One type instead of
// hand-written "latest request" counters in every widget. The work must not throw: catch inside and put the error
// into the result.
#pragma once

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent/QtConcurrentRun>

#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

namespace qflame {

// What a widget needs of its current job whatever its result type (a tab's job: a profile, a comparison, rounds).
class LatestJobBase {
public:
    virtual ~LatestJobBase() = default;
    // Forgets the job under way: its result, when it comes, is dropped, and its future cancelled.
    virtual void drop() = 0;
    // Whether a job was started whose end has not been seen nor dropped yet.
    virtual bool running() const = 0;
};

template <class T>
class LatestJob : public LatestJobBase {
public:
    // What else the owner hears of the current job, on its thread; every hook is optional.
    struct Hooks {
        std::function<void(int)> progress;     // the future's progress value (LoadJob.h: 0..1000)
        std::function<void(T)> earlier;        // result 0 while the job still runs (a large tree's first look)
        std::function<void()> cancelled;       // the job ended without a result: cancelled by someone else
    };

    // `owner` receives the results on its thread; destroying the job (or its owner) drops whatever still runs.
    explicit LatestJob(QObject *owner) : m_owner(owner) {}
    ~LatestJob() override { drop(); }
    LatestJob(const LatestJob &) = delete;
    LatestJob &operator=(const LatestJob &) = delete;

    // Runs `work` (returning T) on the global thread pool.
    template <class Work>
    void start(Work &&work, std::function<void(T)> deliver, Hooks hooks = {})
    {
        follow(QtConcurrent::run(std::forward<Work>(work)), std::move(deliver), std::move(hooks));
    }

    // Watches `future`, started elsewhere (the model's jobs, the qryn client).
    void follow(QFuture<T> future, std::function<void(T)> deliver, Hooks hooks = {})
    {
        // The watcher's callbacks hold the state, not this object: a job may be destroyed before its watchers.
        const std::shared_ptr<State> state = m_state;
        const quint64 generation = ++state->generation;
        state->future.cancel();
        auto *watcher = new QFutureWatcher<T>(m_owner);
        auto current = [state, generation] { return generation == state->generation; };
        QObject::connect(watcher, &QFutureWatcherBase::finished, m_owner,
                         [state, watcher, current, deliver = std::move(deliver), cancelled = hooks.cancelled] {
                             watcher->deleteLater();
                             if (!current())
                                 return;   // superseded or dropped: a newer job owns the answer
                             state->running = false;
                             state->future = QFuture<T>();
                             QFuture<T> future = watcher->future();
                             if (future.isCanceled() || future.resultCount() == 0 || !future.isValid()) {
                                 if (cancelled)
                                     cancelled();
                                 return;
                             }
                             // Several results (a first look, then the whole tree: shared pointers, cheap to
                             // copy): the last. One: moved out. A move-only type has one result per job.
                             if constexpr (std::is_copy_constructible_v<T>) {
                                 if (const int count = future.resultCount(); count > 1)
                                     return deliver(future.resultAt(count - 1));
                             }
                             deliver(future.takeResult());
                         });
        if (hooks.progress)
            QObject::connect(watcher, &QFutureWatcherBase::progressValueChanged, m_owner,
                             [current, progress = std::move(hooks.progress)](int value) {
                                 if (current())
                                     progress(value);
                             });
        if constexpr (std::is_copy_constructible_v<T>) {
            if (hooks.earlier)
                QObject::connect(watcher, &QFutureWatcherBase::resultReadyAt, m_owner,
                                 [watcher, current, earlier = std::move(hooks.earlier)](int index) {
                                     // Not when the job has ended meanwhile: its last result is delivered at once.
                                     if (current() && index == 0 && !watcher->future().isFinished())
                                         earlier(watcher->future().resultAt(0));
                                 });
        }
        state->running = true;
        state->future = future;
        watcher->setFuture(future);
    }

    void drop() override
    {
        ++m_state->generation;
        m_state->future.cancel();
        m_state->future = QFuture<T>();
        m_state->running = false;
    }

    bool running() const override { return m_state->running; }

    // Blocks until the current job's work has ended (its result is still delivered later, on the event loop): for
    // an owner whose work must not outlive it (a Graphviz layout at exit).
    void waitForFinished() const { m_state->future.waitForFinished(); }

private:
    struct State {
        quint64 generation = 0;
        bool running = false;
        QFuture<T> future;   // the current job's, cancelled when superseded
    };
    QObject *m_owner;
    std::shared_ptr<State> m_state = std::make_shared<State>();
};

// Work whose result nobody waits for, on the global thread pool: trimming the heap, say. Not for anything a widget
// shows (that is a LatestJob's).
template <class Work>
void runDetached(Work &&work)
{
    (void)QtConcurrent::run(std::forward<Work>(work));
}

// Work each of whose results matters, however many run at once (each export writes its own file): on the global
// thread pool, and `deliver` gets every result on `owner`'s thread, none dropped by a later one; nothing once the
// owner is gone (the work itself still ends). The work must not throw.
template <class T, class Work>
void runEach(QObject *owner, Work &&work, std::function<void(T)> deliver)
{
    auto *watcher = new QFutureWatcher<T>(owner);
    QObject::connect(watcher, &QFutureWatcherBase::finished, owner, [watcher, deliver = std::move(deliver)] {
        watcher->deleteLater();
        deliver(watcher->future().result());
    });
    watcher->setFuture(QtConcurrent::run(std::forward<Work>(work)));
}

// Frees `value` (a tree, a layout, a merged flamegraph being replaced) on the pool instead of the GUI thread,
// where freeing millions of nodes would stall the paint.
template <class V>
void releaseOffThread(V &&value)
{
    runDetached([old = std::make_shared<std::decay_t<V>>(std::forward<V>(value))] {});
}

}   // namespace qflame
