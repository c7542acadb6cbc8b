// A faulty querier server on 127.0.0.1 that runs on a thread of its own, for the tests that measure whether the
// GUI thread keeps answering (tst_qrynstall) and for the explorer's fault tests: the server's own work (writing a
// big body, its timers) must not count as a stall of the client's thread, so it cannot share that thread the way
// tst_qrynfaults' server does.
//
// Every mode but LargeFlamegraph answers every request with its fault. LargeFlamegraph answers ProfileTypes,
// LabelNames and SelectSeries properly and SelectMergeStacktraces with a valid flamegraph big enough that decoding
// and building its tree takes a noticeable time.
#pragma once

#include <QByteArray>
#include <QMutex>
#include <QThread>
#include <QUrl>

namespace qflame::test {

enum class FaultMode {
    NeverAnswer,       // reads the request, says nothing
    TrickleOneByte,    // 200 announcing 100000 bytes, then one byte per second
    ResetMidBody,      // 200 announcing 1000 bytes, 100 of them, then a TCP reset
    Oversized,         // 200, chunked, 64 KiB every 5 ms without an end
    InvalidProtobuf,   // 200 with 16 bytes that no protobuf parser accepts
    Garbage,           // 200 with an HTML page
    LargeFlamegraph,   // see above
    RedirectElsewhere, // 307 to the same port on "localhost", which is another host for the client
};

class FaultServerWorker;

class ThreadedFaultServer {
public:
    explicit ThreadedFaultServer(FaultMode mode);
    ~ThreadedFaultServer();
    ThreadedFaultServer(const ThreadedFaultServer &) = delete;
    ThreadedFaultServer &operator=(const ThreadedFaultServer &) = delete;

    QUrl url() const;
    int requests() const;
    // The Authorization headers received, in order (to show where credentials went).
    QList<QByteArray> authorizations() const;
    // Where RedirectElsewhere sends the client.
    QUrl redirectTarget() const;

    // The LargeFlamegraph answer's shape: columns x depth nodes under the root, each with self 1.
    static constexpr int kColumns = 20'000;
    static constexpr int kDepth = 20;
    static QByteArray largeFlamegraphBody();

private:
    QThread m_thread;
    FaultServerWorker *m_worker = nullptr;
};

// A port on 127.0.0.1 where nothing listens (bound, then closed).
quint16 closedPort();

}   // namespace qflame::test
