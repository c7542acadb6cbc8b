// Transport faults a real qryn cannot produce on demand, from a hand-made HTTP server on 127.0.0.1 inside the test:
// a refused connection, a server that never answers, a trickling body, a reset or a close mid-body, garbage, an
// oversized body (announced or streamed), a gzip answer, TLS with an untrusted and a trusted CA, and the headers
// the client sends (auth, tenant, Connect), which qryn ignores. Each fault ends in one clear message within the
// configured timeout, and the client's thread keeps running its event loop meanwhile.
#include "export/ProfileWriter.h"
#include "qryn/QrynClient.h"

#include "querier.pb.h"

#include <QElapsedTimer>
#include <QFile>
#include <QSslKey>
#include <QSslServer>
#include <QSslSocket>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <QTimer>

#include <sys/socket.h>

using namespace qflame::qryn;

namespace {

enum class Mode {
    NeverAnswer,     // reads the request, says nothing
    Trickle,         // announces 100000 bytes, sends one every 50 ms
    ResetMidBody,    // announces 1000 bytes, sends 100, then a TCP reset
    CloseMidBody,    // announces 1000 bytes, sends 100, then closes
    Garbage,         // 200 with an HTML page
    AnnouncedHuge,   // 200 announcing 10 MiB
    EndlessChunked,  // 200, chunked, 64 KiB every 5 ms without an end
    Gzip,            // 200, Content-Encoding gzip, a valid ProfileTypesResponse
    TruncatedGzip,   // 200, chunked, gzip: half of the stream, then the connection closes
    Record,          // 200 with a valid GetProfileStatsResponse; keeps the request
};

QByteArray response(const QByteArray &body, const QByteArray &extraHeaders = {})
{
    return "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: " +
           QByteArray::number(body.size()) + "\r\n" + extraHeaders + "\r\n" + body;
}

class FaultServer : public QObject {
public:
    explicit FaultServer(Mode mode, bool tls = false) : m_mode(mode)
    {
        if (tls) {
            auto *server = new QSslServer(this);
            QSslConfiguration conf = QSslConfiguration::defaultConfiguration();
            QFile key(QStringLiteral(QFLAME_QRYN_TLS "/server.key"));
            key.open(QIODevice::ReadOnly);
            conf.setPrivateKey(QSslKey(key.readAll(), QSsl::Rsa));
            conf.setLocalCertificateChain(QSslCertificate::fromPath(QStringLiteral(QFLAME_QRYN_TLS "/server.pem")));
            conf.setPeerVerifyMode(QSslSocket::VerifyNone);
            server->setSslConfiguration(conf);
            m_server = server;
        } else {
            m_server = new QTcpServer(this);
        }
        connect(m_server, &QTcpServer::pendingConnectionAvailable, this, [this] {
            while (QTcpSocket *s = m_server->nextPendingConnection())
                accept(s);
        });
        m_server->listen(QHostAddress::LocalHost, 0);
    }

    QUrl url(const char *scheme = "http") const
    {
        return QUrl(QStringLiteral("%1://127.0.0.1:%2").arg(QLatin1String(scheme)).arg(m_server->serverPort()));
    }

    QByteArray requestLine;
    QMap<QByteArray, QByteArray> headers;   // lower-case names
    QByteArray body;
    int requests = 0;
    bool clientDisconnected = false;

private:
    void accept(QTcpSocket *s)
    {
        auto *buffer = new QByteArray;
        connect(s, &QTcpSocket::disconnected, this, [this, s, buffer] {
            clientDisconnected = true;
            delete buffer;
            s->deleteLater();
        });
        connect(s, &QTcpSocket::readyRead, this, [this, s, buffer] {
            *buffer += s->readAll();
            const qsizetype end = buffer->indexOf("\r\n\r\n");
            if (end < 0)
                return;
            QList<QByteArray> lines = buffer->left(end).split('\n');
            QMap<QByteArray, QByteArray> h;
            for (qsizetype i = 1; i < lines.size(); ++i) {
                const qsizetype colon = lines[i].indexOf(':');
                h.insert(lines[i].left(colon).trimmed().toLower(), lines[i].mid(colon + 1).trimmed());
            }
            const qsizetype length = h.value("content-length", "0").toLongLong();
            if (buffer->size() < end + 4 + length)
                return;
            requestLine = lines[0].trimmed();
            headers = h;
            body = buffer->mid(end + 4, length);
            buffer->clear();
            ++requests;
            respond(s);
        });
    }

