#include "qryn/SwitchableProxy.h"

#include <QTcpServer>
#include <QTcpSocket>

namespace qflame::test {

SwitchableProxy::SwitchableProxy(const QUrl &upstream, QObject *parent)
    : QObject(parent), m_upstream(upstream), m_server(new QTcpServer(this))
{
    if (!m_server->listen(QHostAddress::LocalHost, 0))
        qFatal("SwitchableProxy: cannot listen: %s", qPrintable(m_server->errorString()));
    m_port = m_server->serverPort();
    m_server->close();   // Down until told otherwise
    connect(m_server, &QTcpServer::newConnection, this, &SwitchableProxy::accept);
}

SwitchableProxy::~SwitchableProxy()
{
    setMode(Mode::Down);
}

QUrl SwitchableProxy::url() const
{
    return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_port));
}

void SwitchableProxy::setMode(Mode mode)
{
    for (const QPointer<QTcpSocket> &s : std::as_const(m_sockets))
        if (s)
            s->abort();
    m_sockets.clear();
    m_mode = mode;
    if (mode == Mode::Down)
        m_server->close();
    else if (!m_server->isListening() && !m_server->listen(QHostAddress::LocalHost, m_port))
        qFatal("SwitchableProxy: cannot listen on port %d again: %s", m_port, qPrintable(m_server->errorString()));
}

void SwitchableProxy::accept()
{
    while (QTcpSocket *client = m_server->nextPendingConnection()) {
        ++m_connections;
        m_sockets << client;
        connect(client, &QTcpSocket::disconnected, client, &QObject::deleteLater);
        if (m_mode == Mode::Silent)
            continue;
        if (m_mode == Mode::Garbage) {
            connect(client, &QTcpSocket::readyRead, client, [client] {
                client->readAll();
                client->write("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 24\r\n"
                              "Connection: close\r\n\r\n<html>proxy error</html>");
                client->disconnectFromHost();
            });
            continue;
        }
        // Forward: bytes both ways; what the client sends before the upstream connects waits in `pending`.
        auto *up = new QTcpSocket(client);
        m_sockets << up;
        auto pending = std::make_shared<QByteArray>();
        connect(client, &QTcpSocket::readyRead, up, [client, up, pending] {
            const QByteArray bytes = client->readAll();
            if (up->state() == QAbstractSocket::ConnectedState)
                up->write(bytes);
            else
                *pending += bytes;
        });
        connect(up, &QTcpSocket::connected, up, [up, pending] {
            up->write(*pending);
            pending->clear();
        });
        connect(up, &QTcpSocket::readyRead, client, [client, up] { client->write(up->readAll()); });
        connect(up, &QTcpSocket::disconnected, client, [client] { client->disconnectFromHost(); });
        connect(client, &QTcpSocket::disconnected, up, [up] { up->disconnectFromHost(); });
        up->connectToHost(QHostAddress(m_upstream.host()), quint16(m_upstream.port()));
    }
}

}   // namespace qflame::test
