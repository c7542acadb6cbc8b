// `qflame list` and `qflame diff --list`, printed from model/source.
#include "CliList.h"

#include "Cli.h"
#include "CliVerbs.h"
#include "report/ListReport.h"
#include "report/ListingColumns.h"
#include "formats/ProfileInput.h"
#include "diff/DiffTree.h"
#include "pprof/PprofLabels.h"
#include "source/FunctionSource.h"
#include "source/LineCosts.h"
#include "source/SourceListing.h"
#include "tree/PprofRegex.h"

#include <QString>

#include <cstdio>
#include <iostream>

namespace qflame {

namespace {

struct ListArgs {
    std::vector<std::string> positional;
    std::optional<std::string> sample, granularity, maxSize;
    ListPaths paths;
    bool tsv = false, json = false;
};

ListArgs listArgsFrom(const ParsedArgs &p)
{
    ListArgs a;
    a.positional = p.positional();   // the first is the regex, which may begin with '-'
    a.sample = p.value("--sample"), a.granularity = p.value("--granularity"), a.maxSize = p.value("--max-size");
    a.paths = {p.value("--source-path"), p.value("--trim-path")};
    a.tsv = p.has("--tsv"), a.json = p.has("--json");
    return a;
}

std::vector<std::string> splitList(const std::optional<std::string> &s)
{
    std::vector<std::string> out;
    if (!s)
        return out;
    size_t start = 0;
    for (;;) {
        const size_t colon = s->find(':', start);
        const std::string part = s->substr(start, colon == std::string::npos ? std::string::npos : colon - start);
        if (!part.empty())
            out.push_back(part);
        if (colon == std::string::npos)
            return out;
        start = colon + 1;
    }
}

SourceFinder finderFor(const ListPaths &paths, const std::vector<std::shared_ptr<const Profile>> &profiles)
{
    SourcePaths sp = defaultSourcePaths();
    sp.searchPath = splitList(paths.sourcePath);
    sp.trimPaths = splitList(paths.trimPath);
    return sourceFinderFor(sp, profiles);
}

// Files that could not be shown, and files that are shorter than the profile says, on stderr: the listing on
// stdout stays what pprof prints.
void warnAbout(const ListedFile &f)
{
    if (f.linesPastEnd > 0)
        std::cerr << "qflame: warning: " << f.readFile << " has " << f.lines.size() << " lines shown but the "
                  << "profile has costs on " << f.linesPastEnd << " lines past its end (up to line "
                  << f.lastCostLine << "): it is not the source that was profiled\n";
}

// Where pprof finds the file, the listing is pprof's; where only qflame does, it says where it read.
std::string foundBeyondPprof(const ListedFile &f)
{
    return f.foundIn.empty() ? std::string() : " Source: " + f.readFile + " (found in " + f.foundIn + ")\n";
}

// What both listings share: the files in order, "No source information", errors, the TSV's leading columns and
// pprof's ROUTINE lines. `tsvCells` appends a line's value columns (each after a tab), `header` the line under
// ROUTINE, `row` a line's value columns before its number.
template <typename TsvCells, typename Header, typename Row>
void printFiles(const SourceListing &l, bool tsv, std::string &out, TsvCells tsvCells, Header header, Row row)
{
    for (const ListedFile &f : l.files) {
        if (f.file.empty()) {
            if (tsv)
                std::cerr << "qflame: no source information for " << f.function << "\n";
            else
                out += "No source information for " + f.function + "\n";
            continue;
        }
        if (tsv) {
            if (!f.error.empty())
                std::cerr << "qflame: " << f.function << ": " << f.error << "\n";
            for (const ListedLine &line : f.lines) {
                appendEscaped(out, f.function);
                out += '\t';
                appendEscaped(out, f.readFile);
                out += '\t' + std::to_string(line.line);
                tsvCells(out, line);
                out += '\t';
                appendEscaped(out, line.text);
                out += '\n';
            }
        } else {
            out += "ROUTINE ======================== " + f.function + " in " + f.file + "\n" + header(f);
            if (!f.error.empty())
                out += " Error: " + f.error + "\n";
            out += foundBeyondPprof(f);
            for (const ListedLine &line : f.lines) {
                char number[32];
                std::snprintf(number, sizeof number, "%6lld:", static_cast<long long>(line.line));
                out += row(line) + number + line.text + "\n";
            }
        }
        warnAbout(f);
    }
}

void printListing(const SourceListing &l, bool tsv)
{
    std::string out;
    if (!tsv)
        out += "Total: " + pprofScaledLabel(l.total, l.unit) + "\n";
    printFiles(
        l, tsv, out,
        [](std::string &o, const ListedLine &line) {
            o += '\t' + std::to_string(line.before.flat) + '\t' + std::to_string(line.before.cum);
        },
        [&l](const ListedFile &f) {
            return padLeft(pprofScaledLabel(f.before.flat, l.unit), 10) + " " +
                   padLeft(pprofScaledLabel(f.before.cum, l.unit), 10) + " (flat, cum) " +
                   pprofPercentage(f.before.cum, l.total) + " of Total\n";
        },
        [&l](const ListedLine &line) {
            return padLeft(valueOrDot(line.before.flat, l.unit), 10) + " " +
                   padLeft(valueOrDot(line.before.cum, l.unit), 10) + " ";
        });
    std::cout << out;
}

void printDiff(const SourceListing &l, bool tsv)
{
    std::string out;
    if (!tsv) {
        out += "Total: " + pprofScaledLabel(l.total, l.unit) + " -> " + pprofScaledLabel(l.afterTotal, l.unit) +
               "\n";
        char rule[160];
        if (l.countsKnown && l.noiseK > 0)
            std::snprintf(rule, sizeof rule, "Noise: a line's cum delta under %g Poisson standard errors (from "
                          "samples/count) is noise\n", l.noiseK);
        else
            std::snprintf(rule, sizeof rule, "Noise: not tested (%s)\n",
                          l.noiseK > 0 ? "no samples/count on both sides" : "--noise 0");
        out += rule;
    }
    printFiles(
        l, tsv, out,
        [](std::string &o, const ListedLine &line) {
            for (int64_t v : {line.before.flat, line.after.flat, wrappingAdd(line.after.flat, -line.before.flat),
                              line.before.cum, line.after.cum, wrappingAdd(line.after.cum, -line.before.cum)})
                o += '\t' + std::to_string(v);
            o += std::string("\t") + diffClassName(line.cls);
        },
        [&l](const ListedFile &f) {
            return padLeft(pprofScaledLabel(f.before.cum, l.unit), 10) + " " +
                   padLeft(pprofScaledLabel(f.after.cum, l.unit), 10) + " " +
                   padLeft(signedValue(wrappingAdd(f.after.cum, -f.before.cum), l.unit), 10) +
                   " (cum before, after, delta)\n";
        },
        [&l](const ListedLine &line) {
            const std::string cls = line.cls == DiffClass::Unchanged ? "" : diffClassName(line.cls);
            return padLeft(valueOrDot(line.before.cum, l.unit), 10) + " " +
                   padLeft(valueOrDot(line.after.cum, l.unit), 10) + " " +
                   padLeft(signedValue(wrappingAdd(line.after.cum, -line.before.cum), l.unit), 10) + " " +
                   padLeft(cls, 7) + " ";
        });
    std::cout << out;
}

void requireMatches(const SourceListing &l, const std::string &regex)
{
    if (l.files.empty())
        throw ProfileError("no matches found for regexp: " + regex);   // pprof's words
}

}   // namespace

int runList(const ParsedArgs &argv)
{
    const ListArgs a = listArgsFrom(argv);
    if (a.positional.size() < 2)
        usageError("list takes a REGEX and one or more FILEs (several are merged)");
    if (a.granularity && *a.granularity != "lines")
        usageError("list shows source lines: --granularity takes only lines, not '" + *a.granularity + "'");
    const Regex re = compileRequiredPprofRegex(a.positional[0], "list");
    const ReadOptions read = readOptionsFor(a.maxSize);
    std::vector<std::shared_ptr<const Profile>> profiles;
    for (size_t i = 1; i < a.positional.size(); ++i) {
        profiles.push_back(readProfileFile(a.positional[i], read));
        leaveToProcessEnd(profiles.back());
    }
    const Profile &first = *profiles.front();
    const size_t type = chosenSampleType(first, a.sample);
    SourceFinder finder = finderFor(a.paths, profiles);
    const SourceListing listing = listSource(lineCostsFor(profiles, type, re, finder), finder);
    requireMatches(listing, a.positional[0]);
    if (a.json)
        writeToStdout(listJson(listing));
    else
        printListing(listing, a.tsv);
    return 0;
}

int printDiffListing(const std::shared_ptr<const Profile> &base, const std::shared_ptr<const Profile> &next,
                     size_t sampleType, const std::string &regex, const ListPaths &paths, bool tsv, double noiseK,
                     bool json)
{
    const Regex re = compileRequiredPprofRegex(regex, "list");
    SourceFinder finder = finderFor(paths, {base, next});
    const SourceListing listing = diffListing({base}, {next}, sampleType, re, finder, noiseK);
    requireMatches(listing, regex);
    if (json)
        writeToStdout(listJson(listing));
    else
        printDiff(listing, tsv);
    return 0;
}

}   // namespace qflame
