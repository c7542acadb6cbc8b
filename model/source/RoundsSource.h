// The source lines of one function in every round of a rounds tab (issue 21: "in a rounds tab, per round"): per
// line, flat and cum of each round's merged profiles (as `qflame list` over the round's files counts them), the
// line's cum rate per second and its verdict against the baseline by the rounds' rule (rounds/RoundStats.h).
//
// A line's error is measured like a function's in the rounds' function matrix: from the spread of the line's cum
// over the round's files when it has two or more, else Poisson from the samples behind the line's cum (the
// samples/count type of the same profile), else unknown. A server's round (one merged tree, no lines) lists no
// lines: the listing says why.
#pragma once

#include "rounds/Rounds.h"
#include "rounds/RoundStats.h"
#include "source/LineCosts.h"
#include "source/SourceFinder.h"

#include <QString>

#include <memory>
#include <string>
#include <vector>

namespace qflame {

struct RoundsListedLine {
    int64_t line = 0;
    std::string text;
    std::vector<LineCost> cost;            // per round
    std::vector<RateEstimate> cumRate;     // per round, of the line's cum
    std::vector<RateChange> vsBaseline;    // per round; Baseline for the first
};

struct RoundsListedFile {
    std::string function;
    std::string file;                      // as the profile names it; empty: no source information
    std::string readFile, error, foundIn;  // as in ListedFile (source/SourceListing.h)
    std::vector<LineCost> totals;          // per round, the sums over the file's lines
    std::vector<RoundsListedLine> lines;
    size_t linesPastEnd = 0;
};

struct RoundsSourceListing {
    std::string sampleType, unit;
    std::vector<std::string> rounds;       // their names, the first the baseline
    double noiseK = 2;
    std::vector<RoundsListedFile> files;
    // How each round's line errors were measured ("spread of 3 files", "Poisson (samples/count)", "unknown").
    std::vector<std::string> errorBasis;
};

struct RoundsSource {
    std::shared_ptr<const RoundsSourceListing> listing;
    QString error;                         // rounds that cannot be listed (a sample type missing, ...)
};

// `function` matched exactly by name; `type` and `unit` the rounds' sample type (RoundsResult::sampleType).
// `durationNanos` stands in for profiles without one, as RoundsOptions::durationNanos does.
RoundsSource listFunctionRounds(const std::vector<RoundInput> &rounds, const SampleTypeInfo &type,
                                const std::string &function, const SourcePaths &paths, double noiseK,
                                int64_t durationNanos = 0);

}   // namespace qflame
