// controls/LatestJob: the one "latest job wins" type of the window's background work (issue #30).
#include "controls/LatestJob.h"

#include <QPromise>
#include <QTest>
#include <QThread>

#include <memory>

using namespace qflame;

class TestLatestJob : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Two starts in a row: only the second's result is delivered, once, even though the first ends later.
    void theLatestStartWins()
    {
        QObject owner;
        LatestJob<int> job(&owner);
        QList<int> delivered;
        job.start([] { QThread::msleep(300); return 1; }, [&](int v) { delivered << v; });
        job.start([] { return 2; }, [&](int v) { delivered << v; });
        QVERIFY(job.running());
        QTRY_VERIFY(!job.running());
        QTest::qWait(500);   // the first job has ended meanwhile
        QCOMPARE(delivered, QList<int>({2}));
    }

    // A followed future's result is moved to the callback (a move-only type compiles and arrives); progress is
    // passed on.
    void followMovesTheLastResult()
    {
        QObject owner;
        LatestJob<std::unique_ptr<int>> job(&owner);
        QPromise<std::unique_ptr<int>> promise;
        promise.start();
        promise.setProgressRange(0, 1000);
        int last = -1, progress = -1;
        LatestJob<std::unique_ptr<int>>::Hooks hooks;
        hooks.progress = [&](int v) { progress = v; };
        job.follow(promise.future(), [&](std::unique_ptr<int> v) { last = *v; }, std::move(hooks));
        promise.setProgressValue(400);
        QTRY_COMPARE(progress, 400);
        promise.addResult(std::make_unique<int>(9));
        promise.finish();
        QTRY_COMPARE(last, 9);
        QVERIFY(!job.running());
    }

    // Of several results the last is delivered, the first seen earlier while the job still ran.
    void earlierSeesTheFirstResult()
    {
        QObject owner;
        LatestJob<int> job(&owner);
        QPromise<int> promise;
        promise.start();
        QList<int> earlier, delivered;
        LatestJob<int>::Hooks hooks;
        hooks.earlier = [&](int v) { earlier << v; };
        job.follow(promise.future(), [&](int v) { delivered << v; }, std::move(hooks));
        promise.addResult(1);
        QTRY_COMPARE(earlier, QList<int>({1}));
        QVERIFY(delivered.isEmpty());
        promise.addResult(2);
        promise.finish();
        QTRY_COMPARE(delivered, QList<int>({2}));
        QCOMPARE(earlier, QList<int>({1}));
    }

    // drop(): nothing is delivered and the future is cancelled; a future cancelled by someone else ends with the
    // `cancelled` hook.
    void dropAndCancel()
    {
        QObject owner;
        LatestJob<int> job(&owner);
        QPromise<int> dropped;
        dropped.start();
        QFuture<int> droppedFuture = dropped.future();
        int delivered = 0, cancelled = 0;
        LatestJob<int>::Hooks hooks;
        hooks.cancelled = [&] { ++cancelled; };
        job.follow(droppedFuture, [&](int) { ++delivered; }, hooks);
        job.drop();
        QVERIFY(!job.running());
        QVERIFY(droppedFuture.isCanceled());
        dropped.addResult(1);
        dropped.finish();
        QTest::qWait(100);
        QCOMPARE(delivered, 0);
        QCOMPARE(cancelled, 0);

        QPromise<int> other;
        other.start();
        job.follow(other.future(), [&](int) { ++delivered; }, hooks);
        other.future().cancel();
        other.finish();
        QTRY_COMPARE(cancelled, 1);
        QCOMPARE(delivered, 0);
        QVERIFY(!job.running());
    }

    // A job destroyed while its future runs: the watcher's end finds nothing to call (no crash, no delivery).
    void destroyedWhileRunning()
    {
        QObject owner;
        int delivered = 0;
        QPromise<int> promise;
        promise.start();
        auto job = std::make_unique<LatestJob<int>>(&owner);
        job->follow(promise.future(), [&](int) { ++delivered; });
        job.reset();
        promise.addResult(3);
        promise.finish();
        QTest::qWait(100);
        QCOMPARE(delivered, 0);
    }
};

QTEST_GUILESS_MAIN(TestLatestJob)
#include "tst_latestjob.moc"
