// The Assembly pane of a comparison: the two builds side by side, aligned by source line group (model/disasm's
// DisasmDiff). A group's row: its cum before and after with heat bars, the delta tinted in the diff's class; then
// its instructions, before's on the left and after's on the right, row by row; where the group's code is the same
// on both sides, each row is one instruction of both and has its own delta. Calls that became inlined are marked
// in purple, as the graph's inlining bands are.
#include "asmview/AsmDelegates.h"
#include "asmview/AsmView.h"

#include "pprof/PprofLabels.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>

#include <algorithm>
#include <cstdlib>

namespace qflame {

using namespace asmview;

namespace {

enum DiffColumn { BeforeCum, BeforeAddress, BeforeText, AfterCum, AfterAddress, AfterText, Delta, DiffColumnCount };

const QColor kInlined(130, 60, 170);   // the graph's inlining-change purple

QColor classTint(DiffClass cls, const QColor &none)
{
    if (cls == DiffClass::Slower || cls == DiffClass::New)
        return QColor(250, 215, 205);
    if (cls == DiffClass::Faster || cls == DiffClass::Removed)
        return QColor(210, 240, 215);
    return none;
}

}   // namespace

void AsmView::showDiff(const DisasmDiff &d)
{
    for (int c = 0; c < DiffColumnCount; ++c)
        m_tree->setItemDelegateForColumn(c, nullptr);
    m_tree->setColumnCount(DiffColumnCount);
    m_tree->setHeaderLabels({tr("Before"), tr("Address"), tr("Before: instruction"), tr("After"), tr("Address"),
                             tr("After: instruction"), tr("Delta")});
    m_tree->setItemDelegateForColumn(BeforeCum, m_heat);
    m_tree->setItemDelegateForColumn(AfterCum, m_heatAfter);
    int64_t largest = 0;
    for (const DisasmGroup &g : d.groups)
        largest = std::max({largest, g.beforeCum, g.afterCum});
    auto label = [&d](int64_t v) { return v ? QString::fromStdString(pprofScaledLabel(v, d.unit)) : QStringLiteral("."); };
    auto signedLabel = [&](int64_t v) { return v == 0 ? QStringLiteral(".") : (v > 0 ? QStringLiteral("+") : QString()) + label(v); };
    auto share = [largest](int64_t v) { return largest > 0 ? double(v) / double(largest) : 0.0; };
    QFont bold = m_tree->font();
    bold.setBold(true);
    const QColor groupBackground = palette().color(QPalette::AlternateBase);
    int64_t bestDelta = 0;
    size_t same = 0, inlinedCalls = 0;
    for (const DisasmGroup &g : d.groups) {
        auto *group = new QTreeWidgetItem(m_tree);
        group->setText(BeforeCum, label(g.beforeCum));
        group->setText(AfterCum, label(g.afterCum));
        group->setData(BeforeCum, kFractionRole, share(g.beforeCum));
        group->setData(AfterCum, kFractionRole, share(g.afterCum));
        group->setTextAlignment(BeforeCum, Qt::AlignRight | Qt::AlignVCenter);
        group->setTextAlignment(AfterCum, Qt::AlignRight | Qt::AlignVCenter);
        const int64_t delta = g.cumDelta();
        group->setText(Delta, signedLabel(delta) + QStringLiteral(" ") + QString::fromLatin1(diffClassName(g.cls)));
        const QString where = g.file.empty() ? tr("(no line)")
                                             : QString::fromStdString(g.file.substr(g.file.rfind('/') + 1)) +
                                                   QLatin1Char(':') + QString::number(g.line);
        const QString title = where + QStringLiteral("  ") + QString::fromStdString(g.function) +
                              (g.sameCode ? tr("  (same code)") : QString());
        group->setText(BeforeText, g.before.empty() ? tr("(not in this build)") : title);
        group->setText(AfterText, g.after.empty() ? tr("(not in this build)") : title);
        for (int c = 0; c < DiffColumnCount; ++c) {
            group->setBackground(c, groupBackground);
            group->setFont(c, bold);
        }
        group->setBackground(Delta, classTint(g.cls, groupBackground));
        group->setTextAlignment(Delta, Qt::AlignRight | Qt::AlignVCenter);
        if (g.inlinedHere >= 0) {   // the new build's inline frame of a callee that was a call before
            group->setText(AfterText, title + QStringLiteral("  ") +
                                          tr("(%1 here)").arg(QString::fromLatin1(
                                              inliningKindName(InliningChange::Kind(g.inlinedHere)))));
            group->setForeground(AfterText, kInlined);
        }
        same += g.sameCode;
        if (std::abs(delta) > bestDelta) {
            bestDelta = std::abs(delta);
            m_hottest = group;
        }
        const size_t rows = std::max(g.before.size(), g.after.size());
        for (size_t i = 0; i < rows; ++i) {
            auto *item = new QTreeWidgetItem(m_tree);
            auto fill = [&](const std::vector<DisasmInstruction> &side, int cum, int address, int text) {
                if (i >= side.size())
                    return;
                item->setText(cum, label(side[i].cum));
                item->setData(cum, kFractionRole, share(side[i].cum));
                item->setTextAlignment(cum, Qt::AlignRight | Qt::AlignVCenter);
                item->setText(address, QString::number(side[i].address, 16));
                item->setText(text, QString::fromStdString(side[i].text));
            };
            fill(g.before, BeforeCum, BeforeAddress, BeforeText);
            fill(g.after, AfterCum, AfterAddress, AfterText);
            if (i < g.paired.size()) {
                const InstructionDelta &p = g.paired[i];
                item->setText(Delta, signedLabel(p.cumDelta) +
                                         (p.cls == DiffClass::Unchanged ? QString()
                                                                        : QStringLiteral(" ") + QString::fromLatin1(diffClassName(p.cls))));
                item->setTextAlignment(Delta, Qt::AlignRight | Qt::AlignVCenter);
                item->setBackground(Delta, classTint(p.cls, QColor()));
            }
            for (const InlinedCall &c : g.inlinedCalls)
                if (c.instruction == i) {
                    item->setText(BeforeText, item->text(BeforeText) + QStringLiteral("   \u25c0 ") +
                                                  QString::fromLatin1(inliningKindName(c.kind)));
                    item->setForeground(BeforeText, kInlined);
                    item->setToolTip(BeforeText, tr("The call to %1 became an inline frame in the new build (the PGO "
                                                    "panel's inlining changes)")
                                                     .arg(QString::fromStdString(c.callee)));
                    ++inlinedCalls;
                }
        }
    }
    for (int c = 0; c < DiffColumnCount; ++c)
        m_tree->resizeColumnToContents(c);
    // The instruction columns share what is left; the costs keep room for their bars.
    const int barWidth = m_tree->fontMetrics().horizontalAdvance(QStringLiteral("0000.00ms")) + 16;
    for (int c : {int(BeforeCum), int(AfterCum)})
        m_tree->setColumnWidth(c, std::max(m_tree->columnWidth(c), barWidth));
    // The two instruction columns share the width that is left, equally.
    m_tree->header()->setStretchLastSection(false);
    for (int c : {int(BeforeText), int(AfterText)})
        m_tree->header()->setSectionResizeMode(c, QHeaderView::Stretch);
    QString title = tr("%1 groups by source line (%2 of the same code): total %3 -> %4 (cum before, after, delta)")
                        .arg(d.groups.size())
                        .arg(same)
                        .arg(QString::fromStdString(pprofScaledLabel(d.beforeTotal, d.unit)),
                             QString::fromStdString(pprofScaledLabel(d.afterTotal, d.unit)));
    if (inlinedCalls)
        title += tr("; %n call(s) became inlined", nullptr, int(inlinedCalls));
    m_title->setText(title);
}

}   // namespace qflame