    void respond(QTcpSocket *s)
    {
        switch (m_mode) {
        case Mode::NeverAnswer: return;
        case Mode::Trickle: {
            s->write("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n");
            auto *timer = new QTimer(s);
            connect(timer, &QTimer::timeout, s, [s] { s->write("x"); });
            timer->start(50);
            return;
        }
        case Mode::ResetMidBody:
        case Mode::CloseMidBody:
            s->write("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n" + QByteArray(100, 'x'));
            QTimer::singleShot(200, s, [this, s] {
                if (m_mode == Mode::ResetMidBody) {
                    const linger hard{1, 0};   // close with RST instead of FIN
                    ::setsockopt(int(s->socketDescriptor()), SOL_SOCKET, SO_LINGER, &hard, sizeof hard);
                    s->abort();
                } else {
                    s->disconnectFromHost();
                }
            });
            return;
        case Mode::Garbage: s->write(response("<html>proxy error</html>")); return;
        case Mode::AnnouncedHuge: s->write("HTTP/1.1 200 OK\r\nContent-Length: 10485760\r\n\r\nxxxx"); return;
        case Mode::EndlessChunked: {
            s->write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
            auto *timer = new QTimer(s);
            connect(timer, &QTimer::timeout, s, [s] { s->write("10000\r\n" + QByteArray(0x10000, 'x') + "\r\n"); });
            timer->start(5);
            return;
        }
        case Mode::Gzip: {
            querier::v1::ProfileTypesResponse r;
            for (const char *id : {"process_cpu:cpu:nanoseconds:cpu:nanoseconds", "memory:alloc_space:bytes:space:bytes"})
                r.add_profile_types()->set_id(id);
            s->write(response(QByteArray::fromStdString(qflame::gzipCompress(r.SerializeAsString())),
                             "Content-Encoding: gzip\r\n"));
            return;
        }
        case Mode::TruncatedGzip: {
            const QByteArray gz = QByteArray::fromStdString(qflame::gzipCompress(std::string(4096, 'x')));
            const QByteArray half = gz.left(gz.size() / 2);
            s->write("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n" +
                     QByteArray::number(half.size(), 16) + "\r\n" + half + "\r\n");
            QTimer::singleShot(200, s, [s] { s->disconnectFromHost(); });
            return;
        }
        case Mode::Record: {
            types::v1::GetProfileStatsResponse r;
            r.set_data_ingested(true);
            r.set_oldest_profile_time(1795986000000);
            r.set_newest_profile_time(1795989600000);
            s->write(response(QByteArray::fromStdString(r.SerializeAsString())));
            return;
        }
        }
    }

    Mode m_mode;
    QTcpServer *m_server = nullptr;
};

ConnectionSettings settingsFor(const QUrl &url, int timeoutMs = 1000)
{
    ConnectionSettings s;
    s.url = url;
    s.timeoutMs = timeoutMs;
    return s;
}

QString port(const QUrl &url)
{
    return QString::number(url.port());
}

}   // namespace

class tst_QrynFaults : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void refusedConnection();
    void hostNotFound();
    void neverAnswers();
    void trickle();
    void midBody_data();
    void midBody();
    void garbage();
    void garbagePprof();
    void oversized_data();
    void oversized();
    void gzipAnswer();
    void truncatedGzip();
    void headers_data();
    void headers();
    void cancel();
    void invalidSettings();
    void tlsUntrusted();
    void tlsTrustedWithCaFile();
};

void tst_QrynFaults::refusedConnection()
{
    QTcpServer probe;
    QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
    const QUrl url(QStringLiteral("http://127.0.0.1:%1").arg(probe.serverPort()));
    probe.close();   // nothing listens there any more
    QrynClient client(settingsFor(url));
    QElapsedTimer t;
    t.start();
    const auto r = QrynClient::wait(client.profileTypes({0, 1}));
    QCOMPARE(r.error.kind, ErrorKind::ConnectionRefused);
    QCOMPARE(r.error.message, "ProfileTypes at " + url.toString() +
                                  ": connection refused: nothing listens on 127.0.0.1 port " + port(url));
    QVERIFY(t.elapsed() < 1000);
}

void tst_QrynFaults::hostNotFound()
{
    // .invalid never resolves (RFC 6761).
    QrynClient client(settingsFor(QUrl("http://qryn.invalid:3100"), 5000));
    const auto r = QrynClient::wait(client.labelNames({}, {0, 1}));
    QCOMPARE(r.error.kind, ErrorKind::HostNotFound);
    QCOMPARE(r.error.message, QStringLiteral("LabelNames at http://qryn.invalid:3100: host qryn.invalid not found (DNS)"));
}

