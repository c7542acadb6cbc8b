#include "qryn/QrynClient.h"

#include "formats/FlamebearerFormat.h"
#include "formats/ProfileInput.h"
#include "pprof/Units.h"
#include "qryn/LabelSelector.h"
#include "qryn/QuerierCodec.h"
#include "qryn/StacksToTree.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSslCertificate>
#include <QTimer>

#include <algorithm>

namespace qflame::qryn {

namespace {

constexpr char kQuerierPath[] = "/querier.v1.QuerierService/";

QString seconds(int ms)
{
    return QStringLiteral("%1 s").arg(QString::number(ms / 1000.0, 'g', 4));
}

QString bytes(qint64 n)
{
    return QString::fromStdString(formatValue(double(n), "bytes"));
}

// Why a body is not the answer a method gives, for the "HTTP 200 but ..." message.
QString notA(const QByteArray &body, const QString &method)
{
    return QStringLiteral("the body (%1) is not a %2")
        .arg(describeBody(body), QLatin1String(codec::responseTypeName(method.toLatin1().constData())));
}

// The hint for a refused request: which of its label selectors qryn could not read, if any.
QString selectorHint(const QStringList &selectors)
{
    for (const QString &s : selectors) {
        QString why;
        if (!parseSelector(s, &why))
            return QStringLiteral("; the label selector %1 is malformed: %2").arg(s, why);
    }
    return {};
}

ProfileType typeOf(const QString &id)
{
    ProfileType t;
    if (!ProfileType::parse(id, &t))
        t = {id, id, QStringLiteral("unknown"), QStringLiteral("count"), QString(), QString()};
    return t;
}

}   // namespace

// One request in flight: owns the reply, the deadline and the size cap; reports once, then deletes itself.
class PendingCall : public QObject {
public:
    PendingCall(QrynClient *client, QNetworkReply *reply, QrynClient::Request request,
                std::function<void(QrynClient::RawAnswer)> onDone)
        : QObject(client), m_client(client), m_reply(reply), m_request(std::move(request)), m_onDone(std::move(onDone))
    {
        const ConnectionSettings &s = client->settings();
        m_timer.setSingleShot(true);
        m_timer.setTimerType(Qt::PreciseTimer);   // a coarse timer may fire 5% early
        connect(&m_timer, &QTimer::timeout, this, [this] { abortWith(ErrorKind::Timeout); });
        m_timer.start(s.timeoutMs);
        connect(reply, &QNetworkReply::metaDataChanged, this, &PendingCall::checkAnnouncedSize);
        connect(reply, &QNetworkReply::readyRead, this, &PendingCall::readSome);
        connect(reply, &QNetworkReply::sslErrors, this, [this](const QList<QSslError> &e) { m_sslErrors = e; });
        connect(reply, &QNetworkReply::finished, this, &PendingCall::done);
    }

    void abortWith(ErrorKind reason)
    {
        if (m_reason != ErrorKind::None || m_finished)
            return;
        m_reason = reason;
        m_reply->abort();   // emits finished, which reports
    }

private:
    void checkAnnouncedSize()
    {
        const QVariant length = m_reply->header(QNetworkRequest::ContentLengthHeader);
        if (length.isValid() && length.toLongLong() > m_client->settings().maxResponseBytes) {
            m_announced = length.toLongLong();
            abortWith(ErrorKind::TooLarge);
        } else if (length.isValid()) {
            // One buffer for the whole body: growing it as tens of MB arrive copies it over and over on the GUI
            // thread (tst_qrynstall). Bounded, so that an announced size alone cannot take much memory.
            m_body.reserve(qsizetype(std::min<qint64>(length.toLongLong(), qint64(64) << 20)));
        }
    }

    void readSome()
    {
        // Straight into the body, without an intermediate QByteArray per chunk.
        const qint64 available = m_reply->bytesAvailable();
        if (available > 0) {
            const qsizetype old = m_body.size();
            m_body.resize(old + qsizetype(available));
            const qint64 got = m_reply->read(m_body.data() + old, available);
            m_body.resize(old + qsizetype(std::max<qint64>(got, 0)));
        }
        if (m_body.size() > m_client->settings().maxResponseBytes)
            abortWith(ErrorKind::TooLarge);
    }

