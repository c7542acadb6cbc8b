// The lines go tool pprof -list shows for each function and file of LineCosts, with their text: from 5 lines
// before the first line with a cost to 5 after the last (Go 1.19's pprof leaves function start lines out of
// this window), stopping at the end of the file. The same for a comparison, over the lines of both sides.
#pragma once

#include "diff/DiffTree.h"
#include "source/LineCosts.h"
#include "source/SourceFinder.h"

#include <cstdint>
#include <string>
#include <vector>

namespace qflame {

inline constexpr int64_t kListingMargin = 5;

struct ListedLine {
    int64_t line = 0;
    LineCost before, after;        // `after` only in a comparison
    std::string text;
    // In a comparison: the class of the cum delta (DiffTree's rule), with the Poisson standard error from the
    // sample counts behind each side's cum when they are known (else 0: no noise test).
    DiffClass cls = DiffClass::Unchanged;
    double standardError = 0;
};

struct ListedFile {
    std::string function;
    std::string file;              // as the profile names it (displayPath); empty: no source information
    std::string readFile;          // the file read, empty when none was
    std::string error;             // why none was
    std::string foundIn;           // SourceFile::foundIn
    LineCost before, after;        // sums over the file's lines with a cost
    std::vector<ListedLine> lines;
    // Lines with a cost past the end of the file read: it is not the file that was profiled.
    size_t linesPastEnd = 0;
    int64_t lastCostLine = 0;
};

struct SourceListing {
    std::string sampleType, unit;
    int64_t total = 0, afterTotal = 0;
    bool comparison = false;
    bool countsKnown = false;      // the comparison's lines have sample counts (a noise test)
    double noiseK = 0;
    std::vector<ListedFile> files;  // functions by name, each's files by name
};

SourceListing listSource(const LineCosts &costs, SourceFinder &finder);

// The sample counts behind the values of a comparison (LineCosts of samples/count over the same functions), for
// its noise test; null: unknown.
struct LineNoise {
    const LineCosts *beforeCounts = nullptr, *afterCounts = nullptr;
    double k = 2.0;
};

// Per line before and after; functions and files of either side, in the same order.
SourceListing listSourceDiff(const LineCosts &before, const LineCosts &after, SourceFinder &finder,
                             const LineNoise &noise = {});

}   // namespace qflame
