// `qflame heatmap FILE [--column-ms N] [--rows N] [--thread RE] [--sample TYPE] [--tsv]`: with --tsv one line per
// non-empty cell in time order, `column_start_ns<TAB>row<TAB>value` (nanoseconds from the first sample); without
// it a text grid for people, time to the right, each column's rows downwards.
#include "CliHeatmap.h"

#include "Cli.h"
#include "CliVerbs.h"
#include "report/ShapeJson.h"
#include "time/Heatmap.h"
#include "time/TimeRange.h"

#include <algorithm>
#include <iostream>
#include <optional>

namespace qflame {

namespace {

struct HeatmapArgs {
    std::optional<std::string> file, columnMs, rows, thread, sample, maxSize;
    bool tsv = false, json = false;
};

HeatmapArgs heatmapArgsFrom(const ParsedArgs &p)
{
    HeatmapArgs a;
    const std::vector<std::string> files = p.positional();
    if (files.size() != 1)
        usageError("heatmap takes exactly one FILE");
    a.file = files.front();
    a.columnMs = p.value("--column-ms"), a.rows = p.value("--rows"), a.thread = p.value("--thread");
    a.sample = p.value("--sample"), a.maxSize = p.value("--max-size");
    a.tsv = p.has("--tsv"), a.json = p.has("--json");
    if (a.tsv && a.json)
        usageError("choose one of --tsv and --json");
    return a;
}

void writeGrid(const Heatmap &h, const std::string &source, const std::string &type)
{
    static const char kShades[] = " .:-=+*#%@";
    std::string out = source + ": " + std::to_string(h.columns) + " columns of " + std::to_string(h.columnNanos / 1000000) +
                      " ms, " + std::to_string(h.rows) + " rows; " + type + ", at most " + std::to_string(h.maxValue) +
                      " per cell (" + std::string(kShades + 1) + " from low to high)\n";
    constexpr size_t kWidth = 100;
    for (size_t begin = 0; begin < h.columns; begin += kWidth) {
        const size_t end = std::min(h.columns, begin + kWidth);
        out += "from " + secondsText(double(h.cellStartNanos(begin, 0)), 6) + " s\n";
        for (uint32_t r = 0; r < h.rows; ++r) {
            out += '|';
            for (size_t c = begin; c < end; ++c) {
                const int64_t v = h.value(c, r);
                out += v <= 0 || h.maxValue <= 0 ? ' ' : kShades[1 + std::min<int64_t>(8, (v * 9 - 1) / h.maxValue)];
            }
            out += "|\n";
        }
    }
    writeToStdout(out);
}

}   // namespace

int runHeatmap(const ParsedArgs &argv)
{
    const HeatmapArgs a = heatmapArgsFrom(argv);
    HeatmapOptions o;
    if (a.columnMs) {
        const auto ms = parseCount(*a.columnMs);
        if (!ms || *ms == 0 || *ms > uint64_t(1) << 32)
            usageError("--column-ms takes a whole number of milliseconds, 1 or more, not '" + *a.columnMs + "'");
        o.columnNanos = int64_t(*ms) * 1000000;
    }
    if (a.rows) {
        const auto rows = parseCount(*a.rows);
        if (!rows || *rows == 0 || *rows > 100000)
            usageError("--rows takes a whole number from 1 to 100000, not '" + *a.rows + "'");
        o.rows = uint32_t(*rows);
    }
    o.threadRegex = a.thread.value_or(std::string());
    const auto profile = readProfileFile(*a.file, readOptionsFor(a.maxSize));
    leaveToProcessEnd(profile);
    o.type = chosenSampleType(*profile, a.sample);
    const Heatmap h = computeHeatmap(*profile, o);
    if (a.json) {
        writeToStdout(heatmapJson(h, profile->typeName(o.type), profile->unitName(o.type)));
        return 0;
    }
    if (!a.tsv) {
        writeGrid(h, profile->sourceName, profile->typeName(o.type) + "/" + profile->unitName(o.type));
        return 0;
    }
    std::string out;
    for (size_t c = 0; c < h.columns; ++c)
        for (uint32_t r = 0; r < h.rows; ++r)
            if (const int64_t v = h.value(c, r)) {
                out += std::to_string(int64_t(c) * h.columnNanos), out += '\t', out += std::to_string(r), out += '\t';
                out += std::to_string(v), out += '\n';
                if (out.size() > (1 << 16))
                    writeToStdout(out), out.clear();
            }
    writeToStdout(out);
    return 0;
}

}   // namespace qflame