    QString prefix() const { return m_client->context(m_request.method) + QStringLiteral(": "); }

    QString contentEncoding() const
    {
        const QString e = QString::fromLatin1(m_reply->rawHeader("Content-Encoding")).trimmed().toLower();
        return e == u"identity" ? QString() : e == u"x-gzip" ? QStringLiteral("gzip") : e;
    }

    RequestError transportError() const
    {
        const ConnectionSettings &s = m_client->settings();
        const QString host = s.url.host();
        switch (m_reason) {
        case ErrorKind::Timeout:
            return {ErrorKind::Timeout, 0,
                    prefix() + QStringLiteral("no complete answer within %1 (timeout; %2 received)")
                                   .arg(seconds(s.timeoutMs), bytes(m_body.size()))};
        case ErrorKind::TooLarge:
            return {ErrorKind::TooLarge, 0,
                    prefix() + QStringLiteral("the answer%1 exceeds the size limit of %2")
                                   .arg(m_announced ? QStringLiteral(" (%1 announced)").arg(bytes(m_announced))
                                                    : QString(),
                                        bytes(s.maxResponseBytes))};
        case ErrorKind::Cancelled:
            return {ErrorKind::Cancelled, 0, prefix() + QStringLiteral("cancelled")};
        default: break;
        }
        const QString port = QString::number(s.url.port(s.url.scheme() == u"https" ? 443 : 80));
        switch (m_reply->error()) {
        case QNetworkReply::ConnectionRefusedError:
            return {ErrorKind::ConnectionRefused, 0,
                    prefix() + QStringLiteral("connection refused: nothing listens on %1 port %2").arg(host, port)};
        case QNetworkReply::HostNotFoundError:
            return {ErrorKind::HostNotFound, 0, prefix() + QStringLiteral("host %1 not found (DNS)").arg(host)};
        case QNetworkReply::SslHandshakeFailedError: {
            QStringList why;
            for (const QSslError &e : m_sslErrors)
                why << e.errorString();
            if (why.isEmpty())
                why << m_reply->errorString();
            why.removeDuplicates();
            return {ErrorKind::Tls, 0,
                    prefix() + QStringLiteral("TLS handshake failed: %1%2")
                                   .arg(why.join(QStringLiteral("; ")),
                                        m_sslErrors.isEmpty() ? QString()
                                                              : QStringLiteral(" (a CA file can make it trusted)"))};
        }
        case QNetworkReply::TimeoutError:
            return {ErrorKind::Timeout, 0, prefix() + QStringLiteral("the connection timed out")};
        case QNetworkReply::RemoteHostClosedError: {
            const QVariant length = m_reply->header(QNetworkRequest::ContentLengthHeader);
            const QString got = length.isValid()
                                    ? QStringLiteral(" after %1 of %2 bytes").arg(m_body.size()).arg(length.toLongLong())
                                    : QStringLiteral(" after %1 bytes").arg(m_body.size());
            return {ErrorKind::ConnectionLost, 0,
                    prefix() + QStringLiteral("the server closed the connection%1 before the answer was complete")
                                   .arg(got)};
        }
        case QNetworkReply::OperationCanceledError:
            return {ErrorKind::Cancelled, 0, prefix() + QStringLiteral("cancelled")};
        default:
            return {ErrorKind::Network, 0, prefix() + m_reply->errorString()};
        }
    }

