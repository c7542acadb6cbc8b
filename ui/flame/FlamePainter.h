// Paints the frames of a FlameSource: the one painting code for the screen, PNG and SVG.
#pragma once

#include "flame/FlameSource.h"
#include "tree/FlatHashMap.h"

#include <QFont>
#include <QGlyphRun>
#include <QImage>
#include <QPalette>
#include <QRect>
#include <QString>

#include <memory>
#include <vector>

class QPainter;

namespace qflame {

// Frame labels shaped once per frame and font: eliding a label then takes a search in its glyph advances and
// drawing it a glyph run, where QFontMetrics::elidedText and QPainter::drawText shaped the text on every paint
// (most of a 4K repaint's time). Labels that need more than one run (font fallback, mixed directions) keep the
// string path.
class LabelCache {
public:
    void clear(size_t frameCount);

private:
    friend class FlamePainter;
    struct Entry {
        QString text;
        QGlyphRun run;             // the whole label, positions from the line's top left
        std::vector<qreal> ends;   // ends[i]: the advance after glyph i
        qreal height = 0;          // of the line
        bool shaped = false, simple = false;
        QGlyphRun elided;          // the label elided to its first elidedFit glyphs and an ellipsis
        qsizetype elidedFit = -1;
    };
    // Only the labels drawn so far, found by frame: a slot per frame of a 400,000-frame tree (3 MB of fresh
    // pages, zeroed) cost up to 5 ms of the GUI thread on every new tree.
    Entry &entry(FrameId frame);
    FlatHashMap m_index{256};   // frame -> position in m_entries
    std::vector<std::unique_ptr<Entry>> m_entries;
    size_t m_frameCount = 0;
    QFont m_font;
    QGlyphRun m_ellipsis;
    qreal m_ellipsisWidth = 0;
};

class FlamePainter {
public:
    explicit FlamePainter(const FlameSource &source) : m_source(source) {}

    Viewport view;                           // defaults to the whole tree (set by the constructor's caller)
    bool icicle = false;                     // root at the top instead of the bottom
    int rowHeight = 18;
    QFont font;
    PaintOptions options;                    // colour scheme and the palette
    const std::vector<uint8_t> *matches = nullptr;   // search: frames not flagged are dimmed
    LabelCache *labelCache = nullptr;                // filled lazily (optional: without it, labels are shaped anew)

    // The height of the whole graph: one row per level.
    int height() const { return int(m_source.layout().maxDepth() + 1) * rowHeight; }
    // Paints the part `area` of a graph `width` x `height` pixels.
    void paint(QPainter &p, const QRect &area, int width, int height) const;
    QImage image(int width) const;
    bool svg(const QString &path, int width, const QString &title) const;

private:
    void drawLabel(QPainter &p, NodeId n, const QRectF &box, const QFontMetrics &fm) const;
    const FlameSource &m_source;
};

}   // namespace qflame
