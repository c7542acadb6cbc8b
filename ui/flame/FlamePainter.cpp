#include "flame/FlamePainter.h"

#include "io/BesideThread.h"

#include <QPaintEngine>
#include <QPainter>
#include <QRawFont>
#include <QSvgGenerator>
#include <QTextLayout>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <optional>
#include <thread>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace qflame {

namespace {

// The 32-bit image a painter's pixels end up in: the image it was opened on, or, for a widget, the window's
// backing store, which the raster engine paints on (QPainter::device() names the widget). None when the pixels
// go elsewhere (SVG, a printer), when the painter clips or blends, or when the part of the window Qt is updating
// (the system clip, in device pixels) does not cover `area`: the direct writes below must not touch pixels
// outside the update, which may belong to another widget.
struct RasterTarget {
    QImage *image;
    QTransform transform;   // logical coordinates -> the image's pixels
    QRect pixels;           // `area` in the image's pixels, inside the image
};

std::optional<RasterTarget> rasterTarget(QPainter &p, const QRect &area)
{
    QPaintEngine *engine = p.paintEngine();
    QPaintDevice *device = engine ? engine->paintDevice() : nullptr;
    if (!device || device->devType() != QInternal::Image || p.hasClipping() ||
        p.compositionMode() != QPainter::CompositionMode_SourceOver)
        return std::nullopt;
    auto *image = static_cast<QImage *>(device);
    const QImage::Format f = image->format();
    if (f != QImage::Format_ARGB32_Premultiplied && f != QImage::Format_RGB32 && f != QImage::Format_ARGB32)
        return std::nullopt;
    const QTransform t = p.deviceTransform();
    if (t.type() > QTransform::TxScale)
        return std::nullopt;
    const QRect pixels = t.mapRect(QRectF(area)).toAlignedRect().intersected(image->rect());
    const QRegion clip = engine->systemClip();
    if (!clip.isEmpty() && !(QRegion(pixels) - clip).isEmpty())
        return std::nullopt;
    return RasterTarget{image, t, pixels};
}

// Solid fills written straight into the pixels (the widget's backing store, PNG export), clipped to the area
// being painted: QPainter::fillRect costs a chain of calls per scanline, and a 4K view of a million-node tree
// has hundreds of thousands of scanline pieces one to three pixels wide (merged columns are one pixel wide and
// hundreds of rows tall). Pixels are those whose centres lie in the rectangle, the rule of QPainter's aliased
// fills.
class DirectFill {
public:
    explicit DirectFill(const RasterTarget &t)
        : m_bits(t.image->bits()), m_stride(t.image->bytesPerLine()), m_clip(t.pixels), m_transform(t.transform)
    {
    }

    // c must be opaque (it then has one representation in all three formats).
    void fill(const QRectF &r, QColor c) const
    {
        const QRectF d = m_transform.mapRect(r);
        const int x0 = std::max(m_clip.left(), qRound(d.left())), x1 = std::min(m_clip.right() + 1, qRound(d.right()));
        const int y0 = std::max(m_clip.top(), qRound(d.top())), y1 = std::min(m_clip.bottom() + 1, qRound(d.bottom()));
        if (x1 <= x0 || y1 <= y0)
            return;
        const quint32 pixel = c.rgb() | 0xff000000u;
        for (int y = y0; y < y1; ++y)
            std::fill_n(reinterpret_cast<quint32 *>(m_bits + qsizetype(y) * m_stride) + x0, x1 - x0, pixel);
    }

private:
    uchar *m_bits;
    qsizetype m_stride;
    QRect m_clip;
    QTransform m_transform;
};

// The frames of a view as bands of one depth each, written into the image one pixel row at a time: each band's
// row is composed in a small buffer (the background, then its spans) and copied to the band's pixel rows, so
// every pixel of the image is written once, with no background pass under the frames and no per-frame call
// per scanline. Needs a 32-bit image and a painter that only translates by whole pixels.
struct Span {
    int x0, x1;
    quint32 pixel;
    bool coversGap;   // a merged column that continues into the next band across the gap row
};

// Merged columns (runs of sub-pixel frames, as tall as their deepest subtree) as one depth interval per pixel
// column of the view, [first, last]. A column spans many bands: a span in every band for each of them made
// most of a 4K view's spans (124,000 of 131,000 for a million-node tree) and half of its composing time.
// A column that cannot join the interval already at its pixels (the depths neither overlap) stays a span.
struct MergedColumns {
    std::vector<int> first, last;   // first > last: no merged column at that pixel
    quint32 pixel = 0;
    int x0 = INT_MAX, x1 = INT_MIN, dMin = INT_MAX, dMax = INT_MIN;   // where there is any

