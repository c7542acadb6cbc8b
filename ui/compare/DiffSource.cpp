#include "compare/DiffSource.h"

#include "pprof/Units.h"

#include <QCoreApplication>

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <cmath>

namespace qflame {

DiffSource::DiffSource(std::shared_ptr<const DiffTree> diff, DiffWidth width, DiffColoring coloring)
    : m_diff(std::move(diff)), m_coloring(coloring), m_layout(*m_diff, diffWidths(*m_diff, width))
{
    for (NodeId n = 1; n < m_diff->size(); ++n)
        m_largest = std::max(m_largest, std::fabs(delta(n)));
    m_scale = coloring.scale > 0 ? coloring.scale : (m_largest > 0 ? m_largest : 1);
}

QColor DiffSource::deltaColor(double delta, double scale, bool colorBlindSafe)
{
    if (delta == 0 || scale <= 0)
        return neutralColor();
    // Intensity by |delta| / scale, with a floor so that any real change is visibly coloured.
    const double t = std::clamp(std::fabs(delta) / scale, 0.0, 1.0);
    const double s = 0.15 + 0.85 * std::sqrt(t);
    const QColor warm = colorBlindSafe ? QColor(0xe6, 0x61, 0x01) : QColor(0xd7, 0x30, 0x27);   // more cost
    const QColor cool = colorBlindSafe ? QColor(0x21, 0x66, 0xac) : QColor(0x1a, 0x98, 0x50);   // less cost
    const QColor end = delta > 0 ? warm : cool;
    const QColor base(0xf2, 0xf2, 0xf2);
    auto mix = [&](int a, int b) { return int(std::lround(a + (b - a) * s)); };
    return QColor(mix(base.red(), end.red()), mix(base.green(), end.green()), mix(base.blue(), end.blue()));
}

QColor DiffSource::color(NodeId n, const PaintOptions &options) const
{
    if (n == DiffTree::kRoot && delta(n) == 0)
        return options.palette.color(QPalette::Mid);
    switch (diffClass(n)) {
    case DiffClass::Unchanged:
    case DiffClass::WithinNoise: return neutralColor();
    default: break;
    }
    return deltaColor(delta(n), m_scale, options.colorBlindSafe);
}

FrameMark DiffSource::mark(NodeId n) const
{
    if (!m_diff->inBefore(n) || !m_diff->inAfter(n))
        return FrameMark::Dashed;
    if (diffClass(n) == DiffClass::WithinNoise)
        return FrameMark::Hatched;
    return FrameMark::None;
}

bool DiffSource::callMarked(NodeId n) const
{
    return m_callMarks && n != DiffTree::kRoot && m_callMarks->count(callKey(m_diff->frame(m_diff->parent(n)), m_diff->frame(n)));
}

std::shared_ptr<const DiffSource::CallMarks> callMarksOf(const DiffTree &diff, const InliningChanges &changes)
{
    auto marks = std::make_shared<DiffSource::CallMarks>();
    if (changes.inlining.empty())
        return marks;
    const FrameTable &frames = diff.frames();
    std::unordered_map<std::string_view, std::vector<FrameId>> byName;
    for (FrameId f = 1; f < frames.size(); ++f)
        byName[frames.strings().str(frames.frame(f).key.name)].push_back(f);
    for (const InliningChange &c : changes.inlining) {
        const auto caller = byName.find(c.caller), callee = byName.find(c.callee);
        if (caller == byName.end() || callee == byName.end())
            continue;
        for (FrameId a : caller->second)
            for (FrameId b : callee->second)
                marks->insert(DiffSource::callKey(a, b));
    }
    return marks;
}

QString DiffSource::describe(NodeId n, Viewport) const
{
    const DiffTree &d = *m_diff;
    auto fmt = [&](double v, bool sign = false) { return QString::fromStdString(d.formatValue(v, sign)); };
    auto pct = [](double part, double whole) {
        return whole != 0 ? QString::fromStdString(formatRatioPercent(part, whole, 1, true)) : QStringLiteral("new");
    };
    auto share = [](double v, double total) {
        return total != 0 ? QString::fromStdString(formatRatioPercent(v, total, 2)) : QStringLiteral("-");
    };
    auto tr = [](const char *s) { return QCoreApplication::translate("DiffSource", s); };
    QString text = QString::fromStdString(d.label(n));
    if (!d.inBefore(n))
        text += tr(" (comparison only)");
    else if (!d.inAfter(n))
        text += tr(" (baseline only)");
    text += QLatin1Char('\n') + tr("Total: %1 → %2 (%3, %4)")
                                    .arg(fmt(d.beforeTotal(n)), fmt(d.afterTotal(n)), fmt(d.deltaTotal(n), true),
                                         pct(d.deltaTotal(n), d.beforeTotal(n)));
    text += QLatin1Char('\n') + tr("Self: %1 → %2 (%3, %4)")
                                    .arg(fmt(d.beforeSelf(n)), fmt(d.afterSelf(n)), fmt(d.deltaSelf(n), true),
                                         pct(d.deltaSelf(n), d.beforeSelf(n)));
    text += QLatin1Char('\n') + tr("Class: %1").arg(QString::fromLatin1(diffClassName(diffClass(n))));
    if (d.hasSampleCounts() && d.standardError(n) > 0)
        text += tr(" (standard error %1)").arg(fmt(d.standardError(n)));
    text += QLatin1Char('\n') + tr("Share of total: %1 → %2")
                                    .arg(share(d.beforeTotal(n), d.beforeTotal(DiffTree::kRoot)),
                                         share(d.afterTotal(n), d.afterTotal(DiffTree::kRoot)));
    if (callMarked(n))
        text += QLatin1Char('\n') + tr("Purple outline: the call from %1 changed inlining between the profiles "
                                       "(PGO panel, Inlining changes)")
                                         .arg(QString::fromStdString(d.label(d.parent(n))));
    return text;
}

}   // namespace qflame
