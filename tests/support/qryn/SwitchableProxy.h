// A TCP proxy on 127.0.0.1 in front of a real server, whose behaviour a test switches: down (nothing listens on
// its port, connections refused), forwarding, answering garbage, or silent (accepts and never answers). Its port
// stays the same across switches, so a client keeps its settings while the "server" goes down and comes back:
// what Retry is for. Runs on the thread that makes it (the test's), as tst_qrynfaults' server does.
#pragma once

#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QUrl>

class QTcpServer;
class QTcpSocket;

namespace qflame::test {

class SwitchableProxy : public QObject {
    Q_OBJECT

public:
    enum class Mode { Down, Forward, Garbage, Silent };

    explicit SwitchableProxy(const QUrl &upstream, QObject *parent = nullptr);
    ~SwitchableProxy() override;

    QUrl url() const;
    // Drops every open connection (a client's kept-alive one too), then behaves as `mode` says.
    void setMode(Mode mode);
    int connections() const { return m_connections; }

private:
    void accept();

    QUrl m_upstream;
    QTcpServer *m_server;
    quint16 m_port = 0;
    Mode m_mode = Mode::Down;
    int m_connections = 0;
    QList<QPointer<QTcpSocket>> m_sockets;
};

}   // namespace qflame::test
