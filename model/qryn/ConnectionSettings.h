// Where the server is and how to talk to it: URL, credentials, tenant, TLS trust, limits.
#pragma once

#include <QString>
#include <QUrl>

namespace qflame::qryn {

enum class WireProtocol {
    Qryn,      // plain POST of binary protobuf (Content-Type application/proto), what qryn 3.x reads
    Connect,   // the same plus Connect-Protocol-Version: 1, which Grafana Pyroscope's connect-go server expects
};

struct ConnectionSettings {
    QUrl url;                  // base address, e.g. http://127.0.0.1:3100; a path prefix is kept
    QString user, password;    // HTTP basic auth when user is set (qryn's QRYN_LOGIN / QRYN_PASSWORD)
    QString bearerToken;       // Authorization: Bearer <token>, when set
    QString tenant;            // X-Scope-OrgID, when set (Pyroscope multi-tenancy; qryn 3.2.39 ignores it)
    QString caFile;            // PEM file of extra CA certificates to trust; the system's stay trusted
    WireProtocol protocol = WireProtocol::Qryn;
    int timeoutMs = 30'000;    // per request, from sending to the last byte of the answer
    qint64 maxResponseBytes = qint64(256) << 20;   // after HTTP decompression

    // One line saying what is wrong with the settings, or an empty string. TLS verification is always on.
    QString validate() const;
    bool hasCredentials() const { return !user.isEmpty() || !bearerToken.isEmpty(); }
    // The URL for messages: without user name and password, without a trailing '/'.
    QString displayUrl() const;
};

}   // namespace qflame::qryn
