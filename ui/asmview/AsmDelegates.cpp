#include "asmview/AsmDelegates.h"

#include <QApplication>
#include <QPainter>
#include <QPainterPath>
#include <QStyle>
#include <QTreeWidgetItem>

#include <algorithm>
#include <map>

namespace qflame::asmview {

void HeatDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const double fraction = index.data(kFractionRole).toDouble();
    QStyleOptionViewItem opt(option);
    initStyleOption(&opt, index);
    // The row's own background (a group row's) and the selection's first, so the bar stays on top of them.
    if (opt.backgroundBrush.style() != Qt::NoBrush)
        painter->fillRect(opt.rect, opt.backgroundBrush);
    if (opt.state & QStyle::State_Selected) {
        painter->fillRect(opt.rect, opt.palette.brush(QPalette::Highlight));
        opt.state &= ~QStyle::State_Selected;
        opt.palette.setColor(QPalette::Text, option.palette.color(QPalette::HighlightedText));
    }
    if (fraction > 0) {
        QRect bar = opt.rect.adjusted(2, 3, -2, -3);
        bar.setWidth(std::max(2, int(bar.width() * std::min(1.0, fraction))));
        painter->fillRect(bar, QColor::fromHsvF(m_hue, 0.25 + 0.65 * std::min(1.0, fraction), 0.98));
        opt.palette.setColor(QPalette::Text, option.palette.color(QPalette::Text));   // dark on the bar
    }
    // The text over it: drawn by the style with no background of its own (initStyleOption filled the text in).
    opt.backgroundBrush = Qt::NoBrush;
    const QWidget *widget = option.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);
}

void JumpDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyledItemDelegate::paint(painter, option, index);   // background and selection
    const QList<QVariant> pieces = index.data(kJumpsRole).toList();
    if (pieces.isEmpty())
        return;
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, true);
    const QRect r = option.rect;
    const int mid = r.center().y();
    for (const QVariant &v : pieces) {
        const int code = v.toInt() & 0xff;   // 0x100: the pass of a backward jump
        const int lane = std::min(code / 8, kMaxLanes - 1), piece = code % 8;
        const bool loop = piece == FromUp || piece == ToFromBelow || (piece == Pass && (v.toInt() & 0x100));
        const QColor colour = loop ? QColor(200, 90, 30) : QColor(50, 110, 190);
        painter->setPen(QPen(colour, 1.3));
        const int x = r.right() - 5 - lane * kLaneWidth;
        switch (piece) {
        case Pass:
            painter->drawLine(QPoint(x, r.top()), QPoint(x, r.bottom() + 1));
            break;
        case FromDown:   // the jump's row: a stub from the instruction, then down (or up) the lane
        case FromUp:
            painter->drawLine(QPoint(x, mid), QPoint(r.right(), mid));
            painter->drawLine(QPoint(x, mid), QPoint(x, piece == FromDown ? r.bottom() + 1 : r.top()));
            break;
        case ToFromAbove:
        case ToFromBelow: {
            painter->drawLine(QPoint(x, piece == ToFromAbove ? r.top() : r.bottom() + 1), QPoint(x, mid));
            painter->drawLine(QPoint(x, mid), QPoint(r.right() - 3, mid));
            QPainterPath head;
            head.moveTo(r.right(), mid);
            head.lineTo(r.right() - 5, mid - 3);
            head.lineTo(r.right() - 5, mid + 3);
            head.closeSubpath();
            painter->fillPath(head, colour);
            break;
        }
        default:
            break;
        }
    }
    painter->restore();
}

int setJumpPieces(const std::vector<JumpArrow> &arrows, const std::vector<QTreeWidgetItem *> &rows,
                  const std::vector<QTreeWidgetItem *> &allRows, int column)
{
    std::map<QTreeWidgetItem *, int> rowOf;
    for (size_t i = 0; i < allRows.size(); ++i)
        rowOf[allRows[i]] = int(i);
    std::vector<QList<QVariant>> pieces(allRows.size());
    int lanes = 0;
    for (const JumpArrow &a : arrows) {
        if (a.from >= rows.size() || a.to >= rows.size())
            continue;
        const int from = rowOf[rows[a.from]], to = rowOf[rows[a.to]];
        const bool down = to > from;
        const int lane = std::min(a.lane, JumpDelegate::kMaxLanes - 1) * 8;
        lanes = std::max(lanes, a.lane + 1);
        pieces[size_t(from)].push_back(lane + (down ? FromDown : FromUp));
        pieces[size_t(to)].push_back(lane + (down ? ToFromAbove : ToFromBelow));
        for (int row = std::min(from, to) + 1; row < std::max(from, to); ++row)
            pieces[size_t(row)].push_back(lane + Pass + (down ? 0 : 0x100));
    }
    for (size_t i = 0; i < allRows.size(); ++i)
        if (!pieces[i].isEmpty())
            allRows[i]->setData(column, kJumpsRole, pieces[i]);
    return std::min(lanes, JumpDelegate::kMaxLanes);
}

}   // namespace qflame::asmview
