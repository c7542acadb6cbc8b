#include "fetch/ProfileFetch.h"

#include "io/InputFile.h"
#include "qryn/QrynError.h"

#include <QEventLoop>
#include <QMutex>
#include <QSet>
#include <QWaitCondition>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslSocket>
#include <QUrlQuery>

#include <algorithm>
#include <map>

namespace qflame::fetch {

namespace {

// Beyond the profile's own seconds: connecting, a loaded server's delay, and the transfer of a big answer.
constexpr int kMarginMs = 30'000;
// An error status's body holds the server's reason ("profile duration exceeds server's WriteTimeout"); a server
// that sends the status but not the body must not hold the error back until the timeout.
constexpr int kErrorBodyMs = 2'000;

QString secondsText(int ms)
{
    return QStringLiteral("%1 s").arg(QString::number(ms / 1000.0, 'g', 4));
}

// The first <title> of an HTML page, for the message that says it is one (the pprof index, a login page).
QString htmlTitle(const QByteArray &body)
{
    const QByteArray head = body.left(4096);
    const qsizetype open = head.toLower().indexOf("<title>");
    if (open < 0)
        return {};
    const qsizetype close = head.toLower().indexOf("</title>", open);
    return QString::fromUtf8(head.mid(open + 7, close < 0 ? 80 : std::min<qsizetype>(close - open - 7, 80)))
        .simplified();
}

bool looksLikeHtml(const QByteArray &body, const QString &contentType)
{
    if (contentType.startsWith(QLatin1String("text/html")))
        return true;
    const QByteArray head = body.left(512).trimmed().toLower();
    return head.startsWith("<!doctype html") || head.startsWith("<html");
}

struct Kept {
    QMutex mutex;
    std::map<QString, QByteArray> fetched;    // for Save Fetched Profile
    std::map<QString, QByteArray> handedOver; // fetched by the window's dialog or a tab, read once
    bool keep = false;
    qryn::ConnectionSettings settings = [] {
        qryn::ConnectionSettings s;
        s.timeoutMs = 0;   // each URL's seconds plus a margin
        return s;
    }();
};

Kept &kept()
{
    static Kept k;
    return k;
}

// A Go process takes one CPU profile at a time: a second asked for while one runs fails ("cpu profiling already
// in use"). Fetches of CPU profiles (or traces) of one server, from threads reading files side by side (the
// rounds of `qflame rounds`), take turns; the others run at once.
class ServerTurn {
public:
    ServerTurn(const QUrl &url, const ProgressFn &progress)
    {
        if (profileSeconds(url) == 0)
            return;
        m_server = url.scheme().toLower() + QStringLiteral("://") + url.host().toLower() + QLatin1Char(':') +
                   QString::number(url.port(url.scheme().compare(QLatin1String("https"), Qt::CaseInsensitive) == 0 ? 443 : 80));
        QMutexLocker lock(&mutex());
        while (busy().contains(m_server)) {
            if (progress && !progress(0.0))
                throw Cancelled();
            freed().wait(&mutex(), 100);
        }
        busy().insert(m_server);
    }
    ~ServerTurn()
    {
        if (m_server.isEmpty())
            return;
        QMutexLocker lock(&mutex());
        busy().remove(m_server);
        freed().wakeAll();
    }
    ServerTurn(const ServerTurn &) = delete;
    ServerTurn &operator=(const ServerTurn &) = delete;

private:
    static QMutex &mutex()
    {
        static QMutex m;
        return m;
    }
    static QWaitCondition &freed()
    {
        static QWaitCondition c;
        return c;
    }
    static QSet<QString> &busy()
    {
        static QSet<QString> s;
        return s;
    }
    QString m_server;
};

}   // namespace

bool isProfileUrl(const QString &path)
{
    return path.startsWith(QLatin1String("http://"), Qt::CaseInsensitive) ||
           path.startsWith(QLatin1String("https://"), Qt::CaseInsensitive);
}

int profileSeconds(const QUrl &url)
{
    const QString path = url.path();
    if (!path.endsWith(QLatin1String("/profile")) && !path.endsWith(QLatin1String("/trace")))
        return 0;
    bool ok = false;
    const int s = QUrlQuery(url).queryItemValue(QStringLiteral("seconds")).toInt(&ok);
    return ok && s > 0 ? s : 30;
}

QString sourceNameOf(const QUrl &url)
{
    return url.adjusted(QUrl::RemoveUserInfo).toString();
}

int defaultTimeoutMs(const QUrl &url)
{
    return int(std::min<qint64>(qint64(profileSeconds(url)) * 1000 + kMarginMs, 86'400'000));
}

ProfileFetch::ProfileFetch(QUrl url, qryn::ConnectionSettings settings, qint64 maxBytes, QObject *parent)
    : QObject(parent),
      m_url(std::move(url)),
      m_settings(std::move(settings)),
      m_maxBytes(maxBytes),
      m_timeoutMs(m_settings.timeoutMs > 0 ? m_settings.timeoutMs : defaultTimeoutMs(m_url)),
      m_network(new QNetworkAccessManager(this))
{
    // Credentials must not follow a redirect to another host (the qryn client's rule).
    m_network->setRedirectPolicy(QNetworkRequest::SameOriginRedirectPolicy);
    m_deadline.setSingleShot(true);
    m_deadline.setTimerType(Qt::PreciseTimer);
    connect(&m_deadline, &QTimer::timeout, this, [this] {
        m_timedOut = true;
        if (m_reply)
            m_reply->abort();
    });
    m_errorGrace.setSingleShot(true);
    connect(&m_errorGrace, &QTimer::timeout, this, [this] {
        if (m_reply)
            m_reply->abort();   // done() reports the status with what of the body came
    });
}

ProfileFetch::~ProfileFetch()
{
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
    }
}

