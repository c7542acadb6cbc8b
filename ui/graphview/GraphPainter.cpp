#include "graphview/GraphPainter.h"

#include "compare/DiffSource.h"
#include "graph/GraphMarks.h"

#include <QFile>
#include <QImage>
#include <QPainterPath>
#include <QSvgGenerator>

#include <algorithm>
#include <cmath>

namespace qflame {

namespace {

// The largest |cum delta| of the graph's nodes: the scale of the diff colours, as the diff flamegraph's.
double largestDelta(const CallGraph &g)
{
    double largest = 0;
    for (const GraphNode &n : g.nodes())
        largest = std::max(largest, std::fabs(g.cumDelta(n)));
    return largest;
}

// pprof's colour for a share of the total: grey near 0, towards red as it grows (light for fills).
QColor heat(double share, bool background)
{
    const double sMax = background ? 0.1 : 1.0, value = background ? 0.93 : 0.7;
    share = std::clamp(share, -1.0, 1.0);
    double s = sMax;
    if (std::fabs(share) < 0.2)
        s *= std::fabs(share) / 0.2;
    share = share >= 0 ? std::pow(share, 0.3) : -std::pow(-share, 0.3);
    const double r = share < 0 ? value * (1 + s * share) : value;
    const double g = share < 0 ? value : value * (1 - s * share);
    const double b = value * (1 - s);
    return QColor::fromRgbF(float(r), float(g), float(b));
}

QPointF splinePoint(const std::vector<QPointF> &p, double t)
{
    if (p.size() < 4)
        return p.empty() ? QPointF() : p.front();
    const size_t segments = (p.size() - 1) / 3;
    const double at = std::clamp(t, 0.0, 1.0) * double(segments);
    const size_t s = std::min(segments - 1, size_t(at));
    const double u = at - double(s), v = 1 - u;
    const QPointF &a = p[3 * s], &b = p[3 * s + 1], &c = p[3 * s + 2], &d = p[3 * s + 3];
    return v * v * v * a + 3 * v * v * u * b + 3 * v * u * u * c + u * u * u * d;
}

}   // namespace

QColor graphNodeColor(const CallGraph &g, uint32_t node, bool colorBlindSafe)
{
    const GraphNode &n = g.nodes()[node];
    if (!g.isDiff())
        return heat(g.total() ? double(n.cumValue()) / double(std::llabs(g.total())) : 0, true);
    switch (g.classOf(n)) {
    case DiffClass::Unchanged:
    case DiffClass::WithinNoise: return DiffSource::neutralColor();
    default: return DiffSource::deltaColor(g.cumDelta(n), largestDelta(g), colorBlindSafe);
    }
}

QColor graphEdgeColor(const CallGraph &g, uint32_t edge, bool colorBlindSafe)
{
    const GraphEdge &e = g.edges()[edge];
    if (!g.isDiff())
        return heat(g.total() ? double(e.value()) / double(std::llabs(g.total())) : 0, false);
    switch (g.classOf(e)) {
    case DiffClass::Unchanged:
    case DiffClass::WithinNoise: return QColor(0x9a, 0x9a, 0x9a);
    default: return DiffSource::deltaColor(g.edgeDelta(e), largestDelta(g), colorBlindSafe).darker(130);
    }
}

void paintGraph(QPainter &p, const GraphLayout &layout, const GraphPaintState &state)
{
    const CallGraph &g = layout.graph();
    p.setRenderHint(QPainter::Antialiasing);
    const double total = std::max(1.0, std::fabs(g.scaledTotal()));   // the shown unit
    const bool searching = !state.matches.empty();
    auto faded = [&](uint32_t node) { return searching && !state.matches[node]; };
    QFont font(QStringLiteral("Sans Serif"));
    // Edges first, under the boxes.
    for (uint32_t i = 0; i < g.edges().size(); ++i) {
        const GraphLayoutEdge &le = layout.edges()[i];
        const GraphEdge &e = g.edges()[i];
        if (le.spline.size() < 4)
            continue;
        QColor color = graphEdgeColor(g, i, state.colorBlindSafe);
        const bool touched = int(e.from) == state.selected || int(e.to) == state.selected ||
                             int(e.from) == state.hovered || int(e.to) == state.hovered;
        if (faded(e.from) && faded(e.to))
            color.setAlpha(50);
        const double width = 1 + std::min(5.0, std::fabs(g.edgeDelta(e)) * 5 / total) + (touched ? 1.5 : 0);
        QPen pen(touched ? color.darker(140) : color, width);
        pen.setStyle(e.residual ? Qt::DotLine : Qt::SolidLine);
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        QPainterPath path(le.spline[0]);
        for (size_t k = 1; k + 2 < le.spline.size(); k += 3)
            path.cubicTo(le.spline[k], le.spline[k + 1], le.spline[k + 2]);
        const QString change = QString::fromStdString(edgeInliningText(g, i));
        if (!change.isEmpty()) {   // the PGO panel's inlining change: a purple band under the edge
            QColor band = QColor::fromString(QLatin1String(kInliningChangeColor));
            band.setAlpha(faded(e.from) && faded(e.to) ? 40 : 110);
            p.setPen(QPen(band, width + 5, Qt::SolidLine, Qt::RoundCap));
            p.drawPath(path);
            p.setPen(pen);
        }
        p.drawPath(path);
        if (le.hasArrow) {   // a filled triangle from the spline's end to the tip
            const QPointF from = le.spline.back(), tip = le.arrowTip;
            const QPointF d = tip - from;
            const double len = std::hypot(d.x(), d.y());
            if (len > 0.1) {
                const QPointF u = d / len, n(-u.y(), u.x());
                const double half = 2.5 + width;
                const QPolygonF arrow{tip, from + n * half, from - n * half};
                p.setPen(Qt::NoPen);
                p.setBrush(pen.color());
                p.drawPolygon(arrow);
            }
        }
        font.setPixelSize(7);
        p.setFont(font);
        p.setPen(QColor(0x55, 0x55, 0x55, faded(e.from) && faded(e.to) ? 60 : 255));
        const QString label = QString::fromStdString(graphDeltaText(g, g.edgeDelta(e))) +
                              (e.inlined ? QStringLiteral(" (inline)") : QString());
        p.drawText(splinePoint(le.spline, 0.5) + QPointF(3, 0), label);
        if (!change.isEmpty()) {
            QColor purple = QColor::fromString(QLatin1String(kInliningChangeColor));
            purple.setAlpha(faded(e.from) && faded(e.to) ? 60 : 255);
            font.setBold(true);
            p.setFont(font);
            p.setPen(purple);
            p.drawText(splinePoint(le.spline, 0.5) + QPointF(3, 8), change);
            font.setBold(false);
        }
    }
    for (uint32_t i = 0; i < g.nodes().size(); ++i) {
        const GraphLayoutNode &ln = layout.nodes()[i];
        const GraphNode &n = g.nodes()[i];
        QColor fill = graphNodeColor(g, i, state.colorBlindSafe);
        QColor border = g.isDiff() ? fill.darker(150) : heat(g.cumDelta(n) / total, false);
        QColor text(0x20, 0x20, 0x20);
        if (faded(i)) {
            fill.setAlpha(60);
            border.setAlpha(60);
            text.setAlpha(80);
        }
        QPen pen(border, int(i) == state.hovered ? 2.5 : 1);
        if (int(i) == state.selected)
            pen = QPen(QColor(0x1f, 0x5f, 0xbf), 3);
        if (g.isDiff() && n.onSide[0] != n.onSide[1])
            pen.setStyle(Qt::DashLine);   // on one side only, as the diff flamegraph marks it
        p.setPen(pen);
        p.setBrush(fill);
        p.drawRect(ln.box);
        font.setPixelSize(ln.fontSize);
        p.setFont(font);
        p.setPen(text);
        const double lineHeight = ln.box.height() / double(std::max<size_t>(1, ln.lines.size()));
        for (size_t l = 0; l < ln.lines.size(); ++l) {
            const QRectF r(ln.box.left(), ln.box.top() + double(l) * lineHeight, ln.box.width(), lineHeight);
            p.drawText(r, Qt::AlignCenter | Qt::TextDontClip, QString::fromStdString(ln.lines[l]));
        }
    }
}

int graphNodeAt(const GraphLayout &layout, QPointF point)
{
    for (size_t i = 0; i < layout.nodes().size(); ++i)
        if (layout.nodes()[i].box.contains(point))
            return int(i);
    return -1;
}

QString writeGraphPicture(const GraphLayout &layout, const QString &path, bool svg, int maxSide)
{
    const QRectF bounds = layout.bounds().adjusted(-10, -10, 10, 10);
    if (svg) {
        QSvgGenerator gen;
        gen.setFileName(path);
        gen.setSize(bounds.size().toSize());
        gen.setViewBox(QRectF(QPointF(0, 0), bounds.size()));
        gen.setTitle(QStringLiteral("qflame call graph"));
        QPainter p;
        if (!p.begin(&gen))
            return QStringLiteral("cannot write %1").arg(path);
        p.translate(-bounds.topLeft());
        paintGraph(p, layout, {});
        p.end();
        return QFile::exists(path) ? QString() : QStringLiteral("cannot write %1").arg(path);
    }
    const double scale = std::min(2.0, double(maxSide) / std::max(bounds.width(), bounds.height()));
    QImage image((bounds.size() * scale).toSize(), QImage::Format_ARGB32_Premultiplied);
    if (image.isNull())
        return QStringLiteral("the graph is too large for a picture");
    image.fill(Qt::white);
    QPainter p(&image);
    p.scale(scale, scale);
    p.translate(-bounds.topLeft());
    paintGraph(p, layout, {});
    p.end();
    return image.save(path, "PNG") ? QString() : QStringLiteral("cannot write %1").arg(path);
}

}   // namespace qflame
