#include "qryn/QrynError.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringDecoder>

namespace qflame::qryn {

namespace {

constexpr int kMaxMessage = 300;

QString oneLine(QString text)
{
    text = text.simplified();
    if (text.size() > kMaxMessage)
        text = text.left(kMaxMessage - 1) + QChar(0x2026);
    return text;
}

// The body as text when it is printable UTF-8; a null QString otherwise.
QString asText(const QByteArray &body)
{
    QStringDecoder decode(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    const QString text = decode(body);
    if (decode.hasError())
        return {};
    for (QChar c : text)
        if (c.unicode() < 0x20 && c != QLatin1Char('\n') && c != QLatin1Char('\r') && c != QLatin1Char('\t'))
            return {};
    return text;
}

QString defaultReason(int status)
{
    switch (status) {
    case 400: return QStringLiteral("Bad Request");
    case 401: return QStringLiteral("Unauthorized");
    case 403: return QStringLiteral("Forbidden");
    case 404: return QStringLiteral("Not Found");
    case 405: return QStringLiteral("Method Not Allowed");
    case 413: return QStringLiteral("Payload Too Large");
    case 415: return QStringLiteral("Unsupported Media Type");
    case 429: return QStringLiteral("Too Many Requests");
    case 500: return QStringLiteral("Internal Server Error");
    case 502: return QStringLiteral("Bad Gateway");
    case 503: return QStringLiteral("Service Unavailable");
    case 504: return QStringLiteral("Gateway Timeout");
    default: return {};
    }
}

}   // namespace

QString serverMessage(const QByteArray &body)
{
    const QByteArray trimmed = body.trimmed();
    if (trimmed.isEmpty())
        return {};
    if (trimmed.startsWith('{')) {
        const QJsonObject o = QJsonDocument::fromJson(trimmed).object();
        for (const char *key : {"message", "error", "code"}) {
            const QString m = o.value(QLatin1String(key)).toString();
            if (!m.isEmpty())
                return oneLine(m);
        }
    }
    if (trimmed.startsWith('"') && trimmed.endsWith('"') && trimmed.size() >= 2) {
        // A bare JSON string; QJsonDocument only parses objects and arrays at the top level.
        const QJsonArray a = QJsonDocument::fromJson("[" + trimmed + "]").array();
        if (a.size() == 1 && a.at(0).isString())
            return oneLine(a.at(0).toString());
    }
    const QString text = asText(trimmed);
    if (text.isNull())
        return QStringLiteral("(%1 bytes of binary data)").arg(body.size());
    return oneLine(text);
}

QString describeBody(const QByteArray &body)
{
    if (body.isEmpty())
        return QStringLiteral("an empty body");
    const QByteArray head = body.left(24);
    QString text = asText(head);
    if (!text.isNull() && !text.trimmed().isEmpty())
        return QStringLiteral("%1 bytes starting \"%2\"").arg(body.size()).arg(text.simplified());
    return QStringLiteral("%1 bytes starting %2")
        .arg(body.size())
        .arg(QString::fromLatin1(body.left(8).toHex(' ')));
}

RequestError httpError(int status, const QString &reasonPhrase, const QByteArray &body, bool sentCredentials)
{
    RequestError e;
    e.httpStatus = status;
    const QString reason = reasonPhrase.isEmpty() ? defaultReason(status) : reasonPhrase;
    QString head = QStringLiteral("HTTP %1").arg(status);
    if (!reason.isEmpty())
        head += QLatin1Char(' ') + reason;
    QString said = serverMessage(body);
    if (said.compare(reason, Qt::CaseInsensitive) == 0)
        said.clear();   // qryn's 500 body repeats the reason phrase and says nothing more
    QString what;
    if (status == 401 || status == 403) {
        e.kind = ErrorKind::Unauthorized;
        what = sentCredentials ? QStringLiteral("the server rejected the credentials")
                               : QStringLiteral("the server requires credentials");
    } else if (status == 400) {
        e.kind = ErrorKind::BadRequest;
    } else if (status == 404) {
        e.kind = ErrorKind::NotFound;
        what = QStringLiteral("the server does not serve this path (is the URL the server's base address?)");
    } else if (status >= 500 && status <= 599) {
        e.kind = ErrorKind::ServerError;
        if (said.isEmpty())
            what = QStringLiteral("the server gave no details (its log has the cause)");
    } else {
        e.kind = ErrorKind::HttpError;
    }
    QStringList parts{head};
    if (!what.isEmpty())
        parts << what;
    if (!said.isEmpty())
        parts << said;
    e.message = parts.join(QStringLiteral(": "));
    return e;
}

}   // namespace qflame::qryn
