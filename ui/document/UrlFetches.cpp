#include "document/UrlFetches.h"

#include "controls/OpenUrlDialog.h"
#include "document/DocumentPane.h"
#include "fetch/ProfileFetch.h"

#include <QUrl>

#include <algorithm>

namespace qflame {

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

QString UrlFetches::serverOf(const fetch::ProfileFetch &f)
{
    const QUrl &u = f.url();
    return u.scheme().toLower() + QStringLiteral("://") + u.host().toLower() + QLatin1Char(':') +
           QString::number(u.port(u.scheme().compare(QLatin1String("https"), Qt::CaseInsensitive) == 0 ? 443 : 80));
}

void UrlFetches::start(const QStringList &urls)
{
    const qryn::ConnectionSettings settings = fetch::urlReaderSettings();
    QStringList busy;
    QList<fetch::ProfileFetch *> now;
    for (const QString &url : urls) {
        auto *f = new fetch::ProfileFetch(QUrl(url), settings, qint64(DocumentPane::maxReadBytes()), this);
        connect(f, &fetch::ProfileFetch::finished, this, &UrlFetches::oneFinished);
        m_fetches << f;
        if (busy.contains(serverOf(*f))) {
            m_waiting << f;
        } else {
            busy << serverOf(*f);
            now << f;
        }
    }
    for (fetch::ProfileFetch *f : std::as_const(now))
        f->start();
    m_tick.start();
}

void UrlFetches::cancel()
{
    m_cancelled = true;
    // Those that wait end without a request: their finished() comes from the event loop.
    for (fetch::ProfileFetch *f : std::exchange(m_waiting, {}))
        f->cancel(), QMetaObject::invokeMethod(f, &fetch::ProfileFetch::finished, Qt::QueuedConnection);
    const QList<fetch::ProfileFetch *> fetches = m_fetches;   // a cancel may report at once
    for (fetch::ProfileFetch *f : fetches)
        f->cancel();
}

QString UrlFetches::statusText() const
{
    const fetch::ProfileFetch *longest = nullptr;
    qint64 longestLeft = -1;
    for (const fetch::ProfileFetch *f : m_fetches) {
        if (m_ended.contains(f) || m_waiting.contains(f))
            continue;
        const qint64 left = qint64(f->seconds()) * 1000 - f->elapsedMs();
        if (!longest || left > longestLeft)
            longest = f, longestLeft = left;
    }
    if (!longest)
        return {};
    const QString text = fetchStatusText(*longest);
    return m_waiting.isEmpty() ? text : tr("%1; then %n more from the same server", nullptr, int(m_waiting.size())).arg(text);
}

int UrlFetches::progress() const
{
    int most = 0;
    for (const fetch::ProfileFetch *f : m_fetches)
        if (!m_ended.contains(f) && !m_waiting.contains(f) && f->seconds() > 0)
            most = std::max(most, int(std::min<qint64>(1000, f->elapsedMs() / f->seconds())));
    return most;
}

void UrlFetches::oneFinished()
{
    auto *done = qobject_cast<fetch::ProfileFetch *>(sender());
    if (!done || m_ended.contains(done))
        return;
    m_ended.insert(done);
    if (!done->error().isEmpty() && !done->isCancelled() && m_error.isEmpty() && !m_cancelled) {
        m_error = done->error();
        // The tab cannot open without every one of its profiles: the others need not run to their end.
        for (fetch::ProfileFetch *f : std::exchange(m_waiting, {}))
            f->cancel(), QMetaObject::invokeMethod(f, &fetch::ProfileFetch::finished, Qt::QueuedConnection);
        for (fetch::ProfileFetch *f : std::as_const(m_fetches))
            if (f != done && !m_ended.contains(f))
                QMetaObject::invokeMethod(f, &fetch::ProfileFetch::cancel, Qt::QueuedConnection);
    }
    for (fetch::ProfileFetch *f : std::as_const(m_waiting))   // the next of its server, if one waits
        if (serverOf(*f) == serverOf(*done)) {
            m_waiting.removeOne(f);
            f->start();
            break;
        }
    if (m_ended.size() < m_fetches.size())
        return;
    m_tick.stop();
    const QList<fetch::ProfileFetch *> fetches = std::exchange(m_fetches, {});
    m_ended.clear();
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
