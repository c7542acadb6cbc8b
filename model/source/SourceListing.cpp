#include "source/SourceListing.h"

#include <algorithm>
#include <map>

namespace qflame {

namespace {

struct SidedCost {
    LineCost before, after;
    int64_t beforeCount = 0, afterCount = 0;   // the samples behind the cum values
};

// One function's file on both sides: its lines with a cost.
struct Sided {
    std::map<int64_t, SidedCost> lines;
    LineCost before, after;
};

void addSide(const LineCosts &costs, bool after,
             std::map<std::string, std::map<std::string, Sided>> &byFunction)
{
    for (const FunctionLineCosts &fn : costs.functions) {
        auto &files = byFunction[fn.name];
        for (const FileLineCosts &f : fn.files) {
            Sided &s = files[f.file];
            (after ? s.after : s.before) = LineCost{f.flat, f.cum};
            for (const auto &[line, cost] : f.lines)
                (after ? s.lines[line].after : s.lines[line].before) = cost;
        }
    }
}

// The counts of one side, onto the lines that side has values for (the same samples, so the same lines).
void addCounts(const LineCosts &counts, bool after, std::map<std::string, std::map<std::string, Sided>> &byFunction)
{
    for (const FunctionLineCosts &fn : counts.functions) {
        auto f = byFunction.find(fn.name);
        if (f == byFunction.end())
            continue;
        for (const FileLineCosts &file : fn.files) {
            auto s = f->second.find(file.file);
            if (s == f->second.end())
                continue;
            for (const auto &[line, cost] : file.lines) {
                auto l = s->second.lines.find(line);
                if (l != s->second.lines.end())
                    (after ? l->second.afterCount : l->second.beforeCount) = cost.cum;
            }
        }
    }
}

SourceListing listSides(const std::map<std::string, std::map<std::string, Sided>> &byFunction, SourceFinder &finder,
                        const LineNoise *noise = nullptr)
{
    SourceListing out;
    for (const auto &[function, files] : byFunction) {
        if (files.empty()) {
            ListedFile none;
            none.function = function;
            out.files.push_back(std::move(none));
            continue;
        }
        for (const auto &[file, sided] : files) {
            ListedFile lf;
            lf.function = function;
            lf.file = file;
            lf.before = sided.before;
            lf.after = sided.after;
            const SourceFile &src = finder.read(file);
            lf.readFile = src.path;
            lf.error = src.error;
            lf.foundIn = src.foundIn;
            if (!src.error.empty() || sided.lines.empty()) {
                out.files.push_back(std::move(lf));
                continue;
            }
            const int64_t first = sided.lines.begin()->first, last = sided.lines.rbegin()->first;
            lf.lastCostLine = last;
            const int64_t start = std::max<int64_t>(first - kListingMargin, 1), end = last + kListingMargin;
            for (int64_t n = start; n <= end && n <= int64_t(src.lines.size()); ++n) {
                ListedLine line;
                line.line = n;
                auto it = sided.lines.find(n);
                if (it != sided.lines.end()) {
                    line.before = it->second.before, line.after = it->second.after;
                    if (noise) {
                        const double delta = double(line.after.cum) - double(line.before.cum);
                        if (noise->beforeCounts && noise->afterCounts)
                            line.standardError = deltaStandardError(double(line.before.cum),
                                                                    double(it->second.beforeCount),
                                                                    double(line.after.cum),
                                                                    double(it->second.afterCount));
                        line.cls = classifyDelta(line.before.cum != 0, line.after.cum != 0, delta,
                                                 line.standardError, noise->k);
                    }
                }
                line.text = src.lines[size_t(n - 1)];
                lf.lines.push_back(std::move(line));
            }
            for (const auto &entry : sided.lines)
                lf.linesPastEnd += entry.first > int64_t(src.lines.size());
            out.files.push_back(std::move(lf));
        }
    }
    return out;
}

}   // namespace

SourceListing listSource(const LineCosts &costs, SourceFinder &finder)
{
    std::map<std::string, std::map<std::string, Sided>> byFunction;
    addSide(costs, false, byFunction);
    SourceListing out = listSides(byFunction, finder);
    out.sampleType = costs.sampleType;
    out.unit = costs.unit;
    out.total = costs.total;
    return out;
}

SourceListing listSourceDiff(const LineCosts &before, const LineCosts &after, SourceFinder &finder,
                             const LineNoise &noise)
{
    std::map<std::string, std::map<std::string, Sided>> byFunction;
    addSide(before, false, byFunction);
    addSide(after, true, byFunction);
    const bool counts = noise.beforeCounts && noise.afterCounts;
    if (counts) {
        addCounts(*noise.beforeCounts, false, byFunction);
        addCounts(*noise.afterCounts, true, byFunction);
    }
    SourceListing out = listSides(byFunction, finder, &noise);
    out.countsKnown = counts;
    out.noiseK = noise.k;
    out.sampleType = before.sampleType;
    out.unit = before.unit;
    out.total = before.total;
    out.afterTotal = after.total;
    out.comparison = true;
    return out;
}

}   // namespace qflame
