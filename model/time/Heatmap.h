// The subsecond-offset heatmap of a profile with a timeline (FlameScope's): time in columns (one second, or a
// chosen width, from the first sample), each column cut into rows (50 by default) of equal parts of it; a cell
// holds the sum of the chosen sample type's values of the events in it, on the threads chosen.
#pragma once

#include "pprof/Profile.h"
#include "time/TimeRange.h"

#include <cstdint>
#include <string>
#include <vector>

namespace qflame {

struct HeatmapOptions {
    int64_t columnNanos = 1000000000;
    uint32_t rows = 50;
    size_t type = 0;           // sample type
    std::string threadRegex;   // threads whose name matches (io/Regex.h, unanchored); empty: all
};

struct Heatmap {
    int64_t columnNanos = 0;
    uint32_t rows = 0;
    size_t columns = 0;
    std::vector<int64_t> cells;   // cells[column * rows + row]
    int64_t maxValue = 0;
    int64_t startNanos = 0;       // the first sample's time on the file's clock
    bool wallClock = false;
    int64_t value(size_t column, uint32_t row) const { return cells[column * rows + row]; }
    // Where a cell starts, in nanoseconds from the first sample, and how long it is (the last row of a column
    // takes what the division leaves).
    int64_t cellStartNanos(size_t column, uint32_t row) const;
    int64_t cellEndNanos(size_t column, uint32_t row) const;
    // The time from one cell to another, both included, whichever comes first (FlameScope's selection from a
    // start cell to an end cell): a cell alone when they are the same.
    TimeRange cellSpan(size_t column, uint32_t row, size_t toColumn, uint32_t toRow) const;
};

// The limit on cells (columns times rows): 16 million (128 MiB); a wider column is the answer past it.
inline constexpr uint64_t kMaxHeatmapCells = uint64_t(16) << 20;

// ProfileError without a timeline, for a column or row count out of range, past kMaxHeatmapCells or for a
// thread regex that does not compile.
Heatmap computeHeatmap(const Profile &profile, const HeatmapOptions &options);

}   // namespace qflame
