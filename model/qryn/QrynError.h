// How a request to the server can fail, and the one line that tells a person which way it failed.
#pragma once

#include <QByteArray>
#include <QString>

namespace qflame::qryn {

enum class ErrorKind {
    None,
    InvalidRequest,      // never sent: bad URL, unreadable CA file, conflicting options
    Cancelled,
    ConnectionRefused,
    HostNotFound,        // DNS
    Tls,                 // handshake or certificate verification
    Timeout,             // no complete answer within the configured time
    TooLarge,            // the answer exceeds the configured cap
    ConnectionLost,      // closed or reset before the answer was complete
    Network,             // any other transport failure
    Unauthorized,        // HTTP 401 / 403
    BadRequest,          // HTTP 400
    NotFound,            // HTTP 404
    ServerError,         // HTTP 5xx
    HttpError,           // any other non-2xx status
    Undecodable,         // 2xx, but the body is not the expected message
};

struct RequestError {
    ErrorKind kind = ErrorKind::None;
    int httpStatus = 0;   // 0 when no HTTP answer arrived
    QString message;      // one line: "<Method> at <server>: <what went wrong>"
};

// Either a value or an error; `value` is default-constructed on error.
template <class T>
struct Result {
    T value;
    RequestError error;
    bool ok() const { return error.kind == ErrorKind::None; }
};

// The server's own words in an error body, on one line of at most 300 characters: the "message" of a JSON object
// (qryn 3.x/fastify {"statusCode","error","message"}, Connect {"code","message"}), a JSON string (qryn 4.x writes
// "invalid type id" with the quotes), or the text itself. Empty for an empty body.
QString serverMessage(const QByteArray &body);

// A short description of a body for "does not decode" messages: its size and how it starts.
QString describeBody(const QByteArray &body);

// Classifies a non-2xx answer and says what it means, without the "<Method> at <server>: " prefix, e.g.
// "HTTP 400 Bad Request: invalid type id". `sentCredentials` picks between "rejected the credentials" and
// "requires credentials" for 401.
RequestError httpError(int status, const QString &reasonPhrase, const QByteArray &body, bool sentCredentials);

}   // namespace qflame::qryn
