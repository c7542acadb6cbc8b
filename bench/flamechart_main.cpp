// The flame chart at the size issue #35 names: one hour at 1,000 Hz on 8 threads (about 29 M samples), built in
// memory (no file: the readers have their own benchmark), then the chart's query and paint per frame at zoom
// levels from the whole hour to 1 ms, panned across the recording. Target: 16 ms per frame at every level.
//
//   qflame-bench-flamechart [--seconds N] [--threads N] [--frames N] [--width W] [--height H] [--png DIR]
// Prints a markdown table (bench/flamechart.sh puts it into docs/benchmarks.md).
#include "pprof/Profile.h"
#include "time/FlameChart.h"
#include "time/FlameChartPainter.h"
#include "time/Timeline.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace qflame;

namespace {

// A synthetic program: each thread serves requests, one of 12 handlers for an exponential time (mean 40 ms, a
// few for seconds), each in phases of 1 to 12 ms, each phase under a chain of 0 to 4 helpers, with the leaf
// changing at almost every sample; now and then the thread sleeps (no samples) for 5 to 200 ms.
class Program {
public:
    explicit Program(Profile &p) : m_p(p)
    {
        m_p.strings = StringTable{"", "samples", "count"};
        m_p.sampleTypes = {{1, 2}};
        m_p.sampleLocBegin = {0};
    }
    // A stack of one thread: the same frames on two threads are two samples, each with its thread.
    uint32_t sample(int thread, int handler, int phase, int chain, int leaf)
    {
        const size_t key = size_t((((thread * 12 + handler) * 6 + phase) * 5 + chain) * 4 + leaf);
        if (m_samples.size() <= key)
            m_samples.resize(key + 1, UINT32_MAX);
        if (m_samples[key] != UINT32_MAX)
            return m_samples[key];
        std::vector<std::string> rootFirst = {"main", "worker_loop", "handle_" + std::to_string(handler),
                                              "phase_" + std::to_string(handler) + "_" + std::to_string(phase)};
        for (int c = 0; c < chain; ++c)
            rootFirst.push_back("helper_" + std::to_string(c) + "_" + std::to_string(phase));
        rootFirst.push_back("leaf_" + std::to_string(leaf));
        for (auto it = rootFirst.rbegin(); it != rootFirst.rend(); ++it)
            m_p.sampleLocations.push_back(location(*it));
        m_p.sampleLocBegin.push_back(locationPosition(m_p.sampleLocations.size()));
        m_p.values.push_back(0);
        const uint32_t s = uint32_t(m_p.values.size() - 1);
        m_samples[key] = s;
        return s;
    }

private:
    uint32_t location(const std::string &name)
    {
        if (const auto it = m_locations.find(name); it != m_locations.end())
            return it->second;
        m_p.strings.push_back(name);
        Function f;
        f.id = m_p.functions.size() + 1;
        f.name = uint32_t(m_p.strings.size() - 1);
        m_p.functions.push_back(f);
        m_p.lines.push_back({uint32_t(m_p.functions.size() - 1), 1, 0});
        Location l;
        l.id = m_p.locations.size() + 1;
        l.firstLine = uint32_t(m_p.lines.size() - 1);
        l.lineCount = 1;
        m_p.locations.push_back(l);
        return m_locations[name] = uint32_t(m_p.locations.size() - 1);
    }
    Profile &m_p;
    std::vector<uint32_t> m_samples;   // by (thread, handler, phase, chain, leaf)
    std::map<std::string, uint32_t> m_locations;
};

struct ThreadState {
    std::mt19937_64 rng;
    int handler = 0, phase = 0, chain = 0;
    int64_t handlerEnd = 0, phaseEnd = 0, sleepUntil = 0;
};

std::shared_ptr<const Profile> generate(int seconds, int threads)
{
    auto profile = std::make_shared<Profile>();
    Program program(*profile);
    auto timeline = std::make_shared<Timeline>();
    Timeline &t = *timeline;
    const int64_t ms = 1000000, end = int64_t(seconds) * 1000 * ms;
    t.sample.reserve(size_t(seconds) * 1000 * size_t(threads));
    t.delta.reserve(t.sample.capacity());
    std::vector<ThreadState> state(static_cast<size_t>(threads));
    for (int i = 0; i < threads; ++i)
        state[size_t(i)].rng.seed(uint64_t(35 + i));
    std::vector<uint32_t> threadOf;
    int64_t previous = 0;
    for (int64_t tick = 0; tick < end; tick += ms)
        for (int i = 0; i < threads; ++i) {
            ThreadState &s = state[size_t(i)];
            const int64_t now = tick + i * 100000 + int64_t(s.rng() % 20000);   // 0.1 ms apart, 20 µs jitter
            if (now < s.sleepUntil)
                continue;
            if (now >= s.handlerEnd) {
                if (s.rng() % 200 == 0) {
                    s.sleepUntil = now + int64_t(5 + s.rng() % 196) * ms;
                    s.handlerEnd = 0;
                    continue;
                }
                s.handler = int(s.rng() % 12);
                std::exponential_distribution<double> length(1.0 / 40.0);
                s.handlerEnd = now + int64_t(std::min(length(s.rng), 20000.0) * double(ms)) + ms;
                s.phaseEnd = 0;
            }
            if (now >= s.phaseEnd) {
                s.phase = int(s.rng() % 6);
                s.chain = int(s.rng() % 5);
                s.phaseEnd = now + int64_t(1 + s.rng() % 12) * ms;
            }
            const uint32_t sample = program.sample(i, s.handler, s.phase, s.chain, int(s.rng() % 4));
            if (threadOf.size() <= sample)
                threadOf.resize(size_t(sample) + 1, 0);
            threadOf[sample] = uint32_t(i);
            profile->values.setWidening(sample, profile->values[sample] + 1);
            t.sample.push_back(sample);
            t.delta.push_back(uint32_t(now - previous));
            previous = now;
        }
    t.sampleThread = threadOf;
    t.sampleThread.resize(profile->values.size(), 0);
    for (int i = 0; i < threads; ++i)
        t.threadNames.push_back("bench " + std::to_string(i));
    t.weighted = {0};
    t.spanNanos = previous;
    profile->durationNanos = end;
    profile->timeline = timeline;
    profile->sourceName = "generated";
    return profile;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

}   // namespace

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    int seconds = 3600, threads = 8, frames = 30, width = 1600, height = 900;
    QString pngDir;
    const QStringList args = app.arguments();
    for (qsizetype i = 1; i + 1 < args.size(); i += 2) {
        const QString &a = args[i];
        const int v = args[i + 1].toInt();
        if (a == QLatin1String("--seconds"))
            seconds = v;
        else if (a == QLatin1String("--threads"))
            threads = v;
        else if (a == QLatin1String("--frames"))
            frames = v;
        else if (a == QLatin1String("--width"))
            width = v;
        else if (a == QLatin1String("--height"))
            height = v;
        else if (a == QLatin1String("--png"))
            pngDir = args[i + 1];
    }
    QElapsedTimer timer;
    timer.start();
    const auto profile = generate(seconds, threads);
    const double genSeconds = double(timer.nsecsElapsed()) / 1e9;
    timer.restart();
    const auto chart = FlameChart::build(profile);
    const double buildSeconds = double(timer.nsecsElapsed()) / 1e9;
    std::printf("%zu samples on %d threads over %d s (%zu stacks): generated in %.1f s; chart built in %.2f s, "
                "%.0f MB (the timeline %.0f MB), %zu levels, interval %.3f ms\n\n",
                profile->timeline->size(), threads, seconds, profile->sampleCount(), genSeconds, buildSeconds,
                double(chart->bytes()) / 1e6, double(profile->timeline->bytes()) / 1e6, chart->levels(),
                double(chart->intervalNanos()) / 1e6);

