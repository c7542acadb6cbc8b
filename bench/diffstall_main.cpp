// qflame-bench-diffstall: how long the window stops answering when a comparison's options change. One window
// (offscreen unless a display is set) opens BASE and NEW as a comparison, then changes the diff bar's options one
// after another, as a user does; for each it prints the longest time the GUI thread went without running a 10 ms
// timer between the change and the view showing it (DiffView::applied), and how long that took. Exits 0 when every
// gap is under 50 ms (issue #30's bound), 1 otherwise.
//
//   qflame-bench-diffstall BASE NEW
#include "GapMeter.h"
#include "MainWindow.h"
#include "compare/DiffView.h"
#include "document/DocumentPane.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>

#include <cstdio>
#include <functional>
#include <utility>
#include <vector>

using namespace qflame;

namespace {

constexpr qint64 kBoundMs = 50;

void settle(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

}   // namespace

int main(int argc, char **argv)
{
    if (argc != 3) {
        std::fprintf(stderr, "usage: qflame-bench-diffstall BASE NEW\n");
        return 2;
    }
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    MainWindow window;
    window.resize(1280, 800);
    window.show();
    {
        QEventLoop loop;
        bool ok = false;
        QObject::connect(&window, &MainWindow::loadFinished, &loop, [&](bool good) {
            ok = good;
            loop.quit();
        });
        window.compareFiles({QString::fromLocal8Bit(argv[1])}, {QString::fromLocal8Bit(argv[2])});
        loop.exec();
        if (!ok || !window.currentDiff()) {
            std::fprintf(stderr, "qflame-bench-diffstall: %s\n", qPrintable(window.lastError()));
            return 2;
        }
    }
    DiffView *view = window.currentDiff()->diffView();
    std::printf("diff of %zu nodes\n", size_t(view->diff()->size()));
    settle(300);

    const std::vector<std::pair<const char *, std::function<void()>>> changes = {
        {"noise K 2 -> 3", [view] { DiffOptions o = view->options(); o.noiseK = 3; view->setOptions(o); }},
        {"factor 0.5", [view] {
             DiffOptions o = view->options();
             o.normalization = Normalization::Factor;
             o.factor = 0.5;
             view->setOptions(o);
         }},
        {"width: comparison", [view] { view->setWidthMode(DiffWidth::Comparison); }},
        {"colour by self", [view] { view->setColoring({true, 0}); }},
        {"back to none", [view] { DiffOptions o = view->options(); o.normalization = Normalization::None; view->setOptions(o); }},
    };
    bool within = true;
    for (const auto &[name, change] : changes) {
        test::GapMeter meter;
        QElapsedTimer clock;
        QEventLoop loop;
        const auto connection = QObject::connect(view, &DiffView::applied, &loop, &QEventLoop::quit);
        meter.start();
        clock.start();
        change();
        if (!view->isApplied())
            loop.exec();
        const qint64 shownMs = clock.elapsed();
        const qint64 gap = meter.stop();
        QObject::disconnect(connection);
        within = within && gap < kBoundMs;
        std::printf("diff options: %-18s longest GUI gap %3lld ms, shown after %4lld ms\n", name, gap, shownMs);
        std::fflush(stdout);
        settle(200);
    }
    return within ? 0 : 1;
}
