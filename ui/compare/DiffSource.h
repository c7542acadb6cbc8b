// Paints a DiffTree: colour by absolute delta on a diverging scale, in the profile's own units.
#pragma once

#include "diff/DiffTree.h"
#include "diff/DiffWidths.h"
#include "flame/FlameSource.h"
#include "pgo/InliningChanges.h"

#include <unordered_set>

namespace qflame {

struct DiffColoring {
    bool bySelf = false;   // colour by the self delta instead of the inclusive one
    double scale = 0;      // |delta| that gets the full colour; 0 = the largest |delta| of any non-root frame
};

class DiffSource : public FlameSource {
public:
    DiffSource(std::shared_ptr<const DiffTree> diff, DiffWidth width, DiffColoring coloring);

    const FlameLayout &layout() const override { return m_layout; }
    size_t frameCount() const override { return m_diff->frames().size(); }
    FrameId frame(NodeId n) const override { return m_diff->frame(n); }
    const std::string &labelBytes(NodeId n) const override { return m_diff->label(n); }
    bool inlined(NodeId n) const override { return m_diff->callKinds(n) == CallTree::kInlined; }
    QColor color(NodeId n, const PaintOptions &options) const override;
    FrameMark mark(NodeId n) const override;
    bool callMarked(NodeId n) const override;
    QString describe(NodeId n, Viewport view) const override;

    const DiffTree &diff() const { return *m_diff; }
    std::shared_ptr<const DiffTree> diffPtr() const { return m_diff; }
    // The |delta| that gets the full colour, in the normalised unit.
    double scale() const { return m_scale; }
    // The largest |delta| of any non-root frame (the default scale).
    double largestDelta() const { return m_largest; }
    double delta(NodeId n) const { return m_coloring.bySelf ? m_diff->deltaSelf(n) : m_diff->deltaTotal(n); }
    DiffClass diffClass(NodeId n) const { return m_coloring.bySelf ? m_diff->selfClassOf(n) : m_diff->classOf(n); }

    // The colour of a signed delta at `scale`: red for more cost, green for less (orange/blue colour-blind safe),
    // grey at 0. Shared by the frames and the legend.
    static QColor deltaColor(double delta, double scale, bool colorBlindSafe);
    static QColor neutralColor() { return QColor(0xc8, 0xc8, 0xc8); }

    // Calls to point out, by (parent frame, frame) of this diff's frame table: a comparison's inlining changes.
    // Built once per source (callMarksOf), so that painting a frame costs one set lookup.
    using CallMarks = std::unordered_set<uint64_t>;
    static uint64_t callKey(FrameId parent, FrameId frame) { return uint64_t(parent) << 32 | frame; }
    void setCallMarks(std::shared_ptr<const CallMarks> marks) { m_callMarks = std::move(marks); }
    bool hasCallMarks() const { return m_callMarks && !m_callMarks->empty(); }

private:
    std::shared_ptr<const DiffTree> m_diff;
    DiffColoring m_coloring;
    FlameLayout m_layout;
    double m_largest = 0, m_scale = 1;
    std::shared_ptr<const CallMarks> m_callMarks;
};

// The (parent frame, frame) pairs of `diff` whose functions are the caller and callee of an inlining change: by
// the frames' function names, so that at line or address granularity every frame of the function counts.
std::shared_ptr<const DiffSource::CallMarks> callMarksOf(const DiffTree &diff, const InliningChanges &changes);

}   // namespace qflame