    MergedColumns(int width, quint32 mid)
        : first(size_t(std::max(width, 0)), INT_MAX), last(first.size(), INT_MIN), pixel(mid)
    {
    }
    bool add(int a, int b, int d0, int d1)
    {
        a = std::max(a, 0);
        b = std::min(b, int(first.size()));
        for (int x = a; x < b; ++x)
            if (first[size_t(x)] <= last[size_t(x)] && (d0 > last[size_t(x)] || d1 < first[size_t(x)]))
                return false;
        for (int x = a; x < b; ++x) {
            first[size_t(x)] = std::min(first[size_t(x)], d0);
            last[size_t(x)] = std::max(last[size_t(x)], d1);
        }
        if (a < b) {
            x0 = std::min(x0, a);
            x1 = std::max(x1, b);
            dMin = std::min(dMin, d0);
            dMax = std::max(dMax, d1);
        }
        return true;
    }
    // Paints the merged columns into a band's pixel row and its gap row (the last row, against the next band
    // away from the root), both already filled with the background, for pixels [left, left + width): a column
    // covers the gap row where it continues into that next band.
    void compose(int depth, bool icicle, int left, int width, quint32 *row, quint32 *gap) const
    {
        if (depth < dMin || depth > dMax)
            return;
        const int a = std::max(x0, left), b = std::min(x1, left + width);
        for (int x = a; x < b; ++x) {
            const int f = first[size_t(x)], l = last[size_t(x)];
            if (f <= depth && depth <= l) {
                row[x - left] = pixel;
                if (icicle ? depth < l : depth > f)
                    gap[x - left] = pixel;
            }
        }
    }
};

// From these sizes on, a repaint streams its rows past the caches (RowWriter) and copies them on two threads
// (paintBands).
constexpr size_t kStreamFromBytes = size_t(8) << 20;
constexpr size_t kTwoThreadsFromBytes = size_t(8) << 20;

// Copies composed rows into the image. A full 4K repaint writes 33 MB: with ordinary stores every destination
// line is first read into the caches, evicting the layout that the next repaint walks again; streaming stores
// skip that (a zoom repaint of a million-node tree measured 5.5-6.0 ms against 6.2-7.1 ms, the layout walk 0.9
// against 1.2 ms). Small updates (a hover) keep ordinary stores: the window flush reads those pixels at once.
class RowWriter {
public:
    explicit RowWriter(size_t totalBytes) : m_stream(totalBytes >= kStreamFromBytes) {}
    ~RowWriter()
    {
#if defined(__SSE2__)
        if (m_stream)
            _mm_sfence();   // the streamed pixels are in memory before anyone reads the image
#endif
    }
    RowWriter(const RowWriter &) = delete;
    RowWriter &operator=(const RowWriter &) = delete;