void tst_QrynFaults::neverAnswers()
{
    FaultServer server(Mode::NeverAnswer);
    QrynClient client(settingsFor(server.url(), 800));
    QElapsedTimer t;
    t.start();
    const auto r = QrynClient::wait(client.selectMergeStacktraces({"a:b:c:d:e", "{}", {0, 1}}));
    QCOMPARE(r.error.kind, ErrorKind::Timeout);
    QCOMPARE(r.error.message, "SelectMergeStacktraces at " + server.url().toString() +
                                  ": no complete answer within 0.8 s (timeout; 0 B received)");
    QVERIFY2(t.elapsed() >= 800 && t.elapsed() < 2000, qPrintable(QString::number(t.elapsed())));
    QCOMPARE(server.requests, 1);
}

// A body that keeps arriving never resets the deadline: the timeout is for the whole answer.
void tst_QrynFaults::trickle()
{
    FaultServer server(Mode::Trickle);
    QrynClient client(settingsFor(server.url(), 1000));
    int ticks = 0;
    QTimer ticker;
    connect(&ticker, &QTimer::timeout, this, [&] { ++ticks; });
    ticker.start(20);
    QElapsedTimer t;
    t.start();
    const auto r = QrynClient::wait(client.selectMergeProfile({"a:b:c:d:e", "{}", {0, 1}}));
    QCOMPARE(r.error.kind, ErrorKind::Timeout);
    QVERIFY2(r.error.message.startsWith("SelectMergeProfile at " + server.url().toString() +
                                        ": no complete answer within 1 s (timeout; "),
             qPrintable(r.error.message));
    QVERIFY2(t.elapsed() >= 1000 && t.elapsed() < 2500, qPrintable(QString::number(t.elapsed())));
    QVERIFY2(ticks > 25, qPrintable(QString::number(ticks)));   // the event loop ran all along
}

void tst_QrynFaults::midBody_data()
{
    QTest::addColumn<int>("mode");
    QTest::newRow("reset") << int(Mode::ResetMidBody);
    QTest::newRow("close") << int(Mode::CloseMidBody);
}

void tst_QrynFaults::midBody()
{
    QFETCH(int, mode);
    FaultServer server{Mode(mode)};
    QrynClient client(settingsFor(server.url(), 5000));
    QElapsedTimer t;
    t.start();
    const auto r = QrynClient::wait(client.series({}, {}, {0, 1}));
    QCOMPARE(r.error.kind, ErrorKind::ConnectionLost);
    QCOMPARE(r.error.message, "Series at " + server.url().toString() +
                                  ": the server closed the connection after 100 of 1000 bytes before the answer was "
                                  "complete");
    QVERIFY(t.elapsed() < 2000);
}

void tst_QrynFaults::garbage()
{
    FaultServer server(Mode::Garbage);
    QrynClient client(settingsFor(server.url()));
    const auto r = QrynClient::wait(client.selectMergeStacktraces({"a:b:c:d:e", "{}", {0, 1}}));
    QCOMPARE(r.error.kind, ErrorKind::Undecodable);
    QCOMPARE(r.error.httpStatus, 200);
    QCOMPARE(r.error.message, "SelectMergeStacktraces at " + server.url().toString() +
                                  ": HTTP 200 but the body (24 bytes starting \"<html>proxy error</html>\") is not a "
                                  "querier.v1.SelectMergeStacktracesResponse");
}

void tst_QrynFaults::garbagePprof()
{
    FaultServer server(Mode::Garbage);
    QrynClient client(settingsFor(server.url()));
    const auto r = QrynClient::wait(client.selectMergeProfile({"a:b:c:d:e", "{}", {0, 1}}));
    QCOMPARE(r.error.kind, ErrorKind::Undecodable);
    QVERIFY2(r.error.message.startsWith("SelectMergeProfile at " + server.url().toString() +
                                        ": HTTP 200 but the body (24 bytes starting \"<html>proxy error</html>\") "
                                        "does not decode as pprof: SelectMergeProfile answer: "),
             qPrintable(r.error.message));
    QVERIFY(!r.error.message.contains(u'\n'));
}

