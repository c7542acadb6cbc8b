#include "ThreadedFaultServer.h"

#include "LargeFlamegraph.h"
#include "querier.pb.h"

#include <QMap>
#include <QMetaObject>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <sys/socket.h>

namespace qflame::test {

namespace {

QByteArray ok200(const QByteArray &body)
{
    return "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: " +
           QByteArray::number(body.size()) + "\r\n\r\n" + body;
}

QByteArray serialized(const google::protobuf::MessageLite &m)
{
    return QByteArray::fromStdString(m.SerializeAsString());
}

}   // namespace

// Lives on the server's thread: everything it creates (listener, sockets, timers) runs there.
class FaultServerWorker : public QObject {
public:
    explicit FaultServerWorker(FaultMode mode) : m_mode(mode) {}

    void start()
    {
        m_server = new QTcpServer(this);
        connect(m_server, &QTcpServer::pendingConnectionAvailable, this, [this] {
            while (QTcpSocket *s = m_server->nextPendingConnection())
                accept(s);
        });
        m_server->listen(QHostAddress::LocalHost, 0);
        m_port = m_server->serverPort();
        if (m_mode == FaultMode::LargeFlamegraph)
            m_large = ThreadedFaultServer::largeFlamegraphBody();   // made once, before any request
    }

    quint16 port() const { return m_port; }

    mutable QMutex m_lock;   // guards the two records below, read from the test's thread
    int m_requests = 0;
    QList<QByteArray> m_authorizations;

private:
    void accept(QTcpSocket *s)
    {
        auto *buffer = new QByteArray;
        connect(s, &QTcpSocket::disconnected, this, [buffer, s] {
            delete buffer;
            s->deleteLater();
        });
        connect(s, &QTcpSocket::readyRead, this, [this, s, buffer] {
            *buffer += s->readAll();
            const qsizetype end = buffer->indexOf("\r\n\r\n");
            if (end < 0)
                return;
            const QList<QByteArray> lines = buffer->left(end).split('\n');
            QMap<QByteArray, QByteArray> h;
            for (qsizetype i = 1; i < lines.size(); ++i) {
                const qsizetype colon = lines[i].indexOf(':');
                h.insert(lines[i].left(colon).trimmed().toLower(), lines[i].mid(colon + 1).trimmed());
            }
            if (buffer->size() < end + 4 + h.value("content-length", "0").toLongLong())
                return;
            const QByteArray path = lines[0].split(' ').value(1);
            buffer->clear();
            {
                QMutexLocker locker(&m_lock);
                ++m_requests;
                m_authorizations << h.value("authorization");
            }
            respond(s, path);
        });
    }

    void respond(QTcpSocket *s, const QByteArray &path)
    {
        switch (m_mode) {
        case FaultMode::NeverAnswer: return;
        case FaultMode::TrickleOneByte: {
            s->write("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n");
            auto *timer = new QTimer(s);
            connect(timer, &QTimer::timeout, s, [s] { s->write("x"); });
            timer->start(1000);
            return;
        }
        case FaultMode::ResetMidBody:
            s->write("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n" + QByteArray(100, 'x'));
            QTimer::singleShot(200, s, [s] {
                const linger hard{1, 0};   // close with RST instead of FIN
                ::setsockopt(int(s->socketDescriptor()), SOL_SOCKET, SO_LINGER, &hard, sizeof hard);
                s->abort();
            });
            return;
        case FaultMode::Oversized: {
            s->write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
            auto *timer = new QTimer(s);
            connect(timer, &QTimer::timeout, s, [s] {
                if (s->bytesToWrite() < (1 << 20))   // the client stops reading at its cap
                    s->write("10000\r\n" + QByteArray(0x10000, 'x') + "\r\n");
            });
            timer->start(5);
            return;
        }
        case FaultMode::InvalidProtobuf:
            // Field 1 with wire type 7: no such wire type, whatever the message.
            s->write(ok200("\x0f" + QByteArray(15, '\xff')));
            return;
        case FaultMode::Garbage: s->write(ok200("<html>proxy error</html>")); return;
        case FaultMode::RedirectElsewhere:
            s->write("HTTP/1.1 307 Temporary Redirect\r\nLocation: http://localhost:" + QByteArray::number(m_port) +
                     path + "\r\nContent-Length: 0\r\n\r\n");
            return;
        case FaultMode::LargeFlamegraph: break;
        }
        if (path.endsWith("/ProfileTypes")) {
            querier::v1::ProfileTypesResponse r;
            r.add_profile_types()->set_id("process_cpu:cpu:nanoseconds:cpu:nanoseconds");
            s->write(ok200(serialized(r)));
        } else if (path.endsWith("/SelectMergeStacktraces")) {
            s->write(ok200(m_large));
        } else {
            // LabelNames, SelectSeries: an empty answer is a valid one (no labels, no series).
            s->write(ok200(QByteArray()));
        }
    }

    FaultMode m_mode;
    QTcpServer *m_server = nullptr;
    quint16 m_port = 0;
    QByteArray m_large;
};

ThreadedFaultServer::ThreadedFaultServer(FaultMode mode)
{
    m_worker = new FaultServerWorker(mode);
    m_worker->moveToThread(&m_thread);
    m_thread.start();
    QMetaObject::invokeMethod(m_worker, [w = m_worker] { w->start(); }, Qt::BlockingQueuedConnection);
}

ThreadedFaultServer::~ThreadedFaultServer()
{
    // Deleted on its own thread, where its sockets and timers live.
    QMetaObject::invokeMethod(m_worker, [w = m_worker] { delete w; }, Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
}

QUrl ThreadedFaultServer::url() const
{
    return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_worker->port()));
}

QUrl ThreadedFaultServer::redirectTarget() const
{
    return QUrl(QStringLiteral("http://localhost:%1").arg(m_worker->port()));
}

int ThreadedFaultServer::requests() const
{
    QMutexLocker locker(&m_worker->m_lock);
    return m_worker->m_requests;
}

QList<QByteArray> ThreadedFaultServer::authorizations() const
{
    QMutexLocker locker(&m_worker->m_lock);
    return m_worker->m_authorizations;
}

QByteArray ThreadedFaultServer::largeFlamegraphBody()
{
    return test::largeFlamegraphBody(kColumns, kDepth);
}

quint16 closedPort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    const quint16 port = probe.serverPort();
    probe.close();
    return port;
}

}   // namespace qflame::test