    FlameChartPainter painter;
    painter.setChart(chart);
    QImage image(width, height, QImage::Format_ARGB32_Premultiplied);
    const QPalette palette = QApplication::palette();
    std::printf("| view across %d px | level | boxes per frame (median) | query, median ms | query + paint, median ms | "
                "query + paint, max ms |\n|---|---|---|---|---|---|\n",
                width);
    const double spans[] = {double(chart->endNanos()), 600e9, 60e9, 10e9, 1e9, 100e6, 10e6, 1e6};
    const char *names[] = {"the whole hour", "10 min", "1 min", "10 s", "1 s", "100 ms", "10 ms", "1 ms"};
    {
        // The colours of the frames are worked out on first paint, once per chart, as in the window.
        QPainter p(&image);
        painter.paint(p, image.rect(), ChartView{0, double(chart->endNanos()), 0}, palette);
    }
    std::mt19937_64 rng(1);
    for (size_t z = 0; z < std::size(spans); ++z) {
        const double span = std::min(spans[z], double(chart->endNanos()));
        std::vector<double> queryMs, frameMs, boxes;
        for (int f = 0; f < frames; ++f) {
            // Panned across the recording: a new place each frame.
            const double from = span >= double(chart->endNanos())
                ? 0.0
                : double(rng() % uint64_t(double(chart->endNanos()) - span));
            const ChartView view{from, from + span, 0};
            std::vector<FlameBox> out;
            timer.restart();
            for (size_t lane = 0; lane < chart->lanes().size(); ++lane)
                chart->query(lane, int64_t(view.from), int64_t(view.to) + 1, span / width, out);
            queryMs.push_back(double(timer.nsecsElapsed()) / 1e6);
            timer.restart();
            QPainter p(&image);
            boxes.push_back(double(painter.paint(p, image.rect(), view, palette)));
            p.end();
            frameMs.push_back(double(timer.nsecsElapsed()) / 1e6);
            if (f == 0 && !pngDir.isEmpty())
                image.save(pngDir + QStringLiteral("/flamechart-bench-%1.png").arg(z));
        }
        std::printf("| %s | %zu | %.0f | %.2f | %.2f | %.2f |\n", names[z], chart->levelFor(span / width), median(boxes),
                    median(queryMs), median(frameMs), *std::max_element(frameMs.begin(), frameMs.end()));
    }
    return 0;
}
