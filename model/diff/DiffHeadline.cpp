#include "diff/DiffHeadline.h"

#include "pprof/Units.h"

#include <cmath>

namespace qflame {

std::string formatChangePercent(double delta, double before)
{
    if (before == 0)
        return "-";
    return (delta > 0 ? "+" : "") + formatPercent(delta, before);
}

double cumChangePercent(const DiffRow &row)
{
    return row.beforeCum != 0 ? 100.0 * row.deltaCum / row.beforeCum : HUGE_VAL;
}

std::string cumChangeText(const DiffRow &row)
{
    if (row.beforeCum == 0)
        return row.afterCum != 0 ? "new" : "0%";
    return formatChangePercent(row.deltaCum, row.beforeCum);
}

DiffHeadline diffHeadline(const DiffTree &tree, const MeasuredNoise *measured)
{
    DiffHeadline h;
    h.before = tree.beforeTotal(DiffTree::kRoot);
    h.after = tree.afterTotal(DiffTree::kRoot);
    h.delta = h.after - h.before;
    h.beforeText = tree.formatValue(h.before);
    h.afterText = tree.formatValue(h.after);
    h.deltaText = tree.formatValue(h.delta, true);
    h.changePercent = formatChangePercent(h.delta, h.before);
    h.durations = tree.durationDescription();
    h.normalization = tree.normalizationDescription();
    h.noise = tree.noiseDescription();
    if (!measured)
        return h;
    h.measuredSource = measured->source;
    if (measured->normalization != tree.options().normalization) {
        h.measured = DiffHeadline::Measured::OtherNormalization;
        return h;
    }
    const double k = tree.options().noiseK, se = measured->totalStandardError;
    h.measuredErrorText = tree.formatValue(se);
    h.measured = !(se > 0) || k <= 0         ? DiffHeadline::Measured::NotTested
                 : std::fabs(h.delta) > k * se ? DiffHeadline::Measured::Real
                                               : DiffHeadline::Measured::Noise;
    return h;
}

}   // namespace qflame
