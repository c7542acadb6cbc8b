// What the flamegraph widget paints: a layout plus, per node, a label, a frame id, a colour and a description.
// One implementation per kind of tree, so that one widget draws profiles and diffs alike.
#pragma once

#include "flame/FramePalette.h"
#include "layout/FlameLayout.h"
#include "tree/CallTree.h"

#include <QColor>
#include <QPalette>
#include <QString>

#include <memory>
#include <vector>

namespace qflame {

enum class ColorScheme { Package, Mapping, SelfHeat };

struct PaintOptions {
    ColorScheme scheme = ColorScheme::Package;
    bool colorBlindSafe = false;
    QPalette palette;
};

// How a frame is drawn besides its fill.
enum class FrameMark : uint8_t {
    None,
    Hatched,     // a change within noise
    Dashed,      // exists on one side of a comparison only
};

class FlameSource {
public:
    virtual ~FlameSource() = default;
    virtual const FlameLayout &layout() const = 0;
    virtual size_t frameCount() const = 0;
    virtual FrameId frame(NodeId n) const = 0;
    virtual const std::string &labelBytes(NodeId n) const = 0;
    virtual bool inlined(NodeId n) const = 0;
    virtual QColor color(NodeId n, const PaintOptions &options) const = 0;
    virtual FrameMark mark(NodeId) const { return FrameMark::None; }
    // A call the view points out besides the mark (a comparison's inlining changes): a glyph in the frame's
    // corner, which combines with any mark.
    virtual bool callMarked(NodeId) const { return false; }
    // Tooltip text; `view` is the viewport, for "% of view".
    virtual QString describe(NodeId n, Viewport view) const = 0;
    // The call tree behind the source, when it is one (nullptr for a diff).
    virtual const CallTree *callTree() const { return nullptr; }
};

class CallTreeSource : public FlameSource {
public:
    // `layout` is the tree's, when it was laid out already (off the GUI thread); otherwise it is laid out here.
    explicit CallTreeSource(std::shared_ptr<const CallTree> tree, std::shared_ptr<const FlameLayout> layout = {});
    const FlameLayout &layout() const override { return *m_layout; }
    size_t frameCount() const override { return m_tree->frames().size(); }
    FrameId frame(NodeId n) const override { return m_tree->frame(n); }
    const std::string &labelBytes(NodeId n) const override { return m_tree->label(n); }
    bool inlined(NodeId n) const override { return m_tree->isInlined(n); }
    QColor color(NodeId n, const PaintOptions &options) const override;
    QString describe(NodeId n, Viewport view) const override;
    const CallTree *callTree() const override { return m_tree.get(); }

private:
    QColor uncachedColor(NodeId n, const PaintOptions &options) const;
    std::shared_ptr<const CallTree> m_tree;
    std::shared_ptr<const FlameLayout> m_layout;
    // Package and mapping colours depend only on the frame: computed once per frame and scheme (hashing the
    // label on every paint was a tenth of a 4K repaint). 0 = not yet computed (real colours are opaque).
    mutable std::vector<QRgb> m_frameColors;
    mutable int m_frameColorsKey = -1;
};

}   // namespace qflame
