#include "CliRounds.h"

#include "Cli.h"
#include "CliVerbs.h"
#include "export/TableCsv.h"
#include "pprof/Units.h"
#include "report/RoundsReport.h"
#include "rounds/RoundFiles.h"
#include "rounds/Rounds.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>

namespace qflame {

namespace {

using Output = RoundsOutput;

struct RoundsArgs {
    std::vector<std::pair<std::string, std::vector<std::string>>> rounds;   // name, files
    std::optional<std::string> sample, granularity, noise, duration, maxSize;
    Output output = Output::Window;
};

RoundsArgs roundsArgsFrom(const ParsedArgs &p)
{
    RoundsArgs a;
    bool outputGiven = false;
    for (const ParsedArgs::Item &item : p.items) {
        const OptionSpec *spec = item.option.empty() ? nullptr : p.verb->option(item.option);
        if (spec && spec->output) {
            if (outputGiven)
                usageError("rounds takes one of --tsv, --csv, --markdown and --json");
            outputGiven = true;
            a.output = item.option == "--tsv"   ? Output::Tsv
                       : item.option == "--csv" ? Output::Csv
                       : item.option == "--markdown" ? Output::Markdown
                                                     : Output::Json;
        } else if (item.option == "-r") {
            a.rounds.push_back({item.value, {}});
        } else if (item.option.empty()) {
            if (a.rounds.empty())
                usageError("rounds: '" + item.value + "' comes before the first -r NAME");
            a.rounds.back().second.push_back(item.value);
        }
    }
    a.sample = p.value("--sample"), a.granularity = p.value("--granularity"), a.noise = p.value("--noise");
    a.duration = p.value("--duration"), a.maxSize = p.value("--max-size");
    if (a.rounds.empty())
        usageError("rounds takes at least one round: -r NAME FILE...");
    for (const auto &[name, files] : a.rounds)
        if (files.empty())
            usageError("round " + name + " has no FILEs");
    return a;
}

}   // namespace

double parseNonNegative(const std::string &text, const char *option)
{
    size_t used = 0;
    double v = 0;
    try {
        v = std::stod(text, &used);
    } catch (...) {
        used = 0;
    }
    if (used != text.size() || !std::isfinite(v) || v < 0)
        usageError(std::string(option) + " takes a number >= 0, not '" + text + "'");
    return v;
}

namespace {

RoundsOptions roundsOptions(const RoundsArgs &a)
{
    RoundsOptions options;
    if (a.sample)
        options.sample = *a.sample;
    if (a.granularity && !parseGranularity(*a.granularity, &options.granularity))
        usageError("--granularity must be functions, lines or addresses, not '" + *a.granularity + "'");
    if (a.noise)
        options.noiseK = parseNonNegative(*a.noise, "--noise");
    if (a.duration) {
        const double seconds = parseNonNegative(*a.duration, "--duration");
        if (seconds <= 0 || seconds > 1e9)
            usageError("--duration takes a number of seconds > 0, not '" + *a.duration + "'");
        options.durationNanos = int64_t(std::llround(seconds * 1e9));
    }
    return options;
}

std::vector<RoundFiles> roundFiles(const RoundsArgs &a)
{
    std::vector<RoundFiles> specs;
    for (const auto &[name, files] : a.rounds) {
        RoundFiles spec{name, {}};
        for (const std::string &f : files)
            spec.paths.push_back(QString::fromStdString(f));
        specs.push_back(std::move(spec));
    }
    return specs;
}

}   // namespace

void printRounds(const RoundsResult &result, RoundsOutput output)
{
    switch (output) {
    case Output::Tsv: writeRoundsTsv(result, writeToStdout); break;
    case Output::Csv: writeRoundsCsv(result, writeToStdout); break;
    case Output::Markdown: writeToStdout(roundsMarkdown(result)); break;
    case Output::Json: writeToStdout(roundsJson(result)); break;
    case Output::Window: break;   // not reached: without an output option, qflame-gui opens the rounds tab
    }
}

RoundsRequest parseRoundsRequest(const std::vector<std::string> &args)
{
    const ParsedArgs parsed = parseVerbArgsOrExit(*verbForm("rounds", {}), args);
    applyCommonOptions(parsed);
    const RoundsArgs a = roundsArgsFrom(parsed);
    return {roundFiles(a), roundsOptions(a), readOptionsFor(a.maxSize).maxDecompressedBytes};
}

int runRounds(const ParsedArgs &argv)
{
    const RoundsArgs a = roundsArgsFrom(argv);
    RoundsOptions options = roundsOptions(a);
    options.edgeNoise = false;   // its tables have no call graph (rounds --graph has)
    const ReadOptions ro = readOptionsFor(a.maxSize);
    std::vector<RoundInput> rounds = readRoundFiles(roundFiles(a), ro);
    const RoundsResult result = compareRounds(rounds, options);
    for (auto &r : rounds)
        for (auto &p : r.profiles)
            leaveToProcessEnd(std::move(p));
    printRounds(result, a.output);
    return 0;
}

}   // namespace qflame