    void done()
    {
        if (m_finished)
            return;
        m_finished = true;
        m_timer.stop();
        if (m_reason == ErrorKind::None) {
            m_body += m_reply->readAll();
            if (m_body.size() > m_client->settings().maxResponseBytes)
                m_reason = ErrorKind::TooLarge;
        }
        QrynClient::RawAnswer raw;
        const QVariant status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
        raw.httpStatus = status.isValid() ? status.toInt() : 0;
        if (m_reason != ErrorKind::None) {
            raw.error = transportError();
        } else if (const QString encoding = contentEncoding(); !encoding.isEmpty() && encoding != u"gzip") {
            raw.error = {ErrorKind::Undecodable, raw.httpStatus,
                         prefix() + QStringLiteral("the answer is compressed with '%1', which was not asked for")
                                        .arg(encoding)};
        } else if (m_reply->error() == QNetworkReply::InsecureRedirectError && m_reply->hasRawHeader("Location")) {
            // Qt follows same-origin redirects itself; one that reaches here points elsewhere, and "HTTP 307"
            // alone would not say where nor why it was not followed.
            const QUrl target = m_reply->url()
                                    .resolved(QUrl(QString::fromUtf8(m_reply->rawHeader("Location"))))
                                    .adjusted(QUrl::RemoveUserInfo);
            const QString reason = m_reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString();
            raw.error = {ErrorKind::HttpError, raw.httpStatus,
                         prefix() + QStringLiteral("the server redirects to %1, %2: not followed, so that no "
                                                   "credentials go there (HTTP %3 %4)")
                                        .arg(target.toString(),
                                             target.host() != m_reply->url().host()
                                                 ? QStringLiteral("another host")
                                                 : QStringLiteral("another scheme or port"))
                                        .arg(raw.httpStatus)
                                        .arg(reason)};
        } else if (raw.httpStatus != 0 && (raw.httpStatus < 200 || raw.httpStatus > 299)) {
            const QString reason = m_reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString();
            QrynClient::RawAnswer body{{}, raw.httpStatus, m_body, encoding == u"gzip"};
            QrynClient::inflate(&body, 1 << 20);   // error bodies are small; undecodable ones are shown as binary
            raw.error = httpError(raw.httpStatus, reason, body.body, m_client->settings().hasCredentials());
            raw.error.message = prefix() + raw.error.message;
            if (raw.httpStatus == 400 || raw.httpStatus >= 500)
                raw.error.message += selectorHint(m_request.selectors);
        } else if (m_reply->error() != QNetworkReply::NoError || raw.httpStatus == 0) {
            raw.error = transportError();
        } else if (const QVariant length = m_reply->header(QNetworkRequest::ContentLengthHeader);
                   length.isValid() && m_body.size() < length.toLongLong()) {
            // Qt 6.4 finishes such a reply without an error: the server went away mid-body.
            raw.error = {ErrorKind::ConnectionLost, raw.httpStatus,
                         prefix() + QStringLiteral("the server closed the connection after %1 of %2 bytes before the "
                                                   "answer was complete")
                                        .arg(m_body.size())
                                        .arg(length.toLongLong())};
        } else {
            raw.body = std::move(m_body);
            raw.gzip = contentEncoding() == u"gzip";
        }
        m_reply->deleteLater();
        auto onDone = std::move(m_onDone);
        m_client->m_pending.remove(this);
        deleteLater();
        onDone(std::move(raw));
    }

