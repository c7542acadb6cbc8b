// The longest time the GUI thread went without running a 10 ms timer: how long the window stopped answering
// while something ran (tst_qrynstall, bench's diff-options stall).
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <algorithm>

namespace qflame::test {

class GapMeter {
public:
    GapMeter()
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        QObject::connect(&m_timer, &QTimer::timeout, [this] {
            const qint64 gap = m_clock.restart();
            if (gap > m_max) {
                m_max = gap;
                m_maxAt = m_since.elapsed();
            }
            ++m_ticks;
        });
    }
    void start()
    {
        m_max = 0;
        m_ticks = 0;
        m_clock.start();
        m_since.start();
        m_timer.start(10);
    }
    qint64 stop()
    {
        m_timer.stop();
        return std::max(m_max, m_clock.elapsed());   // also the time since the last tick
    }
    int ticks() const { return m_ticks; }
    // When the longest gap ended, in ms since start().
    qint64 maxAt() const { return m_maxAt; }

private:
    QTimer m_timer;
    QElapsedTimer m_clock, m_since;
    qint64 m_maxAt = 0;
    qint64 m_max = 0;
    int m_ticks = 0;
};

}   // namespace qflame::test
