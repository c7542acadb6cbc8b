// Profiles from where they are served: an http(s) URL wherever a FILE is expected, as `go tool pprof URL` takes
// one. A live Go process serves net/http/pprof's /debug/pprof/profile (CPU, for `seconds`, 30 when absent), heap,
// allocs, goroutine, block and mutex; any URL whose answer is a profile works (gzip, zstd or raw: the front door
// tells them apart).
//
// The fetched bytes go through the same door as a file's (io/InputFile.h's URL reader, installed here), so every
// verb and the window read URLs without knowing it. The transport is the qryn client's: its ConnectionSettings
// (basic auth, bearer token, CA file, TLS always verified) and its wording of HTTP errors. An error is one line
// naming the URL; an HTTP error status fails when the headers arrive, not after the timeout.
#pragma once

#include "io/ReadOptions.h"
#include "qryn/ConnectionSettings.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <QUrl>

#include <optional>
#include <string>

class QNetworkAccessManager;
class QNetworkReply;

namespace qflame::fetch {

// Whether a FILE argument is a URL to fetch (http:// or https://, any case).
bool isProfileUrl(const QString &path);
// How long the server takes before it answers: the `seconds` of a CPU profile or trace (.../profile,
// .../trace: 30 when absent, as net/http/pprof defaults), 0 for the profiles served at once.
int profileSeconds(const QUrl &url);
// The URL as messages and tabs name it: without user name and password.
QString sourceNameOf(const QUrl &url);
// The timeout when none is given: the profile's seconds plus a margin for a slow network and a big answer.
int defaultTimeoutMs(const QUrl &url);

// One GET of a profile's bytes, on the thread that creates it (the window's, or a worker's event loop).
class ProfileFetch : public QObject {
    Q_OBJECT

public:
    // `settings.url` is ignored (the profile's URL is `url`); settings.timeoutMs <= 0 means defaultTimeoutMs.
    // The body is refused past `maxBytes`.
    ProfileFetch(QUrl url, qryn::ConnectionSettings settings, qint64 maxBytes, QObject *parent = nullptr);
    ~ProfileFetch() override;

    void start();
    void cancel();

    const QUrl &url() const { return m_url; }
    int seconds() const { return profileSeconds(m_url); }
    int timeoutMs() const { return m_timeoutMs; }
    qint64 elapsedMs() const { return m_clock.isValid() ? m_clock.elapsed() : 0; }
    bool isFinished() const { return m_finished; }
    bool isCancelled() const { return m_cancelled; }
    // After finished(): the error (one line naming the URL), empty when the body arrived whole.
    const QString &error() const { return m_error; }
    const QByteArray &bytes() const { return m_body; }

Q_SIGNALS:
    void finished();

private:
    void readSome();
    void checkHeaders();
    void done();
    void fail(const QString &why);
    QString transportError() const;
    QString httpStatusError() const;

    QUrl m_url;
    qryn::ConnectionSettings m_settings;
    qint64 m_maxBytes;
    int m_timeoutMs;
    QNetworkAccessManager *m_network;
    QPointer<QNetworkReply> m_reply;
    QTimer m_deadline;
    QTimer m_errorGrace;   // an error status's body is read for its message, for at most this long
    QElapsedTimer m_clock;
    QByteArray m_body;
    QString m_error;
    bool m_finished = false, m_cancelled = false, m_timedOut = false, m_tooLarge = false;
};

// Fetches on the calling thread (any thread with or without a running event loop: it runs its own until the
// answer, the timeout or a cancel). options.progress is polled for a cancel (Cancelled is thrown); at most
// options.maxDecompressedBytes are accepted. Throws ProfileError naming the URL.
QByteArray fetchProfileBytes(const QString &url, const qryn::ConnectionSettings &settings, const ReadOptions &options);

// Makes every FILE that is a URL (io/InputFile.h) fetched with these settings (credentials, CA file, timeout).
// With `keepFetched`, the bytes of every fetch are kept for fetchedBytes (the window's Save Fetched Profile).
void installUrlReader(const qryn::ConnectionSettings &settings, bool keepFetched);
// The settings installUrlReader was last given (default ones, with the timeout each URL's own, before).
qryn::ConnectionSettings urlReaderSettings();
// The bytes last fetched for a profile named `sourceName` (sourceNameOf), when kept.
std::optional<QByteArray> fetchedBytes(const QString &sourceName);
// Bytes already fetched (the window's Open URL dialog and tabs, which show a countdown): the next read of that
// URL takes them instead of asking the server again.
void handOver(const QString &sourceName, const QByteArray &bytes);
// Whether bytes handed over for `sourceName` wait for their read.
bool isHandedOver(const QString &sourceName);

}   // namespace qflame::fetch