void tst_QrynFaults::oversized_data()
{
    QTest::addColumn<int>("mode");
    QTest::addColumn<QString>("problem");
    QTest::newRow("announced") << int(Mode::AnnouncedHuge)
                               << "the answer (10 MiB announced) exceeds the size limit of 1 MiB";
    QTest::newRow("streamed") << int(Mode::EndlessChunked) << "the answer exceeds the size limit of 1 MiB";
}

void tst_QrynFaults::oversized()
{
    QFETCH(int, mode);
    QFETCH(QString, problem);
    FaultServer server{Mode(mode)};
    ConnectionSettings s = settingsFor(server.url(), 5000);
    s.maxResponseBytes = 1 << 20;
    QrynClient client(s);
    QElapsedTimer t;
    t.start();
    const auto r = QrynClient::wait(client.selectMergeProfile({"a:b:c:d:e", "{}", {0, 1}}));
    QCOMPARE(r.error.kind, ErrorKind::TooLarge);
    QCOMPARE(r.error.message, "SelectMergeProfile at " + server.url().toString() + ": " + problem);
    QVERIFY2(t.elapsed() < 3000, qPrintable(QString::number(t.elapsed())));
}

void tst_QrynFaults::gzipAnswer()
{
    FaultServer server(Mode::Gzip);
    QrynClient client(settingsFor(server.url()));
    const auto r = QrynClient::wait(client.profileTypes({0, 1}));
    QVERIFY2(r.ok(), qPrintable(r.error.message));
    QCOMPARE(r.value.size(), 2);
    QCOMPARE(r.value.at(1).id, QStringLiteral("memory:alloc_space:bytes:space:bytes"));
    QCOMPARE(server.headers.value("accept-encoding"), QByteArray("gzip"));
}

// A chunked answer cut short: Qt 6.4 either notices (the connection closed mid-transfer) or, depending on when
// the close is read, finishes as if complete; then the gzip stream, cut short, does not inflate. Either way it is
// an error that says so, never a decoded prefix.
void tst_QrynFaults::truncatedGzip()
{
    FaultServer server(Mode::TruncatedGzip);
    QrynClient client(settingsFor(server.url(), 5000));
    const auto r = QrynClient::wait(client.labelNames({}, {0, 1}));
    const QString prefix = "LabelNames at " + server.url().toString() + ": ";
    if (r.error.kind == ErrorKind::ConnectionLost) {
        QVERIFY2(r.error.message.startsWith(prefix + "the server closed the connection after "),
                 qPrintable(r.error.message));
        return;
    }
    QCOMPARE(r.error.kind, ErrorKind::Undecodable);
    QVERIFY2(r.error.message.startsWith(prefix + "HTTP 200 but its gzip body ("), qPrintable(r.error.message));
    QVERIFY2(r.error.message.contains(") does not inflate: gzip: truncated data"), qPrintable(r.error.message));
}

void tst_QrynFaults::headers_data()
{
    QTest::addColumn<QString>("user");
    QTest::addColumn<QString>("password");
    QTest::addColumn<QString>("token");
    QTest::addColumn<QString>("tenant");
    QTest::addColumn<bool>("connect");
    QTest::addColumn<QByteArray>("authorization");
    QTest::newRow("plain") << "" << "" << "" << "" << false << QByteArray();
    QTest::newRow("basic") << "qflame" << "s3cret" << "" << "" << false << QByteArray("Basic cWZsYW1lOnMzY3JldA==");
    QTest::newRow("bearer, tenant, Connect") << "" << "" << "tok" << "team-a" << true << QByteArray("Bearer tok");
}

void tst_QrynFaults::headers()
{
    QFETCH(QString, user);
    QFETCH(QString, password);
    QFETCH(QString, token);
    QFETCH(QString, tenant);
    QFETCH(bool, connect);
    QFETCH(QByteArray, authorization);
    FaultServer server(Mode::Record);
    ConnectionSettings s = settingsFor(QUrl(server.url().toString() + "/prefix/"));
    s.user = user;
    s.password = password;
    s.bearerToken = token;
    s.tenant = tenant;
    s.protocol = connect ? WireProtocol::Connect : WireProtocol::Qryn;
    QrynClient client(s);
    const auto r = QrynClient::wait(client.profileStats());
    QVERIFY2(r.ok(), qPrintable(r.error.message));
    QCOMPARE(r.value.oldestProfileMs, 1795986000000LL);
    QCOMPARE(server.requestLine, QByteArray("POST /prefix/querier.v1.QuerierService/GetProfileStats HTTP/1.1"));
    QCOMPARE(server.headers.value("content-type"), QByteArray("application/proto"));
    QCOMPARE(server.headers.value("authorization"), authorization);
    QCOMPARE(server.headers.value("x-scope-orgid"), tenant.toUtf8());
    QCOMPARE(server.headers.value("connect-protocol-version"), connect ? QByteArray("1") : QByteArray());
    // And the body of a querier call is the protobuf request, with ms times.
    const auto graph = client.selectMergeStacktraces({"a:b:c:d:e", "{x=\"1\"}", {1000, 2000}});
    QrynClient::wait(graph);
    querier::v1::SelectMergeStacktracesRequest sent;
    QVERIFY(sent.ParseFromString(server.body.toStdString()));
    QCOMPARE(sent.label_selector(), std::string("{x=\"1\"}"));
    QCOMPARE(sent.start(), 1000LL);
    QCOMPARE(sent.end(), 2000LL);
}

