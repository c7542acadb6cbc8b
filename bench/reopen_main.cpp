// qflame-bench-reopen: whether closing a tab gives its memory back. One window (offscreen unless a display is
// set) opens FILE, paints it, and closes its tab, TIMES times (default 50), as a user does with File > Open and
// the tab's close button. Prints the resident memory after the first open, after the first close, after the
// last open and after the last close, and exits 0 when the memory after the last close is at most 10% above
// the memory after the first open (the bound), 1 otherwise. With --trim, each measurement is taken
// after malloc_trim(0): glibc keeps freed memory for its next allocations unless asked to give it back.
//
//   qflame-bench-reopen [--trim] FILE [TIMES]
#include "MainWindow.h"
#include "ResidentMemory.h"
#include "flame/FlameGraphWidget.h"

#include <QApplication>
#include <QEventLoop>
#include <QTabWidget>
#include <QTimer>

#include <malloc.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

// Events for `ms` milliseconds: deleteLater, the frees the panes hand to workers, a repaint.
void settle(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

bool g_trim = false;

double measure()
{
    settle(200);
    if (g_trim)
        malloc_trim(0);
    return qflame::test::residentMb();
}

}   // namespace

int main(int argc, char **argv)
{
    int arg = 1;
    if (arg < argc && std::string(argv[arg]) == "--trim") {
        g_trim = true;
        ++arg;
    }
    if (arg >= argc) {
        std::fprintf(stderr, "usage: qflame-bench-reopen [--trim] FILE [TIMES]\n");
        return 2;
    }
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QString file = QString::fromLocal8Bit(argv[arg]);
    const int times = arg + 1 < argc ? std::atoi(argv[arg + 1]) : 50;
    qflame::MainWindow window;
    window.resize(1280, 800);
    window.show();
    double firstOpen = 0, firstClose = 0, lastOpen = 0, lastClose = 0;
    for (int i = 0; i < times; ++i) {
        QEventLoop loop;
        bool ok = false;
        const auto connection = QObject::connect(&window, &qflame::MainWindow::loadFinished, &loop, [&](bool good) {
            ok = good;
            loop.quit();
        });
        window.openFiles({file});
        loop.exec();
        QObject::disconnect(connection);
        if (!ok) {
            std::fprintf(stderr, "qflame-bench-reopen: %s\n", qPrintable(window.lastError()));
            return 2;
        }
        window.flameGraph()->repaint();   // painted, as on screen: the label cache and the frames are made
        if (i == 0)
            firstOpen = measure();
        if (i == times - 1)
            lastOpen = measure();
        Q_EMIT window.tabs()->tabCloseRequested(0);   // the tab's close button
        if (i == 0)
            firstClose = measure();
        else
            settle(0);
    }
    lastClose = measure();
    auto line = [](const char *what, double mb) {
        std::printf("%-24s %8.1f MB%s\n", what, mb, g_trim ? " (after malloc_trim(0))" : "");
    };
    line("after the first open:", firstOpen);
    line("after the first close:", firstClose);
    line("after the last open:", lastOpen);
    line("after the last close:", lastClose);
    const double ratio = lastClose / firstOpen;
    std::printf("opened and closed %d times: last close / first open = %.3f (bound 1.10)\n", times, ratio);
    return ratio <= 1.10 ? 0 : 1;
}
