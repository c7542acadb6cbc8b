// How the Assembly pane paints its cells: heat bars behind costs, and the jump gutter, whose arrows come from the
// model (DisasmRoutine::jumps, in lanes) and are cut here into what each row shows of them.
#pragma once

#include "disasm/Jumps.h"

#include <QStyledItemDelegate>

#include <vector>

class QTreeWidgetItem;

namespace qflame::asmview {

constexpr int kFractionRole = Qt::UserRole + 1;   // a cost cell's share of the largest cost: the bar's length
constexpr int kJumpsRole = Qt::UserRole + 2;      // a gutter cell's pieces: QList<int> of lane * 8 + JumpPiece (+ 0x100: a backward jump's)
constexpr int kSourceRole = Qt::UserRole + 3;     // true on an interleaved source line's row

enum JumpPiece { Pass = 1, FromDown = 2, FromUp = 3, ToFromAbove = 4, ToFromBelow = 5 };

// A bar as long as the cell's kFractionRole of its width, the number over it; `hue` tells before from after.
class HeatDelegate : public QStyledItemDelegate {
public:
    explicit HeatDelegate(QObject *parent, double hue = 0.05) : QStyledItemDelegate(parent), m_hue(hue) {}
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;

private:
    double m_hue;
};

// The jump gutter: per lane a vertical line over the rows between a jump and its target, a stub from the jump's
// row, an arrowhead into the target's; lane 0 nearest the instructions. A backward jump (a loop) is drawn in the
// loop colour.
class JumpDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    static constexpr int kLaneWidth = 7;
    static constexpr int kMaxLanes = 12;   // deeper lanes share the last one
};

// The rows' gutter pieces: `rows[i]` is the tree row of instruction i; every tree row between a jump's and its
// target's gets the arrow's piece. Fills kJumpsRole on `column` of the items; returns the lanes used.
int setJumpPieces(const std::vector<JumpArrow> &arrows, const std::vector<QTreeWidgetItem *> &rows,
                  const std::vector<QTreeWidgetItem *> &allRows, int column);

}   // namespace qflame::asmview
