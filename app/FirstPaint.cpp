#include "FirstPaint.h"

#include "MainWindow.h"
#include "flame/FlameGraphWidget.h"
#include "io/PhaseTrace.h"

#include <QApplication>
#include <QEvent>
#include <QFile>
#include <QTimer>

#include <cstdio>
#include <ctime>
#include <iostream>

#include <unistd.h>

namespace qflame {

FirstPaintProbe::FirstPaintProbe(MainWindow &window) : QObject(&window)
{
    qApp->installEventFilter(this);
    connect(&window, &MainWindow::loadFinished, this, [this, &window](bool ok) {
        if (ok || m_done)
            return;
        m_done = true;
        std::cerr << "qflame: " << window.lastError().toStdString() << "\n";
        std::fflush(stderr);
        std::_Exit(2);
    });
}

qint64 FirstPaintProbe::millisecondsSinceProcessStart()
{
    // Field 22 of /proc/self/stat: the start time in clock ticks since boot. The command name (field 2) is in
    // parentheses and may hold spaces, so the fields are counted from its closing parenthesis.
    QFile stat(QStringLiteral("/proc/self/stat"));
    if (!stat.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray text = stat.readAll();
    const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
    if (fields.size() < 20)
        return -1;
    const double startSeconds = fields[19].toDouble() / double(sysconf(_SC_CLK_TCK));
    timespec now{};
    clock_gettime(CLOCK_BOOTTIME, &now);
    return qint64((double(now.tv_sec) + double(now.tv_nsec) / 1e9 - startSeconds) * 1000 + 0.5);
}

bool FirstPaintProbe::eventFilter(QObject *watched, QEvent *event)
{
    if (!m_done && event->type() == QEvent::Paint) {
        const auto *graph = qobject_cast<FlameGraphWidget *>(watched);
        if (graph && graph->source()) {
            m_done = true;
            tracePhase("first paint");
            // Once this paint event has been handled: the frame is on the backing store then.
            QTimer::singleShot(0, this, [] {
                std::cout << "first paint: " << millisecondsSinceProcessStart() << " ms" << std::endl;
                std::_Exit(0);
            });
        }
    }
    return QObject::eventFilter(watched, event);
}

}   // namespace qflame
