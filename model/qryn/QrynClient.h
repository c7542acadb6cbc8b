// A client for the profile query API of qryn (and Grafana Pyroscope): every read method qryn 3.2.39 serves.
//
// Each method sends one request and returns a QFuture that finishes with a Result: the answer as plain values, or
// a RequestError whose message is one line naming the method, the server and what went wrong. The network part
// runs on the client's thread (QNetworkAccessManager); decoding (protobuf, JSON, pprof, tree building) runs on
// the global thread pool, so a big answer never blocks the GUI. Cancelling a future aborts its request.
//
// The querier methods are `POST <url>/querier.v1.QuerierService/<Method>` with a binary protobuf body. Answers
// are judged by HTTP status and decoded by what the method returns, never by Content-Type (qryn 3.2.39 answers
// application/octet-stream). gzip is asked for and inflated by the model's capped decompressor (not by Qt, whose
// transparent decompression hides a truncated body); a body shorter than its Content-Length is an error. Start
// and end are always sent, in ms.
//
// Use a client from the thread that created it; its futures may be consumed anywhere.
#pragma once

#include "qryn/ConnectionSettings.h"
#include "qryn/QrynError.h"
#include "qryn/QrynTypes.h"

#include <QEventLoop>
#include <QFuture>
#include <QFutureWatcher>
#include <QObject>
#include <QPromise>
#include <QSet>
#include <QSslConfiguration>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>
#include <functional>
#include <memory>

class QNetworkAccessManager;

namespace qflame::qryn {

class PendingCall;

class QrynClient : public QObject {
    Q_OBJECT

public:
    explicit QrynClient(ConnectionSettings settings, QObject *parent = nullptr);
    ~QrynClient() override;

    const ConnectionSettings &settings() const { return m_settings; }

    QFuture<Result<QList<ProfileType>>> profileTypes(const TimeRange &range);
    QFuture<Result<QStringList>> labelNames(const QStringList &matchers, const TimeRange &range);
    QFuture<Result<QStringList>> labelValues(const QString &name, const QStringList &matchers,
                                             const TimeRange &range);
    // Every series (label set) matching the matchers, once per sample type; labelNames limits the labels returned.
    QFuture<Result<QList<LabelSet>>> series(const QStringList &matchers, const QStringList &labelNames,
                                            const TimeRange &range);
    // The merged flamegraph of the query, also as our CallTree: the numbers to show.
    QFuture<Result<MergedFlamegraph>> selectMergeStacktraces(const ProfileQuery &query);
    // The merged pprof of the query, for export and line/address detail (qryn 3.2.39 inflates its values: compare
    // with checkExportTotals before showing any of its numbers).
    QFuture<Result<MergedProfile>> selectMergeProfile(const ProfileQuery &query);
    // The timeline: one series per label set (or per groupBy values), points at bucket starts. Points outside
    // the query's range are dropped here, because qryn 3.2.39 ignores the range (see codec::pointsInRange).
    QFuture<Result<QList<Series>>> selectSeries(const ProfileQuery &query, const SeriesOptions &options);
    QFuture<Result<ProfileStats>> profileStats();

    // Aborts every request in flight; their futures finish cancelled.
    void cancelAll();
    int pendingCount() const { return int(m_pending.size()); }

    // Runs the calling thread's event loop until the future is finished (the client keeps working meanwhile):
    // for the command line and tests, never for the GUI. Every request ends by the client's timeout, so this
    // returns. A cancelled future gives ErrorKind::Cancelled.
    template <class T>
    static Result<T> wait(QFuture<Result<T>> future);

    // What a request looks like on the way out; public for the pending call only.
    struct Request {
        QString method;              // "SelectMergeStacktraces", for messages
        QString path;                // appended to the URL's path
        QByteArray body;             // POST body
        QStringList selectors;       // label selectors in the request, checked when the server refuses it
    };
    // What came back: an error, or a 2xx body (still gzip-compressed when `gzip`).
    struct RawAnswer {
        RequestError error;
        int httpStatus = 0;
        QByteArray body;
        bool gzip = false;
    };
    // Inflates a gzip body in place, refusing more than `cap` bytes; returns why it failed, or an empty string.
    static QString inflate(RawAnswer *raw, qint64 cap);

private:
    template <class T>
    using Decoder = std::function<bool(const QByteArray &body, T *out, QString *why)>;

    QObject *send(const Request &request, std::function<void(RawAnswer)> onDone);
    void cancelCall(QObject *call);
    QString context(const QString &method) const;

    template <class T>
    QFuture<Result<T>> call(const Request &request, Decoder<T> decode);
    template <class T>
    QFuture<Result<T>> querier(const QString &method, QByteArray body, QStringList selectors, Decoder<T> decode);

    ConnectionSettings m_settings;
    QString m_settingsError;
    QNetworkAccessManager *m_network = nullptr;
    QSslConfiguration m_ssl;
    QSet<QObject *> m_pending;

    friend class PendingCall;
};

template <class T>
QFuture<Result<T>> QrynClient::call(const Request &request, Decoder<T> decode)
{
    auto promise = std::make_shared<QPromise<Result<T>>>();
    promise->start();
    QFuture<Result<T>> future = promise->future();
    const QString where = context(request.method);
    const qint64 cap = m_settings.maxResponseBytes;
    QObject *pending = send(request, [promise, decode = std::move(decode), where, cap](RawAnswer raw) mutable {
        // Inflating, protobuf, JSON, pprof reading and tree building can take long on big answers: not on this
        // thread. The promise carries the result, so the run's own future is not needed.
        (void)QtConcurrent::run([promise, decode = std::move(decode), raw = std::move(raw), where, cap]() mutable {
            Result<T> r;
            if (raw.error.kind != ErrorKind::None) {
                r.error = raw.error;
            } else {
                QString why = inflate(&raw, cap);
                bool decoded = false;
                try {
                    decoded = why.isEmpty() && decode(raw.body, &r.value, &why);
                } catch (const std::exception &e) {
                    why = QString::fromStdString(e.what());
                }
                if (!decoded) {
                    r.value = T{};
                    r.error = {ErrorKind::Undecodable, raw.httpStatus,
                               QStringLiteral("%1: HTTP %2 but %3").arg(where).arg(raw.httpStatus).arg(why)};
                }
            }
            promise->addResult(std::move(r));
            promise->finish();
        });
    });
    if (pending) {
        auto *watcher = new QFutureWatcher<Result<T>>(pending);
        connect(watcher, &QFutureWatcherBase::canceled, this, [this, pending] { cancelCall(pending); });
        watcher->setFuture(future);
    }
    return future;
}

template <class T>
Result<T> QrynClient::wait(QFuture<Result<T>> future)
{
    if (!future.isFinished()) {
        QEventLoop loop;
        QFutureWatcher<Result<T>> watcher;
        connect(&watcher, &QFutureWatcherBase::finished, &loop, &QEventLoop::quit);
        watcher.setFuture(future);
        if (!future.isFinished())
            loop.exec();
    }
    if (future.isCanceled() || future.resultCount() == 0) {
        Result<T> r;
        r.error = {ErrorKind::Cancelled, 0, QStringLiteral("the request was cancelled")};
        return r;
    }
    return future.result();
}

}   // namespace qflame::qryn
