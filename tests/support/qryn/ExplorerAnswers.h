// The qryn explorer's answers as a test waits for them: every requestFinished since the last clear(), and take(),
// which waits for the first answer of a kind ("types", "labels", "profiles", ...).
#pragma once

#include "explorer/QrynExplorer.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QString>

namespace qflame::test {

struct Finished {
    bool ok = false;
    QString message;
    qint64 ms = -1;   // since the last clear()
};

class ExplorerAnswers {
public:
    explicit ExplorerAnswers(qryn::QrynExplorer *e) : m_spy(e, &qryn::QrynExplorer::requestFinished) { m_clock.start(); }
    void clear()
    {
        m_spy.clear();
        m_clock.start();
    }
    // The first answer to `what`, waiting for it up to `timeoutMs` (a request ends at the latest by the client's
    // own timeout); a failed Finished naming `what` when none came.
    Finished take(const QString &what, int timeoutMs = 60'000)
    {
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < timeoutMs) {
            for (int j = 0; j < m_spy.size(); ++j)
                if (m_spy[j][0].toString() == what) {
                    const Finished f{m_spy[j][1].toBool(), m_spy[j][2].toString(), m_clock.elapsed()};
                    m_spy.removeAt(j);
                    return f;
                }
            m_spy.wait(10);
        }
        return {false, QStringLiteral("timed out waiting for ") + what};
    }

private:
    QSignalSpy m_spy;
    QElapsedTimer m_clock;
};

}   // namespace qflame::test