void ProfileFetch::fail(const QString &why)
{
    m_error = sourceNameOf(m_url) + QStringLiteral(": ") + why;
    m_finished = true;
    QTimer::singleShot(0, this, &ProfileFetch::finished);   // reported from the event loop, as every answer is
}

void ProfileFetch::start()
{
    m_clock.start();
    // The settings' checks (scheme, host, credentials not in the URL, CA file) on the profile's URL.
    qryn::ConnectionSettings check = m_settings;
    check.url = m_url;
    check.timeoutMs = m_timeoutMs;
    check.maxResponseBytes = std::max<qint64>(m_maxBytes, 1);
    if (const QString invalid = check.validate(); !invalid.isEmpty())
        return fail(invalid);
    QNetworkRequest r(m_url);
    r.setHeader(QNetworkRequest::UserAgentHeader, QStringLiteral("qflame"));
    if (!m_settings.user.isEmpty())
        r.setRawHeader("Authorization",
                       "Basic " + (m_settings.user + QLatin1Char(':') + m_settings.password).toUtf8().toBase64());
    else if (!m_settings.bearerToken.isEmpty())
        r.setRawHeader("Authorization", "Bearer " + m_settings.bearerToken.toUtf8());
    // The body as served, so that Save Fetched Profile writes the server's bytes; a gzip body (what Go serves)
    // is inflated by the front door, under its cap.
    r.setRawHeader("Accept-Encoding", "identity");
    if (m_url.scheme().compare(QLatin1String("https"), Qt::CaseInsensitive) == 0) {
        QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
        ssl.setPeerVerifyMode(QSslSocket::VerifyPeer);
        if (!m_settings.caFile.isEmpty())
            ssl.addCaCertificates(QSslCertificate::fromPath(m_settings.caFile, QSsl::Pem));
        r.setSslConfiguration(ssl);
    }
    m_reply = m_network->get(r);
    connect(m_reply, &QNetworkReply::metaDataChanged, this, &ProfileFetch::checkHeaders);
    connect(m_reply, &QNetworkReply::readyRead, this, &ProfileFetch::readSome);
    connect(m_reply, &QNetworkReply::finished, this, &ProfileFetch::done);
    m_deadline.start(m_timeoutMs);
}

