// `qflame diff BASE NEW`: the per-function diff table of the model, printed exactly (--tsv, --csv) or for people.
#include "CliDiff.h"

#include "Cli.h"
#include "CliGraph.h"
#include "CliDisasm.h"
#include "CliList.h"
#include "CliPgo.h"
#include "CliRender.h"
#include "CliVerbs.h"
#include "diff/DiffTable.h"
#include "export/TableCsv.h"
#include "formats/ProfileInput.h"
#include "pprof/Units.h"
#include "report/DiffReport.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>

namespace qflame {

namespace {

struct DiffArgs {
    std::vector<std::string> positional;
    std::optional<std::string> sample, granularity, normalize, noise, maxSize, png, svg, list, sourcePath, trimPath;
    bool tsv = false, csv = false, json = false, inlining = false;
    SampleFilters frames;   // --tagroot, --tagleaf, --inverted
};

DiffArgs diffArgsFrom(const ParsedArgs &p)
{
    DiffArgs a;
    a.positional = p.positional();
    a.sample = p.value("--sample"), a.granularity = p.value("--granularity"), a.normalize = p.value("--normalize");
    a.noise = p.value("--noise"), a.maxSize = p.value("--max-size"), a.png = p.value("--png"), a.svg = p.value("--svg");
    a.list = p.value("--list"), a.sourcePath = p.value("--source-path"), a.trimPath = p.value("--trim-path");
    a.tsv = p.has("--tsv"), a.csv = p.has("--csv"), a.json = p.has("--json"), a.inlining = p.has("--inlining");
    a.frames = sampleFiltersFrom(p);   // --tagroot, --tagleaf, --inverted: the only ones diff's table has
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

// What the options ask for, checked before any profile is read (a usage error is exit 1 whatever the files).
struct DiffPlan {
    BuildOptions build;
    DiffOptions options;
};

DiffPlan planDiff(const DiffArgs &a)
{
    DiffPlan plan;
    if (a.granularity && !parseGranularity(*a.granularity, &plan.build.granularity))
        usageError("--granularity must be functions, lines or addresses, not '" + *a.granularity + "'");
    if (a.list && (a.inlining || a.csv || a.png || a.svg || a.normalize || a.granularity))
        usageError("--list shows source lines: it takes only --sample, --noise, --source-path, --trim-path, --tsv, "
                   "--json and --max-size");
    if (!a.list && (a.sourcePath || a.trimPath))
        usageError("--source-path and --trim-path go with --list REGEX");
    if ((a.list || a.inlining) && (a.frames.addsLabelFrames() || a.frames.inverted))
        usageError("--tagroot, --tagleaf and --inverted go with the diff table and pictures, not --list or --inlining");
    plan.build.filters = a.frames;
    if (a.inlining && (a.csv || a.png || a.svg || a.normalize || a.noise || a.granularity))
        usageError("--inlining compares calls by function name: it takes only --sample, --tsv, --json and "
                   "--max-size");
    plan.options = diffOptions(a);
    return plan;
}

// The report of the two profiles, named as their files when the names are empty.
int reportDiff(const DiffArgs &a, const DiffPlan &plan, const std::shared_ptr<const Profile> &base,
               const std::shared_ptr<const Profile> &comparison, const std::string &baseName,
               const std::string &newName)
{
    const BuildOptions &build = plan.build;
    const DiffOptions &options = plan.options;
    const size_t type = chosenSampleType(*base, a.sample);
    if (a.list)
        return printDiffListing(base, comparison, type, *a.list, ListPaths{a.sourcePath, a.trimPath}, a.tsv,
                                options.noiseK, a.json);
    if (a.inlining)   // the sample type: --sample's, else the compiler's, else the default
        return printInliningChanges(base, comparison, a.sample ? int(type) : -1, a.tsv, a.json);
    DiffSide before = DiffSide::fromProfiles({base}, type, build);
    DiffSide after = DiffSide::fromProfiles({comparison}, before.tree->sampleType(), build);
    if (!baseName.empty())
        before.name = baseName;
    if (!newName.empty())
        after.name = newName;
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
    else if (a.json)
        writeToStdout(diffJson(*table));
    else if (a.tsv)
        writeDiffTsv(*table, writeToStdout);
    else
        writeDiffText(*table, writeToStdout);
    return 0;
}

}   // namespace

int runDiff(const ParsedArgs &args)
{
    const DiffArgs a = diffArgsFrom(args);
    if (a.positional.size() != 2)
        usageError("diff takes exactly two FILEs: BASE NEW");
    const DiffPlan plan = planDiff(a);
    const ReadOptions ro = readOptions(a);
    const auto base = readProfileFile(a.positional[0], ro);
    const auto comparison = readProfileFile(a.positional[1], ro);
    return reportDiff(a, plan, base, comparison, {}, {});
}

int runDiffOf(std::shared_ptr<const Profile> base, std::shared_ptr<const Profile> comparison,
              const std::string &baseName, const std::string &newName, const std::vector<std::string> &options)
{
    const VerbSpec *form = verbForm("diff", {});   // diff BASE NEW's options, without files
    const DiffArgs a = diffArgsFrom(parseVerbArgsOrExit(*form, options));
    if (!a.positional.empty())
        usageError("unexpected argument " + a.positional.front());
    return reportDiff(a, planDiff(a), base, comparison, baseName, newName);
}

}   // namespace qflame