    QrynClient *m_client;
    QNetworkReply *m_reply;
    QrynClient::Request m_request;
    std::function<void(QrynClient::RawAnswer)> m_onDone;
    QTimer m_timer;
    QByteArray m_body;
    QList<QSslError> m_sslErrors;
    qint64 m_announced = 0;
    ErrorKind m_reason = ErrorKind::None;
    bool m_finished = false;
};

QrynClient::QrynClient(ConnectionSettings settings, QObject *parent)
    : QObject(parent), m_settings(std::move(settings)), m_network(new QNetworkAccessManager(this))
{
    m_settingsError = m_settings.validate();
    // Credentials must not follow a redirect to another host.
    m_network->setRedirectPolicy(QNetworkRequest::SameOriginRedirectPolicy);
    m_ssl = QSslConfiguration::defaultConfiguration();
    m_ssl.setPeerVerifyMode(QSslSocket::VerifyPeer);
    if (m_settingsError.isEmpty() && !m_settings.caFile.isEmpty())
        m_ssl.addCaCertificates(QSslCertificate::fromPath(m_settings.caFile, QSsl::Pem));
}

QrynClient::~QrynClient()
{
    cancelAll();
}

QString QrynClient::context(const QString &method) const
{
    return QStringLiteral("%1 at %2").arg(method, m_settings.displayUrl());
}

QObject *QrynClient::send(const Request &request, std::function<void(RawAnswer)> onDone)
{
    if (!m_settingsError.isEmpty()) {
        RawAnswer raw;
        raw.error = {ErrorKind::InvalidRequest, 0, context(request.method) + QStringLiteral(": ") + m_settingsError};
        // Reported from the event loop, like every other answer, so callers see one behaviour.
        QTimer::singleShot(0, this, [onDone = std::move(onDone), raw] { onDone(raw); });
        return nullptr;
    }
    QUrl url = m_settings.url;
    QString path = url.path();
    while (path.endsWith(u'/'))
        path.chop(1);
    url.setPath(path + request.path);
    QNetworkRequest r(url);
    r.setHeader(QNetworkRequest::UserAgentHeader, QStringLiteral("qflame"));
    r.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/proto"));
    if (m_settings.protocol == WireProtocol::Connect)
        r.setRawHeader("Connect-Protocol-Version", "1");
    if (!m_settings.user.isEmpty())
        r.setRawHeader("Authorization",
                       "Basic " + (m_settings.user + QLatin1Char(':') + m_settings.password).toUtf8().toBase64());
    else if (!m_settings.bearerToken.isEmpty())
        r.setRawHeader("Authorization", "Bearer " + m_settings.bearerToken.toUtf8());
    if (!m_settings.tenant.isEmpty())
        r.setRawHeader("X-Scope-OrgID", m_settings.tenant.toUtf8());
    // Asking for gzip ourselves keeps Qt from inflating the body: Qt's transparent decompression drops the
    // Content-Length that shows a truncated answer (see inflate()).
    r.setRawHeader("Accept-Encoding", "gzip");
    if (url.scheme() == u"https")
        r.setSslConfiguration(m_ssl);
    QNetworkReply *reply = m_network->post(r, request.body);
    auto *call = new PendingCall(this, reply, request, std::move(onDone));
    m_pending.insert(call);
    return call;
}

QString QrynClient::inflate(RawAnswer *raw, qint64 cap)
{
    if (!raw->gzip)
        return {};
    try {
        raw->body = QByteArray::fromStdString(
            decompress(std::string_view(raw->body.constData(), size_t(raw->body.size())), Compression::Gzip,
                       uint64_t(cap)));
        raw->gzip = false;
    } catch (const ProfileError &e) {
        return QStringLiteral("its gzip body (%1) does not inflate: %2")
            .arg(describeBody(raw->body), QString::fromStdString(e.what()));
    }
    return {};
}

void QrynClient::cancelCall(QObject *call)
{
    if (m_pending.contains(call))
        static_cast<PendingCall *>(call)->abortWith(ErrorKind::Cancelled);
}

void QrynClient::cancelAll()
{
    const QSet<QObject *> pending = m_pending;
    for (QObject *call : pending)
        cancelCall(call);
}

template <class T>
QFuture<Result<T>> QrynClient::querier(const QString &method, QByteArray body, QStringList selectors,
                                       Decoder<T> decode)
{
    Request r;
    r.method = method;
    r.path = QLatin1String(kQuerierPath) + method;
    r.body = std::move(body);
    r.selectors = std::move(selectors);
    return call<T>(r, std::move(decode));
}

QFuture<Result<QList<ProfileType>>> QrynClient::profileTypes(const TimeRange &range)
{
    return querier<QList<ProfileType>>(
        QStringLiteral("ProfileTypes"), codec::profileTypesRequest(range), {},
        [](const QByteArray &body, QList<ProfileType> *out, QString *why) {
            auto v = codec::profileTypesResponse(body);
            return v ? (*out = std::move(*v), true) : (*why = notA(body, QStringLiteral("ProfileTypes")), false);
        });
}

QFuture<Result<QStringList>> QrynClient::labelNames(const QStringList &matchers, const TimeRange &range)
{
    return querier<QStringList>(
        QStringLiteral("LabelNames"), codec::labelNamesRequest(matchers, range), matchers,
        [](const QByteArray &body, QStringList *out, QString *why) {
            auto v = codec::labelNamesResponse(body);
            return v ? (*out = std::move(*v), true) : (*why = notA(body, QStringLiteral("LabelNames")), false);
        });
}

QFuture<Result<QStringList>> QrynClient::labelValues(const QString &name, const QStringList &matchers,
                                                     const TimeRange &range)
{
    return querier<QStringList>(
        QStringLiteral("LabelValues"), codec::labelValuesRequest(name, matchers, range), matchers,
        [](const QByteArray &body, QStringList *out, QString *why) {
            auto v = codec::labelValuesResponse(body);
            return v ? (*out = std::move(*v), true) : (*why = notA(body, QStringLiteral("LabelValues")), false);
        });
}

QFuture<Result<QList<LabelSet>>> QrynClient::series(const QStringList &matchers, const QStringList &labelNames,
                                                    const TimeRange &range)
{
    return querier<QList<LabelSet>>(
        QStringLiteral("Series"), codec::seriesRequest(matchers, labelNames, range), matchers,
        [](const QByteArray &body, QList<LabelSet> *out, QString *why) {
            auto v = codec::seriesResponse(body);
            return v ? (*out = std::move(*v), true) : (*why = notA(body, QStringLiteral("Series")), false);
        });
}

QFuture<Result<MergedFlamegraph>> QrynClient::selectMergeStacktraces(const ProfileQuery &query)
{
    const ProfileType type = typeOf(query.profileTypeId);
    const int64_t windowNanos = std::max<int64_t>(0, query.range.lengthMs()) * 1'000'000;
    return querier<MergedFlamegraph>(
        QStringLiteral("SelectMergeStacktraces"), codec::selectMergeStacktracesRequest(query),
        {query.labelSelector}, [type, windowNanos](const QByteArray &body, MergedFlamegraph *out, QString *why) {
            QString tooLarge;
            auto graph = codec::selectMergeStacktracesResponse(body, &tooLarge);
            if (!graph) {
                *why = tooLarge.isEmpty() ? notA(body, QStringLiteral("SelectMergeStacktraces")) : tooLarge;
                return false;
            }
            out->graph = std::move(*graph);
            QString reason;
            if (!buildMergedFlamegraph(out, type, windowNanos, "SelectMergeStacktraces " + type.id.toStdString(),
                                       &reason, uint64_t(body.size()))) {
                *why = reason.startsWith(QLatin1String("its stacks")) ? reason
                                                                       : QStringLiteral("its flamegraph is inconsistent: %1").arg(reason);
                return false;
            }
            return true;
        });
}

QFuture<Result<MergedProfile>> QrynClient::selectMergeProfile(const ProfileQuery &query)
{
    ReadOptions options;
    options.maxDecompressedBytes = uint64_t(m_settings.maxResponseBytes);
    return querier<MergedProfile>(
        QStringLiteral("SelectMergeProfile"), codec::selectMergeProfileRequest(query), {query.labelSelector},
        [options](const QByteArray &body, MergedProfile *out, QString *why) {
            out->pprof = body;
            if (body.isEmpty())
                return true;   // nothing matched: qryn sends the empty Profile as 0 bytes
            try {
                out->profile = readPprof(std::string_view(body.constData(), size_t(body.size())),
                                           "SelectMergeProfile answer", options);
            } catch (const ProfileError &e) {
                *why = QStringLiteral("the body (%1) does not decode as pprof: %2")
                           .arg(describeBody(body), QString::fromStdString(e.what()));
                return false;
            }
            return true;
        });
}

QFuture<Result<QList<Series>>> QrynClient::selectSeries(const ProfileQuery &query, const SeriesOptions &options)
{
    return querier<QList<Series>>(
        QStringLiteral("SelectSeries"), codec::selectSeriesRequest(query, options), {query.labelSelector},
        [range = query.range, step = options.stepSeconds](const QByteArray &body, QList<Series> *out,
                                                           QString *why) {
            auto v = codec::selectSeriesResponse(body);
            if (!v) {
                *why = notA(body, QStringLiteral("SelectSeries"));
                return false;
            }
            *out = codec::pointsInRange(*v, range, step);
            return true;
        });
}

QFuture<Result<ProfileStats>> QrynClient::profileStats()
{
    return querier<ProfileStats>(QStringLiteral("GetProfileStats"), codec::profileStatsRequest(), {},
                                 [](const QByteArray &body, ProfileStats *out, QString *why) {
                                     auto v = codec::profileStatsResponse(body);
                                     return v ? (*out = *v, true)
                                              : (*why = notA(body, QStringLiteral("GetProfileStats")), false);
                                 });
}

}   // namespace qflame::qryn
