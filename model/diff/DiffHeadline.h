// The headline of a comparison: what `qflame diff` prints above its table and the window's diff view above its
// flamegraph, computed once here so that the two cannot disagree. Also the one wording of a change in percent of
// its baseline (the headline's and the diff table's delta% column).
#pragma once

#include "diff/DiffTable.h"
#include "diff/DiffTree.h"

#include <string>

namespace qflame {

// "+1.02%", "-16.67%", "0.00%"; "-" where the baseline is 0 (a change of nothing has no share).
std::string formatChangePercent(double delta, double before);

// A diff table row's cum change in percent of its cum before: +inf where there was none before (sorting puts
// those first by magnitude), and as text: "new" for a function that had no cost before, "0%" for one that has
// none on either side, else formatChangePercent.
double cumChangePercent(const DiffRow &row);
std::string cumChangeText(const DiffRow &row);

struct DiffHeadline {
    double before = 0, after = 0, delta = 0;      // the root's totals, normalised as the tree is
    std::string beforeText, afterText, deltaText;  // in the tree's unit; the delta signed
    std::string changePercent;                     // formatChangePercent(delta, before)
    std::string durations, normalization, noise;   // what the numbers mean (DiffTree's descriptions)

    // With measured noise (rounds): the total change against K of its standard errors.
    enum class Measured { None, OtherNormalization, NotTested, Real, Noise };
    Measured measured = Measured::None;
    std::string measuredSource;       // MeasuredNoise::source
    std::string measuredErrorText;    // the total's standard error in the tree's unit
};

// `measured` may be null. It applies only under its own normalisation (Measured::OtherNormalization otherwise);
// NotTested when its error is not positive or K is 0; else Real when |delta| > K * SE, Noise when not.
DiffHeadline diffHeadline(const DiffTree &tree, const MeasuredNoise *measured = nullptr);

}   // namespace qflame
