// `qflame diff BASE NEW`: the per-function diff table of the model, printed exactly (--tsv, --csv) or for people.
#include "CliDiff.h"

#include "Cli.h"
#include "CliList.h"
#include "CliPgo.h"
#include "CliRender.h"
#include "diff/DiffTable.h"
#include "export/TableCsv.h"
#include "formats/ProfileInput.h"
#include "pprof/Units.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>

namespace qflame {

namespace {

struct DiffArgs {
    std::vector<std::string> positional;
    std::optional<std::string> sample, granularity, normalize, noise, maxSize, png, svg, list, sourcePath, trimPath;
    bool tsv = false, csv = false, inlining = false;
    SampleFilters frames;   // --tagroot, --tagleaf, --inverted
};

DiffArgs parseDiffArgs(const std::vector<std::string> &argv)
{
    DiffArgs a;
    for (size_t i = 0; i < argv.size(); ++i) {
        const std::string &s = argv[i];
        auto value = [&](std::optional<std::string> &slot) {
            const size_t eq = s.find('=');
            if (eq != std::string::npos)
                slot = s.substr(eq + 1);
            else if (i + 1 < argv.size())
                slot = argv[++i];
            else
                usageError("option " + s + " needs a value");
        };
        auto is = [&](const char *name) { return s == name || s.rfind(std::string(name) + "=", 0) == 0; };
        if (is("--sample"))
            value(a.sample);
        else if (is("--granularity"))
            value(a.granularity);
        else if (is("--normalize"))
            value(a.normalize);
        else if (is("--noise"))
            value(a.noise);
        else if (is("--max-size"))
            value(a.maxSize);
        else if (is("--png"))
            value(a.png);
        else if (is("--svg"))
            value(a.svg);
        else if (is("--list"))
            value(a.list);
        else if (is("--source-path"))
            value(a.sourcePath);
        else if (is("--trim-path"))
            value(a.trimPath);
        else if (s == "--tsv")
            a.tsv = true;
        else if (s == "--csv")   // the --tsv columns for spreadsheets, as `top --csv`
            a.csv = true;
        else if (s == "--inlining")
            a.inlining = true;
        else if (takeLabelFrameOption(argv, i, a.frames, true))
            ;
        else if (s.size() > 1 && s[0] == '-' && s != "-")
            usageError("unknown option " + s);
        else
            a.positional.push_back(s);
    }
    return a;
}

ReadOptions readOptions(const DiffArgs &a)
{
    return readOptionsFor(a.maxSize);
}

DiffOptions diffOptions(const DiffArgs &a)
{
    DiffOptions o;
    if (a.normalize && !parseNormalization(*a.normalize, &o))
        usageError("--normalize must be none, per-second, total or a positive factor, not '" + *a.normalize + "'");
    if (a.noise) {
        size_t used = 0;
        double k = -1;
        try {
            k = std::stod(*a.noise, &used);
        } catch (...) {
        }
        if (used != a.noise->size() || !std::isfinite(k) || k < 0)
            usageError("--noise takes a number of standard errors >= 0 (0 turns it off), not '" + *a.noise + "'");
        o.noiseK = k;
    }
    return o;
}

void printTsv(const DiffTable &table)
{
    const bool integers = table.tree().options().normalization == Normalization::None;
    for (const DiffRow &r : table.rows()) {
        if (integers)
            std::cout << r.beforeFlatRaw << '\t' << r.afterFlatRaw << '\t' << r.afterFlatRaw - r.beforeFlatRaw << '\t'
                      << r.beforeCumRaw << '\t' << r.afterCumRaw << '\t' << r.afterCumRaw - r.beforeCumRaw;
        else
            std::cout << formatExact(r.beforeFlat) << '\t' << formatExact(r.afterFlat) << '\t'
                      << formatExact(r.deltaFlat) << '\t' << formatExact(r.beforeCum) << '\t'
                      << formatExact(r.afterCum) << '\t' << formatExact(r.deltaCum);
        std::cout << '\t' << diffClassName(r.diffClass) << '\t' << escapeField(table.displayName(r)) << '\n';
    }
}

void printForPeople(const DiffTable &table)
{
    const DiffTree &t = table.tree();
    const double before = t.beforeTotal(DiffTree::kRoot), after = t.afterTotal(DiffTree::kRoot);
    const double delta = after - before;
    std::cout << "Comparing " << t.sampleType().type << "/" << t.sampleType().unit << " by "
              << granularityName(t.granularity()) << ": " << t.before().name << " -> " << t.after().name << "\n";
    std::cout << "Total " << t.formatValue(before) << " -> " << t.formatValue(after) << ", delta "
              << t.formatValue(delta, true) << " (" << (delta > 0 ? "+" : "") << formatPercent(delta, before)
              << " of the baseline total); " << t.durationDescription() << "; normalisation: "
              << t.normalizationDescription() << "; " << t.noiseDescription() << "\n";
    char line[200];
    snprintf(line, sizeof line, "%11s %11s %11s %11s %11s %11s %8s  %s\n", "flat before", "flat after", "flat delta",
             "cum before", "cum after", "cum delta", "delta%", "class     name");
    std::cout << line;
    for (const DiffRow &r : table.rows()) {
        const std::string pct =
            r.beforeCum != 0 ? (r.deltaCum > 0 ? "+" : "") + formatPercent(r.deltaCum, r.beforeCum) : "-";
        snprintf(line, sizeof line, "%11s %11s %11s %11s %11s %11s %8s  %-9s ", t.formatValue(r.beforeFlat).c_str(),
                 t.formatValue(r.afterFlat).c_str(), t.formatValue(r.deltaFlat, true).c_str(),
                 t.formatValue(r.beforeCum).c_str(), t.formatValue(r.afterCum).c_str(),
                 t.formatValue(r.deltaCum, true).c_str(), pct.c_str(), diffClassName(r.diffClass));
        std::cout << line << escapeField(table.displayName(r)) << '\n';
    }
}

}   // namespace

int runDiff(const std::vector<std::string> &argv)
{
    const DiffArgs a = parseDiffArgs(argv);
    if (a.positional.size() != 2)
        usageError("diff takes exactly two FILEs: BASE NEW");
    BuildOptions build;
    if (a.granularity && !parseGranularity(*a.granularity, &build.granularity))
        usageError("--granularity must be functions, lines or addresses, not '" + *a.granularity + "'");
    if (a.list && (a.inlining || a.csv || a.png || a.svg || a.normalize || a.granularity))
        usageError("--list shows source lines: it takes only --sample, --noise, --source-path, --trim-path, --tsv "
                   "and --max-size");
    if (!a.list && (a.sourcePath || a.trimPath))
        usageError("--source-path and --trim-path go with --list REGEX");
    if ((a.list || a.inlining) && (a.frames.addsLabelFrames() || a.frames.inverted))
        usageError("--tagroot, --tagleaf and --inverted go with the diff table and pictures, not --list or --inlining");
    build.filters = a.frames;
    if (a.inlining && (a.csv || a.png || a.svg || a.normalize || a.noise || a.granularity))
        usageError("--inlining compares calls by function name: it takes only --sample, --tsv and --max-size");
    const DiffOptions options = diffOptions(a);
    const ReadOptions ro = readOptions(a);
    const auto base = readProfileFile(QString::fromStdString(a.positional[0]), ro);
    const auto comparison = readProfileFile(QString::fromStdString(a.positional[1]), ro);
    int type = base->effectiveDefaultType();
    if (a.sample) {
        type = base->findSampleType(*a.sample);
        if (type < 0) {
            std::string known;
            for (size_t i = 0; i < base->sampleTypes.size(); ++i)
                known += (i ? ", " : "") + base->typeName(i) + "/" + base->unitName(i);
            usageError("no sample type '" + *a.sample + "' in " + base->sourceName + " (it has: " + known + ")");
        }
    }
    if (type < 0)
        throw ProfileError(base->sourceName + ": the profile has no sample types");
    if (a.list)
        return printDiffListing(base, comparison, size_t(type), *a.list, ListPaths{a.sourcePath, a.trimPath}, a.tsv,
                                options.noiseK);
    if (a.inlining)   // the sample type: --sample's, else the compiler's, else the default
        return printInliningChanges(base, comparison, a.sample ? type : -1, a.tsv);
    const DiffSide before = DiffSide::fromProfiles({base}, size_t(type), build);
    const DiffSide after = DiffSide::fromProfiles({comparison}, before.tree->sampleType(), build);
    const auto diff = DiffTree::build(before, after, options);
    for (const auto &[file, svg] : {std::pair{a.png, false}, std::pair{a.svg, true}}) {
        if (!file)
            continue;
        const std::string error = renderDiffPicture(diff, *file, svg);
        if (!error.empty())
            throw ProfileError(error);
    }
    const auto table = DiffTable::compute(diff);
    using Kept = std::shared_ptr<const void>;
    for (const Kept &done : {Kept(base), Kept(comparison), Kept(before.tree), Kept(before.countTree), Kept(after.tree),
                             Kept(after.countTree), Kept(diff), Kept(table)})
        leaveToProcessEnd(done);
    if (a.csv)
        std::cout << diffTableCsv(*table);
    else if (a.tsv)
        printTsv(*table);
    else
        printForPeople(*table);
    return 0;
}

}   // namespace qflame
