// A widget's background work, one kind at a time: start() runs a function on the global thread pool and hands its
// result to a callback on the owner's (GUI) thread, unless a newer start() or a drop() came meanwhile. The latest
// job wins; an older one's result is dropped (and its future cancelled, so one not yet begun never runs). One
// type instead of hand-written "latest request" counters in every widget. The work must not throw: catch inside
// and put the error into the result.
#pragma once

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent/QtConcurrentRun>

#include <functional>
#include <utility>

namespace qflame {

template <class T>
class LatestJob {
public:
    // `owner` receives the results on its thread; destroying it drops whatever is still running.
    explicit LatestJob(QObject *owner) : m_owner(owner) {}
    LatestJob(const LatestJob &) = delete;
    LatestJob &operator=(const LatestJob &) = delete;

    template <class Work>
    void start(Work &&work, std::function<void(T)> deliver)
    {
        const quint64 generation = ++m_generation;
        m_future.cancel();
        auto *watcher = new QFutureWatcher<T>(m_owner);
        QObject::connect(watcher, &QFutureWatcherBase::finished, m_owner,
                         [this, watcher, generation, deliver = std::move(deliver)] {
                             watcher->deleteLater();
                             const QFuture<T> future = watcher->future();
                             if (generation != m_generation || future.isCanceled() || future.resultCount() == 0)
                                 return;
                             m_running = false;
                             deliver(future.result());
                         });
        m_running = true;
        m_future = QtConcurrent::run(std::forward<Work>(work));
        watcher->setFuture(m_future);
    }

    // Forgets the job under way: its result, when it comes, is dropped.
    void drop()
    {
        ++m_generation;
        m_future.cancel();
        m_running = false;
    }

    // Whether a job was started whose result has not been delivered nor dropped yet.
    bool running() const { return m_running; }

private:
    QObject *m_owner;
    quint64 m_generation = 0;
    QFuture<T> m_future;
    bool m_running = false;
};

}   // namespace qflame
