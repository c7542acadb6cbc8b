#include "FlamePainter.h"

#include <QPainter>
#include <QSvgGenerator>

#include <algorithm>

namespace qflame {

QString FlamePainter::label(NodeId n) const
{
    if (!labelCache) {
        const std::string &b = m_source.labelBytes(n);
        return QString::fromUtf8(b.data(), qsizetype(b.size()));
    }
    QString &s = (*labelCache)[m_source.frame(n)];
    if (s.isNull()) {
        const std::string &b = m_source.labelBytes(n);
        s = QString::fromUtf8(b.data(), qsizetype(b.size()));
    }
    return s;
}

void FlamePainter::paint(QPainter &p, const QRect &area, int w, int h) const
{
    const QPalette &pal = options.palette;
    p.fillRect(area, pal.color(QPalette::Base));
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
    if (d1 < d0)
        return;
    p.setFont(font);
    const QFontMetrics fm(font, p.device());
    const int minTextWidth = fm.horizontalAdvance(QLatin1String("Wm…"));
    const QColor background = pal.color(QPalette::Base);
    const bool searching = matches && !matches->empty();
    const QColor text(Qt::black);   // frame colours are light in both palettes
    for (const FlameRect &r : layout.visible(view, w, 1.0, uint32_t(d0), uint32_t(d1 - d0 + 1))) {
        const double x = std::max(r.x, -1.0), right = std::min(r.x + r.width, double(w) + 1);
        if (r.merged) {
            // A run of sub-pixel frames: one column as tall as their deepest subtree, so nothing vanishes.
            const uint32_t top = r.depth + r.rows - 1;
            const int yTop = icicle ? yOf(r.depth) : yOf(top);
            p.fillRect(QRectF(x, yTop, std::max(right - x, 1.0), r.rows * rowHeight - 1), pal.color(QPalette::Mid));
            continue;
        }
        const QRectF box(x, yOf(r.depth), right - x - (right - x >= 3 ? 1 : 0), rowHeight - 1);
        const bool dim = searching && !(*matches)[m_source.frame(r.node)];
        QColor c = m_source.color(r.node, options);
        if (dim)
            c = dimmed(c, background);
        p.fillRect(box, c);
        switch (m_source.mark(r.node)) {
        case FrameMark::Hatched:   // within noise
            p.fillRect(box, QBrush(QColor(0, 0, 0, 60), Qt::BDiagPattern));
            break;
        case FrameMark::Dashed:    // one side only
            p.setPen(QPen(Qt::black, 1, Qt::DashLine));
            p.setBrush(Qt::NoBrush);
            p.drawRect(box.adjusted(0.5, 0.5, -0.5, -0.5));
            break;
        case FrameMark::None: break;
        }
        if (m_source.inlined(r.node)) {   // inlined frames: a dotted underline
            p.setPen(QPen(Qt::black, 1, Qt::DotLine));
            p.drawLine(box.bottomLeft(), box.bottomRight());
        }
        if (box.width() >= minTextWidth) {
            p.setPen(dim ? text.lighter() : text);
            // Labels of frames that extend past the left edge start at the visible part.
            const QRectF textRect = box.adjusted(3, 0, -2, 0);
            p.drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft,
                       fm.elidedText(label(r.node), Qt::ElideRight, int(textRect.width())));
        }
    }
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
