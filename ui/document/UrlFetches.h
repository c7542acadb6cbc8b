// A tab's URLs fetched before its job reads them: the path of File > Open URL... for every tab, so that a URL from
// the command line (`qflame URL`, `qflame-gui URL`), Open Recent or a comparison of two URLs shows a CPU profile's
// countdown and can be cancelled, as the dialog does. The fetches run on the GUI thread's event loop (the network
// is asynchronous), not on a pool thread that a 30-second CPU profile would hold; their bytes are handed to the
// URL reader (fetch::handOver), and the tab's job reads them through the front door like a file.
#pragma once

#include <QList>
#include <QObject>
#include <QSet>
#include <QStringList>
#include <QTimer>

#include <functional>

namespace qflame {

namespace fetch {
class ProfileFetch;
}

class UrlFetches : public QObject {
    Q_OBJECT

public:
    explicit UrlFetches(QObject *parent = nullptr);
    ~UrlFetches() override;

    // The http(s) URLs among `paths` that must be fetched: not already handed over (the dialog fetched them) and,
    // with `reuseFetched` (a tab read again for other names), not fetched before (fetch::fetchedBytes), whose kept
    // bytes are handed over instead.
    static QStringList toFetch(const QStringList &paths, bool reuseFetched);

    // Fetches `urls` with the URL reader's settings (fetch::urlReaderSettings) and the window's size cap: those
    // of different servers at once, those of one server (scheme, host and port) one after the other, since a Go
    // process takes one CPU profile at a time ("cpu profiling already in use").
    void start(const QStringList &urls);
    // Stops every fetch; finished() follows with cancelled set.
    void cancel();
    bool isRunning() const { return !m_fetches.isEmpty(); }

    // What the tab shows while it waits: the dialog's words (OpenUrlDialog's fetchStatusText) for the fetch that
    // has the longest to go.
    QString statusText() const;
    // 0..1000: how much of the longest CPU profile's seconds has passed (0 while only fetching).
    int progress() const;

Q_SIGNALS:
    void ticked();   // each second while a fetch runs: statusText and progress changed
    // Every fetch ended. On success every URL's bytes are handed over; otherwise `error` is the first failure's
    // line (naming its URL) or, when cancelled, empty.
    void finished(bool ok, bool cancelled, const QString &error);

private:
    void oneFinished();
    static QString serverOf(const fetch::ProfileFetch &f);

    QList<fetch::ProfileFetch *> m_fetches;
    QList<fetch::ProfileFetch *> m_waiting;   // behind another fetch of their server, in the order given
    QSet<const fetch::ProfileFetch *> m_ended;
    QTimer m_tick;
    QString m_error;
    bool m_cancelled = false;
};

}   // namespace qflame
