#include "CliRounds.h"

#include "Cli.h"
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

RoundsArgs parseRoundsArgs(const std::vector<std::string> &argv)
{
    RoundsArgs a;
    bool outputGiven = false;
    for (size_t i = 0; i < argv.size(); ++i) {
        const std::string &s = argv[i];
        if (takeOption(argv, i, "--sample", a.sample) || takeOption(argv, i, "--granularity", a.granularity) ||
            takeOption(argv, i, "--noise", a.noise) || takeOption(argv, i, "--duration", a.duration) ||
            takeOption(argv, i, "--max-size", a.maxSize))
            continue;
        auto output = [&](Output o) {
            if (outputGiven)
                usageError("rounds takes one of --tsv, --csv, --markdown and --json");
            outputGiven = true;
            a.output = o;
        };
        if (s == "-r") {
            if (i + 1 >= argv.size())
                usageError("-r needs a round NAME");
            a.rounds.push_back({argv[++i], {}});
        } else if (s == "--tsv") {
            output(Output::Tsv);
        } else if (s == "--csv") {
            output(Output::Csv);
        } else if (s == "--markdown") {
            output(Output::Markdown);
        } else if (s == "--json") {
            output(Output::Json);
        } else if (s.size() > 1 && s[0] == '-' && s != "-") {
            usageError("unknown option " + s);
        } else {
            if (a.rounds.empty())
                usageError("rounds: '" + s + "' comes before the first -r NAME");
            a.rounds.back().second.push_back(s);
        }
    }
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

bool roundsWantsWindow(const std::vector<std::string> &args)
{
    for (const std::string &s : args)
        if (s == "--tsv" || s == "--csv" || s == "--markdown" || s == "--json")
            return false;
    return true;
}

RoundsRequest parseRoundsRequest(const std::vector<std::string> &args)
{
    const RoundsArgs a = parseRoundsArgs(args);
    return {roundFiles(a), roundsOptions(a)};
}

int runRounds(const std::vector<std::string> &argv)
{
    const RoundsArgs a = parseRoundsArgs(argv);
    const RoundsOptions options = roundsOptions(a);
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
