#include "time/Heatmap.h"

#include "io/ReadOptions.h"
#include "io/Regex.h"
#include "time/TimeRange.h"
#include "time/Timeline.h"

#include <algorithm>

namespace qflame {

int64_t Heatmap::cellStartNanos(size_t column, uint32_t row) const
{
    return int64_t(column) * columnNanos + int64_t((__int128(columnNanos) * row + rows - 1) / rows);   // the first nanosecond whose row is `row`
}

int64_t Heatmap::cellEndNanos(size_t column, uint32_t row) const
{
    return row + 1 == rows ? int64_t(column + 1) * columnNanos : cellStartNanos(column, row + 1);
}

TimeRange Heatmap::cellSpan(size_t column, uint32_t row, size_t toColumn, uint32_t toRow) const
{
    if (std::pair(toColumn, toRow) < std::pair(column, row))
        std::swap(column, toColumn), std::swap(row, toRow);
    return {cellStartNanos(column, row), cellEndNanos(toColumn, toRow)};
}

Heatmap computeHeatmap(const Profile &profile, const HeatmapOptions &options)
{
    const Timeline &t = requireTimeline(profile, "a heatmap");
    if (options.columnNanos <= 0)
        throw ProfileError("the heatmap's column width must be positive");
    if (options.rows < 1 || options.rows > 100000)
        throw ProfileError("the heatmap's rows must be 1 to 100000, not " + std::to_string(options.rows));
    if (options.type >= profile.sampleTypes.size())
        throw ProfileError(profile.sourceName + ": no sample type " + std::to_string(options.type));
    Heatmap h;
    h.columnNanos = options.columnNanos;
    h.rows = options.rows;
    h.startNanos = t.startNanos;
    h.wallClock = t.wallClock;
    const uint64_t columns = uint64_t(t.spanNanos / options.columnNanos) + 1;
    if (columns > kMaxHeatmapCells / options.rows)
        throw ProfileError(profile.sourceName + ": the heatmap would have " + std::to_string(columns) + " columns of " +
                           std::to_string(options.rows) + " rows, more than " + std::to_string(kMaxHeatmapCells) +
                           " cells: choose wider columns");
    h.columns = size_t(columns);
    h.cells.assign(h.columns * h.rows, 0);
    std::vector<uint8_t> keepThread(t.threadNames.size(), 1);
    if (!options.threadRegex.empty()) {
        const Regex re(options.threadRegex);
        if (!re.isValid())
            throw ProfileError("the thread regex '" + options.threadRegex + "' is not valid: " + re.errorString());
        for (size_t i = 0; i < keepThread.size(); ++i)
            keepThread[i] = re.matches(t.threadNames[i]);
    }
    const EventValues value(profile, options.type);
    // The events come in time order, so the cell of one is the last one's or a later one: the row is found by
    // stepping over row ends, and the divisions (a 128-bit one per event took half of an hour's 28.8 million
    // events' 1.2 s) run only when an event leaves its column, or is before its cell (never, in time order).
    size_t column = 0;
    uint32_t row = 0;
    int64_t cellStart = 0, cellEnd = -1, columnEnd = -1;
    t.forEach([&](size_t, int64_t nanos, uint32_t s, int64_t weight) {
        if (!keepThread[t.threadOf(s)])
            return;
        if (nanos >= columnEnd || nanos < cellStart) {
            column = size_t(nanos / options.columnNanos);
            const int64_t offset = nanos - int64_t(column) * options.columnNanos;
            row = uint32_t((__int128(offset) * options.rows) / options.columnNanos);
            columnEnd = int64_t(column + 1) * options.columnNanos;
            cellStart = h.cellStartNanos(column, row), cellEnd = h.cellEndNanos(column, row);
        }
        while (nanos >= cellEnd)
            cellStart = cellEnd, cellEnd = h.cellEndNanos(column, ++row);
        int64_t &cell = h.cells[column * h.rows + row];
        cell = wrappingAdd(cell, value(weight, s));
    });
    for (int64_t v : h.cells)
        h.maxValue = std::max(h.maxValue, v);
    return h;
}

}   // namespace qflame
