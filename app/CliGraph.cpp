#include "CliGraph.h"

#include "Cli.h"
#include "CliRounds.h"
#include "CliVerbs.h"
#include "formats/ProfileInput.h"
#include "graph/GraphMarks.h"
#include "graph/GraphReport.h"
#include "pprof/SampleTypes.h"
#include "report/ShapeJson.h"
#include "rounds/RoundFiles.h"
#include "rounds/Rounds.h"

#include <cmath>
#include <fstream>
#include <iostream>
#include <optional>

namespace qflame {

namespace {

GraphPictureWriter g_pictureWriter = nullptr;

struct GraphArgs {
    std::vector<std::string> positional;
    std::optional<std::string> sample, granularity, maxSize, nodeCount, nodeFraction, edgeFraction, noise, dot,
        svg, png, normalize;
    bool tsv = false, json = false;
    SampleFilters filters;
};

GraphArgs graphArgsFrom(const ParsedArgs &p)
{
    GraphArgs a;
    for (const std::string &s : p.positional())
        a.positional.push_back(s);
    a.sample = p.value("--sample"), a.granularity = p.value("--granularity"), a.maxSize = p.value("--max-size");
    a.nodeCount = p.value("--nodecount"), a.nodeFraction = p.value("--nodefraction");
    a.edgeFraction = p.value("--edgefraction"), a.noise = p.value("--noise"), a.dot = p.value("--dot");
    a.svg = p.value("--svg"), a.png = p.value("--png");
    if (p.has("--normalize"))   // diff --graph only: graph's row has no such option
        a.normalize = p.value("--normalize");
    a.tsv = p.has("--tsv"), a.json = p.has("--json");
    a.filters = sampleFiltersFrom(p);
    const int outputs = int(a.tsv) + int(a.json) + int(bool(a.dot)) + int(bool(a.svg)) + int(bool(a.png));
    if (outputs > 1)
        usageError("choose one of --tsv, --json, --dot, --svg and --png");
    return a;
}

double parseFraction(const std::optional<std::string> &text, const char *option, double fallback)
{
    if (!text)
        return fallback;
    size_t used = 0;
    double f = -1;
    try {
        f = std::stod(*text, &used);
    } catch (...) {
    }
    if (used != text->size() || !std::isfinite(f) || f < 0 || f > 1)
        usageError(std::string(option) + " takes a fraction between 0 and 1, not '" + *text + "'");
    return f;
}

GraphOptions graphOptions(const GraphArgs &a)
{
    GraphOptions o;
    if (a.nodeCount) {
        const std::optional<uint64_t> n = parseCount(*a.nodeCount);
        if (!n || *n > uint64_t(INT64_MAX))
            usageError("--nodecount takes a whole number (0: no limit), not '" + *a.nodeCount + "'");
        o.nodeCount = int64_t(*n);
    }
    o.nodeFraction = parseFraction(a.nodeFraction, "--nodefraction", o.nodeFraction);
    o.edgeFraction = parseFraction(a.edgeFraction, "--edgefraction", o.edgeFraction);
    return o;
}

BuildOptions buildOptions(const GraphArgs &a)
{
    BuildOptions build;
    if (a.granularity && !parseGranularity(*a.granularity, &build.granularity))
        usageError("--granularity must be functions, lines or addresses, not '" + *a.granularity + "'");
    build.filters = a.filters;
    return build;
}

void writeText(const std::string &path, const std::string &text)
{
    if (path == "-") {
        std::cout << text;
        return;
    }
    std::ofstream out(path, std::ios::binary);
    out << text;
    out.close();
    if (!out)
        throw ProfileError("cannot write " + path);
}

// For people: pprof's legend, then each node with its callers and callees, in pprof's order.
void printForPeople(const CallGraph &g)
{
    std::cout << "Type: " << g.sampleType().type << "/" << g.sampleType().unit << "  showing " << g.nodes().size()
              << " nodes accounting for " << graphDeltaText(g, g.shownDelta()) << " ("
              << graphPercentText(g, g.shownDelta()) << ") of " << graphDeltaText(g, g.scaledTotal()) << " total\n";
    if (g.isNormalized())
        std::cout << graphNormalizationLine(g) << "\n";
    if (g.hasMeasuredNoise())
        std::cout << "Noise measured from " << g.measuredSource() << " for " << measuredNodeCount(g) << " of "
                  << g.nodes().size() << " nodes and " << measuredEdgeCount(g) << " of " << g.edges().size()
                  << " edges (Poisson's for the rest)\n";
    if (g.droppedNodes())
        std::cout << "Dropped " << g.droppedNodes() << " nodes (cum <= " << graphValueText(g, g.nodeCutoff()) << ")\n";
    if (g.droppedEdges())
        std::cout << "Dropped " << g.droppedEdges() << " edges (freq <= " << graphValueText(g, g.edgeCutoff()) << ")\n";
    if (g.nodes().size() < g.nodesBeforeLimit())
        std::cout << "Showing top " << g.nodes().size() << " nodes out of " << g.nodesBeforeLimit() << "\n";
    for (uint32_t i = 0; i < g.nodes().size(); ++i) {
        const GraphNode &n = g.nodes()[i];
        std::cout << "\n" << escapeField(g.name(i)) << "  flat " << graphDeltaText(g, g.flatDelta(n)) << "  cum "
                  << graphDeltaText(g, g.cumDelta(n));
        if (g.isDiff())
            std::cout << "  (" << diffClassName(g.classOf(n)) << ")";
        std::cout << "\n";
        for (const GraphEdge &e : g.edges()) {
            const uint32_t edge = uint32_t(&e - g.edges().data());
            const std::string change = edgeInliningText(g, edge);   // the PGO panel's inlining change, if any
            if (e.to == i)
                std::cout << "    <- " << escapeField(g.name(e.from)) << "  " << graphDeltaText(g, g.edgeDelta(e)) << "  "
                          << e.kind() << (change.empty() ? "" : "  (" + change + ")") << "\n";
            if (e.from == i)
                std::cout << "    -> " << escapeField(g.name(e.to)) << "  " << graphDeltaText(g, g.edgeDelta(e)) << "  "
                          << e.kind() << (change.empty() ? "" : "  (" + change + ")") << "\n";
        }
    }
}

int output(const std::shared_ptr<const CallGraph> &graph, const GraphArgs &a)
{
    leaveToProcessEnd(graph);
    for (const auto &[file, svg] : {std::pair{a.png, false}, std::pair{a.svg, true}}) {
        if (!file)
            continue;
        if (!g_pictureWriter)
            throw ProfileError("drawing needs the GUI libraries (internal error: this program has no picture writer)");
        const std::string error = g_pictureWriter(graph, *file, svg);
        if (!error.empty())
            throw ProfileError(error);
        return 0;
    }
    if (a.dot)
        writeText(*a.dot, graphDot(*graph));
    else if (a.tsv)
        std::cout << graphTsv(*graph);
    else if (a.json)
        writeToStdout(graphJson(*graph));
    else
        printForPeople(*graph);
    return 0;
}

}   // namespace

void setGraphPictureWriter(GraphPictureWriter writer)
{
    g_pictureWriter = writer;
}

int runGraph(const ParsedArgs &argv)
{
    const GraphArgs a = graphArgsFrom(argv);
    if (a.positional.empty())
        usageError("graph takes one or more FILEs (several are merged)");
    const BuildOptions build = buildOptions(a);
    const GraphOptions options = graphOptions(a);
    const ReadOptions ro = readOptionsFor(a.maxSize);
    std::vector<std::shared_ptr<const Profile>> profiles;
    for (const std::string &f : a.positional)
        profiles.push_back(readProfileFile(f, ro));
    const size_t type = chosenSampleType(*profiles.front(), a.sample);
    auto graph = CallGraph::build(profiles, type, build, options);
    for (auto &p : profiles)
        leaveToProcessEnd(std::move(p));
    return output(graph, a);
}

int runDiffGraph(const ParsedArgs &argv)
{
    const GraphArgs a = graphArgsFrom(argv);
    if (a.positional.size() != 2)
        usageError("diff takes exactly two FILEs: BASE NEW");
    const BuildOptions build = buildOptions(a);
    const GraphOptions options = graphOptions(a);
    DiffOptions diff;   // the diff's normalisation and noise, parsed as diff parses them
    if (a.normalize && !parseNormalization(*a.normalize, &diff))
        usageError("--normalize must be none, per-second, total or a positive factor, not '" + *a.normalize + "'");
    if (a.noise) {
        size_t used = 0;
        try {
            diff.noiseK = std::stod(*a.noise, &used);
        } catch (...) {
            used = 0;
        }
        if (used != a.noise->size() || !std::isfinite(diff.noiseK) || diff.noiseK < 0)
            usageError("--noise takes a number of standard errors >= 0 (0 turns it off), not '" + *a.noise + "'");
    }
    const ReadOptions ro = readOptionsFor(a.maxSize);
    const auto base = readProfileFile(a.positional[0], ro);
    const auto comparison = readProfileFile(a.positional[1], ro);
    const size_t type = chosenSampleType(*base, a.sample);
    auto graph = CallGraph::buildDiff({base}, {comparison}, type, build, options, diff);
    // The inlining changes the PGO panel finds (its sample type: samples/count, cpu, else the default), on the
    // edges they name; a pair of profiles the PGO model cannot compare keeps its graph unmarked.
    try {
        graph = withInliningChanges(graph, computeInliningChanges({base}, {comparison}));
    } catch (const ProfileError &) {
    }
    leaveToProcessEnd(base);
    leaveToProcessEnd(comparison);
    return output(graph, a);
}

int runRoundsGraph(const ParsedArgs &argv)
{
    const GraphArgs a = graphArgsFrom(argv);
    std::vector<RoundFiles> specs;   // -r NAME FILE..., as rounds reads them
    for (const ParsedArgs::Item &item : argv.items) {
        if (item.option == "-r")
            specs.push_back({item.value, {}});
        else if (item.option.empty() && specs.empty())
            usageError("rounds: '" + item.value + "' comes before the first -r NAME");
        else if (item.option.empty())
            specs.back().paths.push_back(QString::fromStdString(item.value));
    }
    if (specs.size() < 2)
        usageError("rounds --graph compares the first round with the last: give two rounds or more");
    for (const RoundFiles &r : specs)
        if (r.paths.empty())
            usageError("round " + r.name + " has no FILEs");
    RoundsOptions ro;
    BuildOptions build = buildOptions(a);
    if (a.sample)
        ro.sample = *a.sample;
    ro.granularity = build.granularity;
    if (a.noise)
        ro.noiseK = parseNonNegative(*a.noise, "--noise");
    const GraphOptions options = graphOptions(a);
    std::vector<RoundInput> rounds = readRoundFiles(specs, readOptionsFor(a.maxSize));
    const RoundsResult result = compareRounds(rounds, ro);
    // The merged trees of the first and last rounds, per second (the unit the measured errors are in), then the
    // noise of the two rounds' spreads on the nodes and edges it names.
    DiffOptions diff;
    diff.normalization = Normalization::PerSecond;
    diff.noiseK = ro.noiseK;
    const Profile &first = *rounds.front().profiles.front();
    const int type = findExactSampleType(first, result.sampleType.type, result.sampleType.unit);
    auto graph = CallGraph::buildDiff(rounds.front().profiles, rounds.back().profiles, size_t(type), build, options,
                                      diff);
    graph = withMeasuredNoise(graph, measuredNoiseBetween(result, 0, rounds.size() - 1), graph->scale(0),
                              graph->scale(1));
    for (auto &r : rounds)
        for (auto &p : r.profiles)
            leaveToProcessEnd(std::move(p));
    return output(graph, a);
}

}   // namespace qflame
