// Rounds: N profiles or windows compared at once, each round against the baseline (the first) and against the
// round before it, with the noise measured from the spread of each round's observations (RoundStats.h).
//
// From files, a round is one or more profiles: one observation per file (its total of the chosen sample type
// over its duration_nanos), and its tree the merge of its files. Per function and round: flat and cum with
// pprof's semantics (as `qflame top` over the round's files), and the function's rate, its error from the
// spread of its per-file values (Poisson for a round of one file) and its verdict against the baseline.
//
// From a server query (qryn/ServerRounds.h), a round is one observation per step of its window and one tree,
// the window's merge: its observations are given, and its functions' errors are Poisson (one tree, no spread).
#pragma once

#include "diff/DiffTable.h"

#include "pprof/Profile.h"
#include "rounds/RoundStats.h"
#include "tree/CallTree.h"
#include "tree/FrameTable.h"

#include <memory>
#include <string>
#include <vector>

namespace qflame {

struct RoundInput {
    std::string name;
    std::vector<std::shared_ptr<const Profile>> profiles;   // one observation each, unless `observations`
    // When not empty: the round's observations (a server window's steps, a step without data an observation of
    // 0), and `profiles` only the round's tree (merged), each function's error then Poisson.
    std::vector<Observation> observations;
};

struct RoundsOptions {
    std::string sample;            // TYPE, TYPE/UNIT or INDEX of the first round's first profile; "": its default
    Granularity granularity = Granularity::Functions;
    double noiseK = 2;             // a change is real past noiseK standard errors; 0 turns the test off
    int64_t durationNanos = 0;     // for profiles without duration_nanos (> 0: given by the user)
    // Walk each file's call edges too (RoundsResult::edges), for the measured noise of a comparison's call graph.
    // About doubles the time of reading rounds of files: off where no graph follows (the CLI's tables).
    bool edgeNoise = true;
};

struct RoundSummary {
    std::string name;
    std::vector<Observation> observations;
    RateEstimate estimate;
    RateChange vsBaseline;         // verdict Baseline for the first round
    RateChange vsPrevious;         // verdict Baseline for the first round
};

struct FunctionRounds {
    std::string name;              // as `qflame top` shows it (with pprof's inline marker)
    std::vector<int64_t> flat, cum;            // per round
    std::vector<RateEstimate> cumRate;         // per round, from the function's per-observation cum
    std::vector<RateChange> vsBaseline;        // per round, of cumRate
};

// A call edge across the rounds: only what the call graph of a comparison needs from them, the standard error of
// its weight's rate per round, measured from the spread of its per-file weights (as a function's cum), NaN where
// the round has no spread (one file, or a server window: Poisson's then, in the graph).
struct EdgeRounds {
    std::string caller, callee;          // frame labels, as the call graph names its nodes
    std::vector<double> weightError;     // per round, per second
};

struct RoundsResult {
    SampleTypeInfo sampleType;
    Granularity granularity = Granularity::Functions;
    double noiseK = 2;
    std::vector<RoundSummary> rounds;
    // Sorted by |cum of the last round - cum of the first| descending, then name.
    std::vector<FunctionRounds> functions;
    // Every caller -> callee pair of any round of several files, by caller, then callee.
    std::vector<EdgeRounds> edges;
    // What the user should know: observations without a duration, rounds of one file (Poisson), ...
    std::vector<std::string> notes;

    // The rule the verdicts follow, in one sentence, for reports.
    std::string noiseRule() const;
};

// The noise two rounds measured (the spread of their observations), for a diff of their merged trees under
// per-second normalisation: per function sqrt(SE_a² + SE_b²) of its cum rates, where both come from a spread
// (not Poisson), the same per call edge of its weight's rates, and for the whole profile.
MeasuredNoise measuredNoiseBetween(const RoundsResult &result, size_t a, size_t b);

// Throws ProfileError naming the round (and the file) for: no rounds, an empty round, a profile without the
// chosen sample type (type and unit), a noise setting that is not a number >= 0.
RoundsResult compareRounds(const std::vector<RoundInput> &rounds, const RoundsOptions &options);

}   // namespace qflame
