// Layout and painting at 3840x2160: what a repaint of the flamegraph costs on a 4K screen.
#include "BenchTrees.h"

#include "flame/FlameGraphWidget.h"
#include "flame/FlamePainter.h"
#include "flame/FlameSource.h"
#include "layout/FlameLayout.h"

#include <QImage>
#include <QPainter>

#include <benchmark/benchmark.h>

#include <cstdlib>

namespace qflame::bench {

namespace {

constexpr int kWidth = 3840, kHeight = 2160;

// Where a painted frame goes when QFLAME_BENCH_SAVE is set: to look at what was measured.
void save(const QImage &image, const char *name, int64_t nodes)
{
    if (const char *dir = getenv("QFLAME_BENCH_SAVE"))
        image.save(QString::fromUtf8(dir) + QStringLiteral("/%1-%2.png").arg(QLatin1String(name)).arg(nodes));
}

// FlameLayout of a call tree: offsets and subtree heights, once per tree.
void BM_Layout(benchmark::State &state)
{
    const auto tree = treeOfNodes(uint64_t(state.range(0)));
    for (auto _ : state)
        benchmark::DoNotOptimize(FlameLayout(*tree));
    state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(tree->size()));
}

// The rectangles of a 3840-pixel-wide view of the whole tree, as many levels as fit in 2160 pixels.
void BM_VisibleRects(benchmark::State &state)
{
    const auto tree = treeOfNodes(uint64_t(state.range(0)));
    const FlameLayout layout(*tree);
    FlameGraphWidget probe;   // for the row height the widget uses
    const uint32_t rows = uint32_t(kHeight / probe.rowHeight());
    size_t rects = 0;
    for (auto _ : state) {
        auto v = layout.visible(layout.fullViewport(), kWidth, 1.0, 0, rows);
        rects = v.size();
        benchmark::DoNotOptimize(v);
    }
    state.counters["rects"] = double(rects);
}

// FlamePainter alone into a 3840x2160 image: the frames of the screen, root at the bottom.
void BM_Paint4K(benchmark::State &state)
{
    const auto tree = treeOfNodes(uint64_t(state.range(0)));
    const CallTreeSource source(tree);
    FlameGraphWidget probe;
    FlamePainter painter(source);
    painter.view = source.layout().fullViewport();
    painter.rowHeight = probe.rowHeight();
    painter.font = probe.font();
    painter.options.palette = probe.palette();
    LabelCache labels;
    labels.clear(source.frameCount());
    painter.labelCache = &labels;
    QImage image(kWidth, kHeight, QImage::Format_ARGB32_Premultiplied);
    for (auto _ : state) {
        QPainter p(&image);
        painter.paint(p, image.rect(), kWidth, kHeight);
    }
    save(image, "paint4k", state.range(0));
}

// The widget at 3840 pixels wide, the bottom 2160 rows of it (the root's end of the flame) rendered into an
// RGB32 image as into a window's backing store.
struct Screen4K {
    explicit Screen4K(std::shared_ptr<const CallTree> tree)
    {
        widget.setTree(std::move(tree));
        const int height = std::max(kHeight, widget.sizeHint().height());
        widget.resize(kWidth, height);
        region = QRegion(0, height - kHeight, kWidth, kHeight);
        widget.render(&image, QPoint(), region);   // warms the label cache, as the first paint of a tab does
    }
    void repaint() { widget.render(&image, QPoint(), region, QWidget::RenderFlags()); }

    FlameGraphWidget widget;
    QRegion region;
    QImage image{kWidth, kHeight, QImage::Format_RGB32};
};

// A full repaint of the widget on a 3840x2160 screen: the paint event after a change that repaints every frame
// (scheme, search), which paints the frames straight into the window's pixels and the outlines over them.
void BM_Repaint4K(benchmark::State &state)
{
    Screen4K screen(treeOfNodes(uint64_t(state.range(0))));
    for (auto _ : state) {
        screen.widget.setColorBlindSafe(false);   // a change that repaints the view, with nothing drawn differently
        screen.repaint();
    }
    save(screen.image, "repaint4k", state.range(0));
}

// The same repaint while zooming: every iteration moves between the whole view and one 10% narrower, so frames
// change width, labels are elided anew and no per-label cache helps.
void BM_ZoomRepaint4K(benchmark::State &state)
{
    Screen4K screen(treeOfNodes(uint64_t(state.range(0))));
    const Viewport whole = screen.widget.viewport();
    const Viewport narrower{whole.begin + whole.span() * 0.05, whole.end - whole.span() * 0.05};
    bool zoomed = false;
    for (auto _ : state) {
        zoomed = !zoomed;
        screen.widget.showState(screen.widget.zoomRoot(), zoomed ? narrower : whole);
        screen.repaint();
    }
}

// The floors under a 4K repaint, whatever is drawn: filling every pixel once, and copying a 4K image onto
// another (what the widget does with its cache pixmap).
void BM_Fill4K(benchmark::State &state)
{
    QImage image(kWidth, kHeight, QImage::Format_ARGB32_Premultiplied);
    for (auto _ : state) {
        QPainter p(&image);
        p.fillRect(image.rect(), QColor(250, 250, 250));
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(image.sizeInBytes()));
}

void BM_Blit4K(benchmark::State &state)
{
    QImage from(kWidth, kHeight, QImage::Format_ARGB32_Premultiplied), to(from.size(), from.format());
    from.fill(QColor(250, 250, 250));
    for (auto _ : state) {
        QPainter p(&to);
        p.drawImage(QPoint(), from);
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(from.sizeInBytes()));
}

void nodes(benchmark::internal::Benchmark *b)
{
    for (int64_t n : {10000, 100000, 1000000})
        b->Arg(n);
    b->Unit(benchmark::kMillisecond);
}

}   // namespace

BENCHMARK(BM_Fill4K)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Blit4K)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Layout)->Apply(nodes);
BENCHMARK(BM_VisibleRects)->Apply(nodes);
BENCHMARK(BM_Paint4K)->Apply(nodes);
BENCHMARK(BM_Repaint4K)->Apply(nodes);
BENCHMARK(BM_ZoomRepaint4K)->Apply(nodes);

}   // namespace qflame::bench