    void write(quint32 *dst, const quint32 *src, size_t n) const
    {
#if defined(__SSE2__)
        if (m_stream) {
            size_t i = 0;
            for (; i < n && (reinterpret_cast<quintptr>(dst + i) & 15) != 0; ++i)
                dst[i] = src[i];
            for (; i + 4 <= n; i += 4)
                _mm_stream_si128(reinterpret_cast<__m128i *>(dst + i),
                                 _mm_loadu_si128(reinterpret_cast<const __m128i *>(src + i)));
            for (; i < n; ++i)
                dst[i] = src[i];
            return;
        }
#endif
        memcpy(dst, src, n * sizeof(quint32));
    }

private:
    bool m_stream;
};

bool paintBands(QPainter &p, const QRect &area, int h, int rowHeight, bool icicle, int d0, int d1,
                const MergedColumns &columns, const std::vector<std::vector<Span>> &bands, quint32 background)
{
    const std::optional<RasterTarget> raster = rasterTarget(p, area);
    if (!raster)
        return false;
    const QTransform &t = raster->transform;
    if (t.type() > QTransform::TxTranslate || t.dx() != std::floor(t.dx()) || t.dy() != std::floor(t.dy()))
        return false;
    QImage *image = raster->image;
    uchar *const bits = image->bits();   // once: scanLine() checks for a detach on every call
    const qsizetype stride = image->bytesPerLine();
    const int dx = int(t.dx()), dy = int(t.dy());
    // The part of the area inside the image, in widget coordinates.
    const QRect target = raster->pixels.translated(-dx, -dy);
    if (target.isEmpty())
        return true;
    const int left = target.left(), width = target.width();
    const size_t n = static_cast<size_t>(width);
    const size_t totalBytes = n * size_t(target.height()) * sizeof(quint32);
    // Rows [yBegin, yEnd): each band's two pixel rows (its body and its last, gap row) composed once, then
    // copied to every row of the band.
    auto paintRows = [&](int yBegin, int yEnd) {
        const RowWriter writer(totalBytes);   // on the thread that writes: its fence orders that thread's stores
        std::vector<quint32> row(n), gap(n), empty(n, background);
        int composed = INT_MIN;
        for (int y = yBegin; y < yEnd; ++y) {
            int depth, inBand;
            if (icicle) {
                depth = y / rowHeight;
                inBand = y % rowHeight;
            } else {
                depth = y < h ? (h - 1 - y) / rowHeight : -1;
                inBand = y < h ? rowHeight - 1 - (h - 1 - y) % rowHeight : 0;
            }
            const quint32 *src = empty.data();
            if (depth >= d0 && depth <= d1) {
                if (composed != depth) {
                    std::fill(row.begin(), row.end(), background);
                    std::fill(gap.begin(), gap.end(), background);
                    columns.compose(depth, icicle, left, width, row.data(), gap.data());
                    for (const Span &sp : bands[size_t(depth - d0)]) {
                        const int a = std::max(sp.x0, left), b = std::min(sp.x1, left + width);
                        if (a >= b)
                            continue;
                        std::fill(row.begin() + (a - left), row.begin() + (b - left), sp.pixel);
                        if (sp.coversGap)
                            std::fill(gap.begin() + (a - left), gap.begin() + (b - left), sp.pixel);
                    }
                    composed = depth;
                }
                src = inBand == rowHeight - 1 ? gap.data() : row.data();
            }
            writer.write(reinterpret_cast<quint32 *>(bits + qsizetype(y + dy) * stride) + (left + dx), src, n);
        }
    };
    // A full 4K repaint writes 33 MB, which one core copies at well under what the memory takes: the upper half
    // of the rows goes to a second thread (the same pixels either way; each half composes its own bands).
    // Small updates stay on this thread, where a thread would cost more than it saves.
    const int top = target.top(), end = target.bottom() + 1;
    if (totalBytes >= kTwoThreadsFromBytes && std::thread::hardware_concurrency() >= 2) {
        const int split = top + (end - top) / 2;
        runBeside([&] { paintRows(top, split); }, [&] { paintRows(split, end); });
    } else {
        paintRows(top, end);
    }
    return true;
}

}   // namespace

void LabelCache::clear(size_t frameCount)
{
    m_index = FlatHashMap(256);
    m_entries.clear();
    m_frameCount = frameCount;
    m_font = QFont();
    m_ellipsis = QGlyphRun();
}