void tst_QrynFaults::cancel()
{
    FaultServer server(Mode::NeverAnswer);
    QrynClient client(settingsFor(server.url(), 30000));
    auto future = client.selectMergeStacktraces({"a:b:c:d:e", "{}", {0, 1}});
    QTRY_COMPARE_WITH_TIMEOUT(server.requests, 1, 5000);
    QCOMPARE(client.pendingCount(), 1);
    QElapsedTimer t;
    t.start();
    future.cancel();
    const auto r = QrynClient::wait(future);
    QCOMPARE(r.error.kind, ErrorKind::Cancelled);
    QVERIFY(t.elapsed() < 1000);
    QTRY_COMPARE_WITH_TIMEOUT(client.pendingCount(), 0, 2000);
    QTRY_VERIFY_WITH_TIMEOUT(server.clientDisconnected, 2000);   // the request was really aborted
    // cancelAll does the same for everything in flight.
    auto a = client.profileTypes({0, 1});
    auto b = client.labelNames({}, {0, 1});
    QCOMPARE(client.pendingCount(), 2);
    client.cancelAll();
    QCOMPARE(QrynClient::wait(a).error.kind, ErrorKind::Cancelled);
    QCOMPARE(QrynClient::wait(b).error.kind, ErrorKind::Cancelled);
}

void tst_QrynFaults::invalidSettings()
{
    ConnectionSettings s = settingsFor(QUrl("http://127.0.0.1:1"));
    s.user = "u";
    s.bearerToken = "t";
    QrynClient client(s);
    const auto r = QrynClient::wait(client.profileTypes({0, 1}));
    QCOMPARE(r.error.kind, ErrorKind::InvalidRequest);
    QCOMPARE(r.error.message, QStringLiteral("ProfileTypes at http://127.0.0.1:1: give either a user and password "
                                             "or a bearer token, not both"));
}

void tst_QrynFaults::tlsUntrusted()
{
    if (!QSslSocket::supportsSsl())
        QSKIP("no TLS backend in this Qt");
    FaultServer server(Mode::Record, true);
    QrynClient client(settingsFor(server.url("https"), 5000));
    const auto r = QrynClient::wait(client.profileStats());
    QCOMPARE(r.error.kind, ErrorKind::Tls);
    // The second reason OpenSSL gives varies between its versions.
    QVERIFY2(r.error.message.startsWith("GetProfileStats at " + server.url("https").toString() +
                                        ": TLS handshake failed: The issuer certificate of a locally looked up "
                                        "certificate could not be found"),
             qPrintable(r.error.message));
    QVERIFY2(r.error.message.endsWith(" (a CA file can make it trusted)"), qPrintable(r.error.message));
    QCOMPARE(server.requests, 0);
}

void tst_QrynFaults::tlsTrustedWithCaFile()
{
    if (!QSslSocket::supportsSsl())
        QSKIP("no TLS backend in this Qt");
    FaultServer server(Mode::Record, true);
    ConnectionSettings s = settingsFor(server.url("https"), 5000);
    s.caFile = QStringLiteral(QFLAME_QRYN_TLS "/ca.pem");
    QrynClient client(s);
    const auto r = QrynClient::wait(client.profileStats());
    QVERIFY2(r.ok(), qPrintable(r.error.message));
    QCOMPARE(r.value.newestProfileMs, 1795989600000LL);
    QCOMPARE(server.requests, 1);
}

QTEST_GUILESS_MAIN(tst_QrynFaults)
#include "tst_qrynfaults.moc"
