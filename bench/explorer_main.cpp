// qflame-bench-explorer: the qryn explorer on a 20-minute window whose flamegraph has 400,000 nodes (issue #23).
// A querier server on a thread of its own (tests/support/qryn/ThreadedFaultServer, the GUI stall test's) answers
// SelectMergeStacktraces with a prepared body of 400,000 nodes that are all distinct functions (24 MB, the worst
// case for everything per function), at once: its own time is writing bytes it already holds. Each run makes a
// fresh explorer tab (offscreen), connects, sets a 20-minute custom range and loads; it prints, in ms:
//
//   client   the client's SelectMergeStacktraces alone (request, transfer, protobuf, levels, profile, tree,
//            layout, flat table; off the GUI thread), as tst_qrynstall asks for it
//   painted  from load() to the explorer's first painted flamegraph of that answer: the same work, the hand-over
//            to the tab, its top table and the paint
//
//   qflame-bench-explorer [RUNS]
#include "explorer/ConnectionStore.h"
#include "explorer/QrynExplorer.h"
#include "document/DocumentPane.h"
#include "flame/FlameGraphWidget.h"
#include "qryn/ThreadedFaultServer.h"

#include <QApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFutureWatcher>
#include <QSettings>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>
#include <cstdlib>

using namespace qflame;
using namespace qflame::qryn;

namespace {

const QString kCpu = QStringLiteral("process_cpu:cpu:nanoseconds:cpu:nanoseconds");

// Runs the event loop until `done` is true or `ms` have passed; false on the time limit.
template <typename F>
bool waitFor(F done, int ms)
{
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (t.elapsed() > ms)
            return false;
        QEventLoop loop;
        QTimer::singleShot(1, &loop, &QEventLoop::quit);
        loop.exec();
    }
    return true;
}

// The time of the first paint of `graph` with a flamegraph in it.
class PaintWatch : public QObject {
public:
    explicit PaintWatch(FlameGraphWidget *graph) : m_graph(graph) { graph->installEventFilter(this); }
    qint64 paintedAt = -1;
    QElapsedTimer clock;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == m_graph && event->type() == QEvent::Paint && m_graph->source() && paintedAt < 0 &&
            clock.isValid())
            paintedAt = clock.elapsed();
        return QObject::eventFilter(watched, event);
    }

private:
    FlameGraphWidget *m_graph;
};

}   // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const int runs = argc > 1 ? std::atoi(argv[1]) : 5;
    QTemporaryDir tmp;
    QSettings settings(tmp.filePath(QStringLiteral("qflame.ini")), QSettings::IniFormat);
    ConnectionStore store(&settings);
    store.setKeychainEnabled(false);
    test::ThreadedFaultServer server(test::FaultMode::LargeFlamegraph);
    ConnectionSettings s;
    s.url = server.url();
    s.timeoutMs = 120'000;
    const qint64 nodes = qint64(test::ThreadedFaultServer::kColumns) * test::ThreadedFaultServer::kDepth;
    std::printf("answer: %lld nodes, %lld bytes\n", nodes, qint64(test::ThreadedFaultServer::largeFlamegraphBody().size()));
    for (int run = 0; run < runs; ++run) {
        QrynExplorer explorer(&store);
        explorer.resize(1280, 800);
        explorer.show();
        bool types = false;
        QObject::connect(&explorer, &QrynExplorer::requestFinished, [&](const QString &what, bool, const QString &) {
            types = types || what == QLatin1String("types");
        });
        explorer.setConnection(s, QStringLiteral("bench"));
        if (!waitFor([&] { return types && explorer.profileType() == kCpu; }, 30'000)) {
            std::fprintf(stderr, "qflame-bench-explorer: no profile types from the server\n");
            return 2;
        }
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        explorer.setCustomRange({now - 20 * 60 * 1000, now});

        // The client alone, as the explorer calls it.
        QElapsedTimer t;
        t.start();
        QFutureWatcher<Result<MergedFlamegraph>> watcher;
        bool finished = false;
        QObject::connect(&watcher, &QFutureWatcherBase::finished, [&] { finished = true; });
        watcher.setFuture(explorer.client()->selectMergeStacktraces({kCpu, QStringLiteral("{}"), explorer.range()}));
        if (!waitFor([&] { return finished; }, 120'000))
            return 2;
        const qint64 clientMs = t.elapsed();
        const Result<MergedFlamegraph> r = watcher.future().takeResult();
        if (!r.ok() || qint64(r.value.tree->size()) != nodes + 1) {
            std::fprintf(stderr, "qflame-bench-explorer: %s\n", qPrintable(r.error.message));
            return 2;
        }

        // The tab: load() to the painted flamegraph.
        PaintWatch paint(explorer.profilePane()->flameGraph());
        paint.clock.start();
        explorer.load();
        if (!waitFor([&] { return paint.paintedAt >= 0; }, 120'000)) {
            std::fprintf(stderr, "qflame-bench-explorer: no flamegraph painted\n");
            return 2;
        }
        if (explorer.profilePane()->view().tree->size() != size_t(nodes + 1))
            return 2;
        std::printf("run %d: client %lld ms, painted %lld ms\n", run + 1, clientMs, paint.paintedAt);
        std::fflush(stdout);
    }
    return 0;
}
