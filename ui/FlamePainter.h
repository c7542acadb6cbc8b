// Paints the frames of a FlameSource: the one painting code for the screen, PNG and SVG.
#pragma once

#include "FlameSource.h"

#include <QFont>
#include <QImage>
#include <QPalette>
#include <QRect>
#include <QString>

#include <vector>

class QPainter;

namespace qflame {

class FlamePainter {
public:
    explicit FlamePainter(const FlameSource &source) : m_source(source) {}

    Viewport view;                           // defaults to the whole tree (set by the constructor's caller)
    bool icicle = false;                     // root at the top instead of the bottom
    int rowHeight = 18;
    QFont font;
    PaintOptions options;                    // colour scheme and the palette
    const std::vector<uint8_t> *matches = nullptr;   // search: frames not flagged are dimmed
    std::vector<QString> *labelCache = nullptr;      // per FrameId, filled lazily (optional)

    // The height of the whole graph: one row per level.
    int height() const { return int(m_source.layout().maxDepth() + 1) * rowHeight; }
    // Paints the part `area` of a graph `width` x `height` pixels.
    void paint(QPainter &p, const QRect &area, int width, int height) const;
    QImage image(int width) const;
    bool svg(const QString &path, int width, const QString &title) const;

private:
    QString label(NodeId n) const;
    const FlameSource &m_source;
};

}   // namespace qflame