void ProfileFetch::cancel()
{
    if (m_finished)
        return;
    m_cancelled = true;
    if (m_reply)
        m_reply->abort();
}

void ProfileFetch::checkHeaders()
{
    const int status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status >= 400 && !m_errorGrace.isActive())
        m_errorGrace.start(kErrorBodyMs);
    const QVariant length = m_reply->header(QNetworkRequest::ContentLengthHeader);
    if (status < 300 && length.isValid() && length.toLongLong() > m_maxBytes) {
        m_tooLarge = true;
        m_reply->abort();
    }
}

void ProfileFetch::readSome()
{
    m_body += m_reply->readAll();
    if (m_body.size() > m_maxBytes) {
        m_tooLarge = true;
        m_reply->abort();
    }
}

QString ProfileFetch::transportError() const
{
    if (m_cancelled)
        return QStringLiteral("cancelled");
    if (m_timedOut)
        return QStringLiteral("no complete answer within %1 (timeout; %2 bytes received)")
            .arg(secondsText(m_timeoutMs))
            .arg(m_body.size());
    if (m_tooLarge)
        return QStringLiteral("the answer is larger than the size limit of %1 bytes").arg(m_maxBytes);
    const QString host = m_url.host();
    const QString port = QString::number(m_url.port(m_url.scheme() == u"https" ? 443 : 80));
    switch (m_reply->error()) {
    case QNetworkReply::ConnectionRefusedError:
        return QStringLiteral("connection refused: nothing listens on %1 port %2").arg(host, port);
    case QNetworkReply::HostNotFoundError:
        return QStringLiteral("host %1 not found (DNS)").arg(host);
    case QNetworkReply::SslHandshakeFailedError:
        return QStringLiteral("TLS handshake failed: %1 (a CA file can make it trusted)").arg(m_reply->errorString());
    case QNetworkReply::RemoteHostClosedError:
        return QStringLiteral("the server closed the connection after %1 bytes, before the answer was complete")
            .arg(m_body.size());
    default:
        return m_reply->errorString();
    }
}

QString ProfileFetch::httpStatusError() const
{
    const int status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QString reason = m_reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString();
    if (status == 404) {   // the qryn client's hint (a server's base address) does not fit a profile's URL
        const QString said = qryn::serverMessage(m_body.left(1 << 20));
        return QStringLiteral("HTTP 404 %1: nothing is served at this path (net/http/pprof serves /debug/pprof/"
                              "profile, heap, allocs, goroutine, block, mutex)%2")
            .arg(reason.isEmpty() ? QStringLiteral("Not Found") : reason,
                 said.isEmpty() ? QString() : QStringLiteral(": ") + said);
    }
    return qryn::httpError(status, reason, m_body.left(1 << 20), m_settings.hasCredentials()).message;
}

void ProfileFetch::done()
{
    if (m_finished)
        return;
    m_finished = true;
    m_deadline.stop();
    m_errorGrace.stop();
    if (!m_tooLarge && !m_cancelled && !m_timedOut)
        readSome();
    const int status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QString name = sourceNameOf(m_url);
    if (status >= 300 && !m_tooLarge && !m_cancelled && !m_timedOut)
        m_error = name + QStringLiteral(": ") + httpStatusError();
    else if (m_tooLarge || m_cancelled || m_timedOut || m_reply->error() != QNetworkReply::NoError || status == 0)
        m_error = name + QStringLiteral(": ") + transportError();
    else if (const QVariant length = m_reply->header(QNetworkRequest::ContentLengthHeader);
             length.isValid() && m_body.size() < length.toLongLong())
        m_error = name + QStringLiteral(": the server closed the connection after %1 of %2 bytes")
                             .arg(m_body.size())
                             .arg(length.toLongLong());
    else if (looksLikeHtml(m_body, m_reply->header(QNetworkRequest::ContentTypeHeader).toString())) {
        const QString title = htmlTitle(m_body);
        m_error = name + QStringLiteral(": the answer is an HTML page%1, not a profile (net/http/pprof serves "
                                        "profiles at /debug/pprof/profile, heap, allocs, goroutine, block, mutex)")
                             .arg(title.isEmpty() ? QString() : QStringLiteral(" (\"%1\")").arg(title));
    } else if (m_body.isEmpty())
        m_error = name + QStringLiteral(": the answer is empty (HTTP %1), not a profile").arg(status);
    if (!m_error.isEmpty())
        m_body.clear();
    m_reply->deleteLater();
    m_reply = nullptr;
    Q_EMIT finished();
}

