#include "document/UrlFetches.h"

#include "controls/OpenUrlDialog.h"
#include "fetch/ProfileFetch.h"

#include <QUrl>

#include <algorithm>

namespace qflame {

namespace {

// The window's cap on a download, as on a file (ReadOptions' default).
constexpr qint64 kMaxBytes = qint64(1) << 30;

}   // namespace

UrlFetches::UrlFetches(QObject *parent) : QObject(parent)
{
    m_tick.setInterval(1000);
    connect(&m_tick, &QTimer::timeout, this, &UrlFetches::ticked);
}

UrlFetches::~UrlFetches()
{
    for (fetch::ProfileFetch *f : std::as_const(m_fetches))
        f->disconnect(this);   // their destructors abort what is still running
}

QStringList UrlFetches::toFetch(const QStringList &paths, bool reuseFetched)
{
    QStringList urls;
    for (const QString &path : paths) {
        if (!fetch::isProfileUrl(path))
            continue;
        const QString name = fetch::sourceNameOf(QUrl(path));
        if (fetch::isHandedOver(name))
            continue;
        if (reuseFetched) {
            if (const std::optional<QByteArray> kept = fetch::fetchedBytes(name)) {
                fetch::handOver(name, *kept);
                continue;
            }
        }
        if (!urls.contains(path))
            urls << path;
    }
    return urls;
}

void UrlFetches::start(const QStringList &urls)
{
    const qryn::ConnectionSettings settings = fetch::urlReaderSettings();
    for (const QString &url : urls) {
        auto *f = new fetch::ProfileFetch(QUrl(url), settings, kMaxBytes, this);
        connect(f, &fetch::ProfileFetch::finished, this, &UrlFetches::oneFinished);
        m_fetches << f;
    }
    for (fetch::ProfileFetch *f : std::as_const(m_fetches))
        f->start();
    m_tick.start();
}

void UrlFetches::cancel()
{
    m_cancelled = true;
    const QList<fetch::ProfileFetch *> fetches = m_fetches;   // a cancel may report at once
    for (fetch::ProfileFetch *f : fetches)
        f->cancel();
}

QString UrlFetches::statusText() const
{
    const fetch::ProfileFetch *longest = nullptr;
    qint64 longestLeft = -1;
    for (const fetch::ProfileFetch *f : m_fetches) {
        if (f->isFinished())
            continue;
        const qint64 left = qint64(f->seconds()) * 1000 - f->elapsedMs();
        if (!longest || left > longestLeft)
            longest = f, longestLeft = left;
    }
    return longest ? fetchStatusText(*longest) : QString();
}

int UrlFetches::progress() const
{
    int most = 0;
    for (const fetch::ProfileFetch *f : m_fetches)
        if (!f->isFinished() && f->seconds() > 0)
            most = std::max(most, int(std::min<qint64>(1000, f->elapsedMs() / f->seconds())));
    return most;
}

void UrlFetches::oneFinished()
{
    auto *done = qobject_cast<fetch::ProfileFetch *>(sender());
    if (done && !done->error().isEmpty() && !done->isCancelled() && m_error.isEmpty() && !m_cancelled) {
        m_error = done->error();
        // The tab cannot open without every one of its profiles: the others need not run to their end.
        for (fetch::ProfileFetch *f : std::as_const(m_fetches))
            if (f != done && !f->isFinished())
                QMetaObject::invokeMethod(f, &fetch::ProfileFetch::cancel, Qt::QueuedConnection);
    }
    if (m_fetches.isEmpty() || !std::all_of(m_fetches.begin(), m_fetches.end(),
                                            [](const fetch::ProfileFetch *f) { return f->isFinished(); }))
        return;
    m_tick.stop();
    const QList<fetch::ProfileFetch *> fetches = std::exchange(m_fetches, {});
    const bool ok = m_error.isEmpty() && !m_cancelled;
    for (fetch::ProfileFetch *f : fetches) {
        if (ok)
            fetch::handOver(fetch::sourceNameOf(f->url()), f->bytes());
        f->disconnect(this);
        f->deleteLater();
    }
    Q_EMIT finished(ok, m_cancelled && m_error.isEmpty(), m_error);
}

}   // namespace qflame
