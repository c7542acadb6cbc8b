// The window's load job (LoadJob.h): a large tree's first look comes first, and the job builds the rest only once
// the receiver says the first look is shown (FirstLookShown), or after longestWait() when nobody says so.
#include "LoadJob.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <fstream>

using namespace qflame;

namespace {

// A folded profile whose first look leaves something out: main;rare (1 of 1,000,001) is below any cut of the
// window's (1/4096 .. 1/16384 of the root) and has a child, which the first look hides.
QString writeSkewedProfile(const QTemporaryDir &dir)
{
    const QString path = dir.filePath(QStringLiteral("skewed.folded"));
    std::ofstream out(path.toStdString());
    out << "main;hot;work 1000000\nmain;rare;deeper 1\n";
    return path;
}

// Waits until the job has sent its first result (the first look), without taking it out of the future.
bool waitForFirstResult(const QFuture<LoadedView> &job)
{
    QElapsedTimer timer;
    timer.start();
    while (job.resultCount() < 1 && !job.isFinished() && timer.elapsed() < 60000)
        QThread::msleep(2);
    return job.resultCount() >= 1;
}

}   // namespace

class tst_LoadJob : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void cleanup() { FirstLookShown::setLongestWait(std::chrono::milliseconds(100)); }

    void waitFor()
    {
        FirstLookShown shown;
        QVERIFY(!shown.isShown());
        QVERIFY(!shown.waitFor(std::chrono::milliseconds(20)));   // nobody says so
        QThread *notifier = QThread::create([&shown] {
            QThread::msleep(30);
            shown.notify();
        });
        notifier->start();
        QVERIFY(shown.waitFor(std::chrono::minutes(1)));
        QVERIFY(shown.isShown());
        notifier->wait();
        delete notifier;
        QVERIFY(shown.waitFor(std::chrono::milliseconds(0)));   // stays shown
    }

    // The rest of the tree waits for the first look to be shown: here nobody shows it for half a second, and the
    // whole tree (a few microseconds of work) is not there meanwhile.
    void theRestWaitsUntilTheFirstLookIsShown()
    {
        FirstLookShown::setLongestWait(std::chrono::hours(1));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFuture<LoadedView> job = loadFilesAsync({writeSkewedProfile(dir)}, -1, Granularity::Functions);
        QVERIFY(waitForFirstResult(job));
        const LoadedView look = job.resultAt(0);
        QVERIFY2(look.error.isEmpty(), qPrintable(look.error));
        QVERIFY(look.isFirstLook);
        QVERIFY(!look.tree->isComplete());
        QCOMPARE(look.tree->total(CallTree::kRoot), int64_t(1000001));
        QVERIFY(look.shown);
        QVERIFY(!look.shown->isShown());

        QThread::msleep(500);
        QVERIFY(!job.isFinished());
        QCOMPARE(job.resultCount(), 1);

        look.shown->notify();
        job.waitForFinished();
        QCOMPARE(job.resultCount(), 2);
        const LoadedView whole = job.resultAt(1);
        QVERIFY(!whole.isFirstLook);
        QVERIFY(!whole.shown);
        QVERIFY(whole.tree->isComplete());
        QCOMPARE(whole.firstLook, look.tree);
        QCOMPARE(whole.tree->size(), size_t(6));   // root, main, hot, work, rare, deeper: nothing hidden
        QCOMPARE(whole.tree->total(CallTree::kRoot), int64_t(1000001));
        QVERIFY(whole.flat);
    }

    // A first look nobody shows (a hidden window, a receiver that ignores it) holds the rest up for longestWait()
    // only.
    void aFirstLookNobodyShowsWaitsTheLongestWaitOnly()
    {
        FirstLookShown::setLongestWait(std::chrono::milliseconds(50));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFuture<LoadedView> job = loadFilesAsync({writeSkewedProfile(dir)}, -1, Granularity::Functions);
        job.waitForFinished();
        QCOMPARE(job.resultCount(), 2);
        QVERIFY(job.resultAt(0).isFirstLook);
        QVERIFY(!job.resultAt(0).shown->isShown());
        QVERIFY(job.resultAt(1).tree->isComplete());
    }

    // Cancelled while it waits (the window dropped it): the job ends without building the whole tree.
    void cancelledWhileWaiting()
    {
        FirstLookShown::setLongestWait(std::chrono::hours(1));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFuture<LoadedView> job = loadFilesAsync({writeSkewedProfile(dir)}, -1, Granularity::Functions);
        QVERIFY(waitForFirstResult(job));
        job.cancel();
        job.waitForFinished();
        QCOMPARE(job.resultCount(), 1);
    }
};

QTEST_GUILESS_MAIN(tst_LoadJob)
#include "tst_loadjob.moc"