LabelCache::Entry &LabelCache::entry(FrameId frame)
{
    bool inserted = false;
    const uint32_t at = m_index.findOrInsert(frame, uint32_t(m_entries.size()), &inserted);
    if (inserted)
        m_entries.push_back(std::make_unique<Entry>());
    return *m_entries[at];
}

void FlamePainter::drawLabel(QPainter &p, NodeId n, const QRectF &box, const QFontMetrics &fm) const
{
    const QRectF textRect = box.adjusted(3, 0, -2, 0);   // past the left edge, labels start at the visible part
    auto utf16 = [&] {
        const std::string &b = m_source.labelBytes(n);
        return QString::fromUtf8(b.data(), qsizetype(b.size()));
    };
    auto drawString = [&](const QString &text) {
        p.drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft, fm.elidedText(text, Qt::ElideRight, int(textRect.width())));
    };
    // Glyph runs only for pixels (an image, or a widget's backing store): a vector device (SVG) must get text,
    // which stays searchable and selectable.
    if (!labelCache || !p.paintEngine() || p.paintEngine()->type() != QPaintEngine::Raster) {
        drawString(utf16());
        return;
    }
    LabelCache &cache = *labelCache;
    const FrameId frame = m_source.frame(n);
    if (frame >= cache.m_frameCount) {
        drawString(utf16());
        return;
    }
    if (cache.m_font != font) {   // glyphs belong to one font: a new font starts the cache again
        cache.clear(cache.m_frameCount);
        cache.m_font = font;
    }
    LabelCache::Entry &e = cache.entry(frame);
    if (!e.shaped) {
        e.shaped = true;
        e.text = utf16();
        QTextLayout layout(e.text, font, p.device());
        layout.setCacheEnabled(true);
        layout.beginLayout();
        QTextLine line = layout.createLine();
        layout.endLayout();
        const QList<QGlyphRun> runs = line.isValid() ? layout.glyphRuns() : QList<QGlyphRun>();
        if (runs.size() == 1 && !runs.front().isRightToLeft() && !runs.front().glyphIndexes().isEmpty()) {
            e.run = runs.front();
            const QList<QPointF> pos = e.run.positions();
            const QList<QPointF> adv = e.run.rawFont().advancesForGlyphIndexes(e.run.glyphIndexes());
            e.ends.resize(size_t(pos.size()));
            for (qsizetype i = 0; i < pos.size(); ++i)   // positions are ascending in a left-to-right run
                e.ends[size_t(i)] = pos[i].x() + (i < adv.size() ? adv[i].x() : 0);
            e.height = line.height();
            e.simple = true;
        }
        if (e.simple && cache.m_ellipsis.glyphIndexes().isEmpty()) {
            const QRawFont raw = e.run.rawFont();
            const QList<quint32> g = raw.glyphIndexesForString(QStringLiteral("\u2026"));
            if (!g.isEmpty() && g.front() != 0) {
                cache.m_ellipsis.setRawFont(raw);
                cache.m_ellipsis.setGlyphIndexes(g);
                cache.m_ellipsisWidth = raw.advancesForGlyphIndexes(g).value(0).x();
            }
        }
    }
    if (!e.simple || cache.m_ellipsis.glyphIndexes().isEmpty()) {
        drawString(e.text);
        return;
    }
    const QPointF origin(textRect.left(), textRect.top() + (textRect.height() - e.height) / 2);
    const qreal width = textRect.width();
    if (e.ends.back() <= width) {
        p.drawGlyphRun(origin, e.run);
        return;
    }
    // The longest prefix that leaves room for the ellipsis, like Qt::ElideRight.
    const auto fit = std::upper_bound(e.ends.begin(), e.ends.end(), width - cache.m_ellipsisWidth) - e.ends.begin();
    // Kept for the next paint: a full repaint at the same zoom (search, colours, a resize in height) elides every
    // label to the same length. Building the run is about a quarter of an elided label's cost (1.2 of 5 us;
    // the rest is Qt drawing the glyphs).
    if (e.elidedFit == fit) {
        p.drawGlyphRun(origin, e.elided);
        return;
    }
    QList<quint32> glyphs = e.run.glyphIndexes().mid(0, fit);
    QList<QPointF> positions = e.run.positions().mid(0, fit);
    const qreal baseline = e.run.positions().front().y();
    glyphs.append(cache.m_ellipsis.glyphIndexes().front());
    positions.append(QPointF(fit > 0 ? e.ends[size_t(fit - 1)] : 0, baseline));
    e.elided = QGlyphRun();
    e.elided.setRawFont(e.run.rawFont());
    e.elided.setGlyphIndexes(glyphs);
    e.elided.setPositions(positions);
    e.elidedFit = fit;
    p.drawGlyphRun(origin, e.elided);
}

