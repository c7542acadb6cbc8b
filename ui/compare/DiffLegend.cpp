#include "compare/DiffLegend.h"

#include "compare/DiffSource.h"

#include <QPainter>

#include <algorithm>

namespace qflame {

DiffLegend::DiffLegend(QWidget *parent) : QWidget(parent)
{
    setMinimumHeight(fontMetrics().height() * 2 + 8);
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
}

QSize DiffLegend::sizeHint() const
{
    int w = 4 + kBarWidth + 16;
    for (const QString &text : {tr("unchanged"), tr("within noise"), tr("one side")})
        w += kSwatch + 8 + fontMetrics().horizontalAdvance(text) + 8;
    if (m_source && m_source->hasCallMarks())
        w += kSwatch + 4 + fontMetrics().horizontalAdvance(tr("inlining changed (PGO)")) + 4;
    return {w, fontMetrics().height() * 2 + 8};
}

void DiffLegend::set(const DiffSource *source, bool colorBlindSafe)
{
    m_source = source;
    m_colorBlind = colorBlindSafe;
    updateGeometry();   // the inlining mark adds a swatch
    update();
}

void DiffLegend::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    if (!m_source)
        return;
    const double scale = m_source->scale();
    const int h = fontMetrics().height();
    const QRect bar(4, 2, std::min(kBarWidth, width() - 8), h);
    for (int x = 0; x < bar.width(); ++x) {
        const double delta = scale * (2.0 * x / (bar.width() - 1) - 1.0);
        p.fillRect(bar.x() + x, bar.y(), 1, bar.height(), DiffSource::deltaColor(delta, scale, m_colorBlind));
    }
    p.setPen(palette().color(QPalette::WindowText));
    const QString lo = QString::fromStdString(m_source->diff().formatValue(-scale, true));
    const QString hi = QString::fromStdString(m_source->diff().formatValue(scale, true));
    const int y = bar.bottom() + h;
    p.drawText(bar.x(), y, lo);   // green, less cost: the tooltip says so
    const QString right = hi;
    p.drawText(bar.right() - fontMetrics().horizontalAdvance(right), y, right);
    // Marks.
    int x = bar.right() + 12;
    auto swatch = [&](const QString &text, FrameMark mark) {
        const QRect r(x, bar.y(), kSwatch, h);
        p.fillRect(r, DiffSource::neutralColor());
        if (mark == FrameMark::Hatched)
            p.fillRect(r, QBrush(QColor(0, 0, 0, 60), Qt::BDiagPattern));
        if (mark == FrameMark::Dashed) {
            p.setPen(QPen(Qt::black, 1, Qt::DashLine));
            p.drawRect(r.adjusted(0, 0, -1, -1));
        }
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(r.right() + 4, bar.y() + fontMetrics().ascent(), text);
        x = r.right() + 4 + fontMetrics().horizontalAdvance(text) + 8;
    };
    swatch(tr("unchanged"), FrameMark::None);
    swatch(tr("within noise"), FrameMark::Hatched);
    swatch(tr("one side"), FrameMark::Dashed);
    if (m_source->hasCallMarks()) {   // only when the PGO panel found inlining changes: the frames it marks
        const QRect r(x, bar.y(), kSwatch, h);
        const QColor purple(0x7b, 0x1f, 0xa2);
        p.fillRect(r, DiffSource::neutralColor());
        p.setPen(QPen(purple, 1.5));
        p.drawRect(QRectF(r).adjusted(0.75, 0.75, -0.75, -0.75));
        const QPointF corner[3] = {r.topLeft(), r.topLeft() + QPointF(h, 0), r.topLeft() + QPointF(0, h)};
        p.setPen(Qt::NoPen);
        p.setBrush(purple);
        p.drawPolygon(corner, 3);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(r.right() + 4, bar.y() + fontMetrics().ascent(), tr("inlining changed (PGO)"));
    }
}

}   // namespace qflame