QByteArray fetchProfileBytes(const QString &url, const qryn::ConnectionSettings &settings, const ReadOptions &options)
{
    const QUrl parsed(url, QUrl::StrictMode);
    {
        Kept &k = kept();
        QMutexLocker lock(&k.mutex);
        const auto handed = k.handedOver.find(sourceNameOf(parsed));
        if (handed != k.handedOver.end()) {
            QByteArray bytes = std::move(handed->second);
            k.handedOver.erase(handed);
            if (k.keep)
                k.fetched[sourceNameOf(parsed)] = bytes;
            return bytes;
        }
    }
    if (!parsed.isValid())
        throw ProfileError(url.toStdString() + ": not a valid URL: " + parsed.errorString().toStdString());
    const qint64 cap = qint64(std::min<uint64_t>(options.maxDecompressedBytes, uint64_t(2) << 30));
    const ServerTurn turn(parsed, options.progress);
    ProfileFetch fetch(parsed, settings, cap);
    QEventLoop loop;
    QObject::connect(&fetch, &ProfileFetch::finished, &loop, &QEventLoop::quit);
    // The caller's cancel (a tab closed while its CPU profile is taken) is asked for now and then.
    QTimer poll;
    if (options.progress) {
        QObject::connect(&poll, &QTimer::timeout, &fetch, [&] {
            if (!options.progress(0.0))
                fetch.cancel();
        });
        poll.start(100);
    }
    fetch.start();
    if (!fetch.isFinished() || !fetch.error().isEmpty())
        loop.exec();
    if (fetch.isCancelled())
        throw Cancelled();
    if (!fetch.error().isEmpty())
        throw ProfileError(fetch.error().toStdString());
    Kept &k = kept();
    QMutexLocker lock(&k.mutex);
    if (k.keep)
        k.fetched[sourceNameOf(parsed)] = fetch.bytes();
    return fetch.bytes();
}

void installUrlReader(const qryn::ConnectionSettings &settings, bool keepFetched)
{
    {
        QMutexLocker lock(&kept().mutex);
        kept().keep = keepFetched;
        kept().settings = settings;
    }
    setUrlReader([settings](const std::string &path, const ReadOptions &options, std::string *sourceName) {
        const QString url = QString::fromStdString(path);
        *sourceName = sourceNameOf(QUrl(url)).toStdString();
        return fetchProfileBytes(url, settings, options).toStdString();
    });
}

qryn::ConnectionSettings urlReaderSettings()
{
    QMutexLocker lock(&kept().mutex);
    return kept().settings;
}

std::optional<QByteArray> fetchedBytes(const QString &sourceName)
{
    Kept &k = kept();
    QMutexLocker lock(&k.mutex);
    const auto it = k.fetched.find(sourceName);
    if (it == k.fetched.end())
        return std::nullopt;
    return it->second;
}

void handOver(const QString &sourceName, const QByteArray &bytes)
{
    Kept &k = kept();
    QMutexLocker lock(&k.mutex);
    k.handedOver[sourceName] = bytes;
}

bool isHandedOver(const QString &sourceName)
{
    Kept &k = kept();
    QMutexLocker lock(&k.mutex);
    return k.handedOver.count(sourceName) != 0;
}

}   // namespace qflame::fetch