void FlamePainter::paint(QPainter &p, const QRect &area, int w, int h) const
{
    const QPalette &pal = options.palette;
    const FlameLayout &layout = m_source.layout();
    auto yOf = [&](uint32_t depth) { return icicle ? int(depth) * rowHeight : h - int(depth + 1) * rowHeight; };
    // Depths that intersect the area.
    int d0, d1;
    if (icicle) {
        d0 = area.top() / rowHeight;
        d1 = area.bottom() / rowHeight;
    } else {
        d0 = std::max(0, (h - 1 - area.bottom()) / rowHeight);
        d1 = (h - 1 - area.top()) / rowHeight;
    }
    const QColor background = pal.color(QPalette::Base), mid = pal.color(QPalette::Mid);
    const bool searching = matches && !matches->empty();
    const std::vector<FlameRect> rects =
        d1 < d0 ? std::vector<FlameRect>() : layout.visible(view, w, 1.0, uint32_t(d0), uint32_t(d1 - d0 + 1));
    auto merged = [&](const FlameRect &r) {   // a run of sub-pixel frames: as tall as their deepest subtree
        const double x = std::max(r.x, -1.0), right = std::min(r.x + r.width, double(w) + 1);
        const uint32_t top = r.depth + r.rows - 1;
        return QRectF(x, icicle ? yOf(r.depth) : yOf(top), std::max(right - x, 1.0), r.rows * rowHeight - 1);
    };
    auto box = [&](const FlameRect &r) {
        const double x = std::max(r.x, -1.0), right = std::min(r.x + r.width, double(w) + 1);
        return QRectF(x, yOf(r.depth), right - x - (right - x >= 3 ? 1 : 0), rowHeight - 1);
    };
    auto color = [&](const FlameRect &r) {
        QColor c = m_source.color(r.node, options);
        return searching && !(*matches)[m_source.frame(r.node)] ? dimmed(c, background) : c;
    };

    // Fills: as bands straight into the image where possible, else rectangle by rectangle.
    bool filled = false;
    if (d1 >= d0 && background.alpha() == 255 && mid.alpha() == 255 && rowHeight >= 2) {
        std::vector<std::vector<Span>> bands(size_t(d1 - d0 + 1));
        MergedColumns columns(w, mid.rgb());
        for (const FlameRect &r : rects) {   // merged columns first: frames are painted over them
            if (!r.merged)
                continue;
            const QRectF m = merged(r);
            const int x0 = qRound(m.left()), x1 = qRound(m.right());
            const uint32_t last = r.depth + r.rows - 1;
            if (columns.add(x0, x1, int(r.depth), int(last)))
                continue;
            for (uint32_t d = std::max(r.depth, uint32_t(d0)); d <= std::min(last, uint32_t(d1)); ++d)
                bands[d - uint32_t(d0)].push_back({x0, x1, mid.rgb(), icicle ? d < last : d > r.depth});
        }
        bool opaque = true;
        for (const FlameRect &r : rects) {
            if (r.merged)
                continue;
            const QRectF b = box(r);
            const QColor c = color(r);
            opaque = opaque && c.alpha() == 255;
            bands[r.depth - uint32_t(d0)].push_back({qRound(b.left()), qRound(b.right()), c.rgb(), false});
        }
        filled = opaque && paintBands(p, area, h, rowHeight, icicle, d0, d1, columns, bands, background.rgb());
    }
    if (!filled) {
        const std::optional<RasterTarget> raster = rasterTarget(p, area);
        const std::optional<DirectFill> direct = raster ? std::optional<DirectFill>(DirectFill(*raster)) : std::nullopt;
        auto fill = [&](const QRectF &r, const QColor &c) {
            if (direct && c.alpha() == 255)
                direct->fill(r, c);
            else
                p.fillRect(r, c);
        };
        fill(area, background);
        for (const FlameRect &r : rects)   // merged columns first, frames over them, as in the bands
            if (r.merged)
                fill(merged(r), mid);
        for (const FlameRect &r : rects)
            if (!r.merged)
                fill(box(r), color(r));
    }
    if (d1 < d0)
        return;

    // Marks and labels over the fills, clipped to the area: a label or hatch that crosses into another rectangle
    // of the same update would otherwise be blended twice there (text drawn over itself turns bold).
    p.save();
    p.setClipRect(area, Qt::IntersectClip);
    p.setFont(font);
    const QFontMetrics fm(font, p.device());
    const int minTextWidth = fm.horizontalAdvance(QLatin1String("Wm…"));
    const QColor text(Qt::black);   // frame colours are light in both palettes
    for (const FlameRect &r : rects) {
        if (r.merged)
            continue;
        const QRectF b = box(r);
        if (!b.intersects(area))   // the depths of a small update span the width; its frames do not
            continue;
        switch (m_source.mark(r.node)) {
        case FrameMark::Hatched:   // within noise
            p.fillRect(b, QBrush(QColor(0, 0, 0, 60), Qt::BDiagPattern));
            break;
        case FrameMark::Dashed:    // one side only
            p.setPen(QPen(Qt::black, 1, Qt::DashLine));
            p.setBrush(Qt::NoBrush);
            p.drawRect(b.adjusted(0.5, 0.5, -0.5, -0.5));
            break;
        case FrameMark::None: break;
        }
        if (m_source.callMarked(r.node)) {   // purple, a colour no scheme fills with: a corner and an outline
            const QColor purple(0x7b, 0x1f, 0xa2);
            const qreal side = std::min(b.height(), b.width());
            const QPointF corner[3] = {b.topLeft(), b.topLeft() + QPointF(side, 0), b.topLeft() + QPointF(0, side)};
            p.setPen(Qt::NoPen);
            p.setBrush(purple);
            p.drawPolygon(corner, 3);
            p.setPen(QPen(purple, 1.5));
            p.setBrush(Qt::NoBrush);
            p.drawRect(b.adjusted(0.75, 0.75, -0.75, -0.75));
        }
        if (m_source.inlined(r.node)) {   // inlined frames: a dotted underline
            p.setPen(QPen(Qt::black, 1, Qt::DotLine));
            p.drawLine(b.bottomLeft(), b.bottomRight());
        }
        if (b.width() >= minTextWidth) {
            const bool dim = searching && !(*matches)[m_source.frame(r.node)];
            p.setPen(dim ? text.lighter() : text);
            drawLabel(p, r.node, b, fm);
        }
    }
    p.restore();
}

QImage FlamePainter::image(int w) const
{
    const int h = height();
    QImage img(w, h, QImage::Format_ARGB32_Premultiplied);
    QPainter p(&img);
    paint(p, QRect(0, 0, w, h), w, h);
    return img;
}

bool FlamePainter::svg(const QString &path, int w, const QString &title) const
{
    const int h = height();
    QSvgGenerator gen;
    gen.setFileName(path);
    gen.setSize(QSize(w, h));
    gen.setViewBox(QRect(0, 0, w, h));
    gen.setTitle(title);
    QPainter p;
    if (!p.begin(&gen))
        return false;
    paint(p, QRect(0, 0, w, h), w, h);
    return p.end();
}

}   // namespace qflame
