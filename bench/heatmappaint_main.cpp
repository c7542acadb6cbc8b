// qflame-bench-heatmappaint: how soon after the load the Time tab's heatmap is painted (issue #35's "the heatmap
// painted within 1 s of the load"), offscreen unless a display is set.
//   --window FILE: a MainWindow opens FILE as `qflame FILE` does, with the Time pane open; from the tab's
//     loadFinished (the profile read, its tree built and shown, the Time pane handed the profile: the heatmap and
//     the flame chart then compute on the pool side by side) to the end of the heatmap's first paint with cells.
//     The window reads under the default 1 GiB cap, as a user's window does, or under --max-size MIB's, as
//     `qflame --max-size MIB FILE` does (the hour of perf script is 11 GB).
//   --pane FILE: the file read here (no cap: the hour is ~11 GB), then a TimePane shown and handed it; from
//     setInputs to the end of the first paint with cells. The same widgets and jobs, without the tab's tree.
// Prints "name seconds" lines and the peak RSS.
//
//   qflame-bench-heatmappaint --window [--max-size MIB] FILE
//   qflame-bench-heatmappaint --pane FILE
#include "MainWindow.h"
#include "controls/SecondaryPanes.h"
#include "document/ProfilePane.h"
#include "formats/ProfileInput.h"
#include "time/TimeChart.h"
#include "time/TimePane.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>

#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace qflame;

namespace {

// Runs the paint of the chart inside the filter, so that the time taken is the end of the first paint that shows
// cells.
class PaintWatch : public QObject {
public:
    explicit PaintWatch(TimeChart *chart) : m_chart(chart) { chart->installEventFilter(this); }
    qint64 paintedAt = -1;   // ms on `clock`
    QElapsedTimer clock;
    QEventLoop loop;

protected:
    bool eventFilter(QObject *watched, QEvent *e) override
    {
        if (watched != m_chart || e->type() != QEvent::Paint || m_chart->heatmap().columns == 0 || paintedAt >= 0)
            return false;
        m_chart->removeEventFilter(this);
        QApplication::sendEvent(m_chart, e);   // the paint itself, now
        paintedAt = clock.elapsed();
        loop.quit();
        return true;
    }

private:
    TimeChart *m_chart;
};

long peakRssKb()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

}   // namespace

int main(int argc, char **argv)
{
    const bool window = argc >= 3 && std::strcmp(argv[1], "--window") == 0;
    if (window && argc == 5 && std::strcmp(argv[2], "--max-size") == 0 && std::atoll(argv[3]) > 0) {
        DocumentPane::setMaxReadBytes(uint64_t(std::atoll(argv[3])) << 20);
        argv[2] = argv[4];
        argc = 3;
    }
    if (argc != 3 || (!window && std::strcmp(argv[1], "--pane") != 0)) {
        std::fprintf(stderr, "usage: qflame-bench-heatmappaint --window [--max-size MIB] FILE | --pane FILE\n");
        return 2;
    }
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QString path = QString::fromLocal8Bit(argv[2]);
    QElapsedTimer total;
    total.start();
    if (window) {
        MainWindow w;
        w.resize(1600, 900);
        w.show();
        w.openArguments({path});
        ProfilePane *pane = w.currentProfile();
        auto *time = pane ? pane->findChild<TimePane *>() : nullptr;
        if (!time) {
            std::fprintf(stderr, "qflame-bench-heatmappaint: no profile tab for %s\n", argv[2]);
            return 1;
        }
        pane->secondaryPanes()->showPane(time);
        PaintWatch watch(time->chart());
        qint64 loadedAt = -1;
        QObject::connect(pane, &DocumentPane::loadFinished, &watch, [&](bool ok, const QString &error) {
            if (!ok) {
                std::fprintf(stderr, "qflame-bench-heatmappaint: %s\n", qPrintable(error));
                std::exit(1);
            }
            loadedAt = watch.clock.elapsed();
        });
        watch.clock.start();
        watch.loop.exec();
        std::printf("load %.3f\nheatmap_painted_after_load %.3f\ncolumns %zu\n", double(loadedAt) / 1e3,
                    double(watch.paintedAt - loadedAt) / 1e3, time->chart()->heatmap().columns);
    } else {
        ReadOptions options;
        options.maxDecompressedBytes = uint64_t(1) << 40;
        QElapsedTimer read;
        read.start();
        const auto profile = readProfileFile(path, options);
        std::printf("read %.3f\n", double(read.elapsed()) / 1e3);
        TimePane pane;
        pane.resize(1600, 600);
        pane.show();
        PaintWatch watch(pane.chart());
        watch.clock.start();
        pane.setInputs({profile}, profile->effectiveDefaultType(), {});
        watch.loop.exec();
        std::printf("heatmap_painted_after_setinputs %.3f\ncolumns %zu\n", double(watch.paintedAt) / 1e3,
                    pane.chart()->heatmap().columns);
    }
    std::printf("peak_rss_kb %ld\n", peakRssKb());
    std::fflush(stdout);
    std::_Exit(0);   // the profile's millions of samples freed by the OS, not one by one
}
