#include "CliRounds.h"

#include "Cli.h"
#include "export/TableCsv.h"
#include "pprof/Units.h"
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
                usageError("rounds takes one of --tsv, --csv and --markdown");
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

// At least 9 significant digits, as scripts need; "-" for what is not known.
std::string number(double v)
{
    if (!std::isfinite(v))
        return "-";
    char buf[40];
    snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

std::vector<std::vector<std::string>> machineRows(const RoundsResult &r)
{
    std::vector<std::vector<std::string>> rows;
    for (const RoundSummary &s : r.rounds)
        rows.push_back({"round", s.name, std::to_string(s.estimate.k), std::to_string(s.estimate.total),
                        std::to_string(s.estimate.durationNanos), number(s.estimate.rate),
                        number(s.estimate.standardError),
                        &s == &r.rounds.front() ? std::string("0") : number(s.vsBaseline.percent),
                        verdictName(s.vsBaseline.verdict)});
    for (const FunctionRounds &f : r.functions) {
        std::vector<std::string> row = {"function", f.name};
        for (int64_t c : f.cum)
            row.push_back(std::to_string(c));
        rows.push_back(std::move(row));
    }
    return rows;
}

void printTsv(const RoundsResult &r)
{
    std::string out;
    for (const auto &row : machineRows(r)) {
        for (size_t i = 0; i < row.size(); ++i) {
            if (i)
                out += '\t';
            appendEscaped(out, row[i]);
        }
        out += '\n';
    }
    std::cout << out;
}

void printCsv(const RoundsResult &r)
{
    for (const auto &row : machineRows(r))
        std::cout << csvRow(row);
}

// The functions a report shows: the most changed in the last round against the baseline.
size_t shownFunctions(const RoundsResult &r, size_t limit)
{
    return std::min(limit, r.functions.size());
}

// Markdown text in a table cell: '|' and line breaks would end the cell; the characters that would format are
// escaped.
std::string cell(const std::string &s)
{
    std::string out;
    for (char c : s) {
        if (c == '|' || c == '\\' || c == '`' || c == '*' || c == '_' || c == '<' || c == '[')
            out += '\\';
        out += (c == '\n' || c == '\r') ? ' ' : c;
    }
    return out;
}

// A name as inline code in a table cell: inside backticks nothing formats, but '|' still ends the cell (GitHub
// reads "\|" there as '|'), and a backtick would end the code span.
std::string codeCell(const std::string &s)
{
    std::string out;
    for (char c : s) {
        if (c == '|')
            out += "\\|";
        else
            out += (c == '\n' || c == '\r') ? ' ' : c == '`' ? '\'' : c;
    }
    return out;
}

void printMarkdown(const RoundsResult &r)
{
    const std::string &unit = r.sampleType.unit;
    std::string out = "### qflame rounds: " + r.sampleType.type + "/" + unit + "\n\n";
    out += "| round | k | total | duration | rate ± SE | vs baseline | vs previous | verdict |\n";
    out += "|---|--:|--:|--:|--:|--:|--:|---|\n";
    for (const RoundSummary &s : r.rounds) {
        const bool base = &s == &r.rounds.front();
        out += "| " + cell(s.name) + " | " + std::to_string(s.estimate.k) + " | " +
               formatValue(double(s.estimate.total), unit) + " | " +
               formatValue(double(s.estimate.durationNanos), "nanoseconds") + " | " +
               formatRate(s.estimate.rate, unit) + " ± " + formatRate(s.estimate.standardError, unit) + " | " +
               (base ? "" : formatChangePercent(s.vsBaseline.percent)) + " | " +
               (base ? "" : formatChangePercent(s.vsPrevious.percent)) + " | **" + verdictName(s.vsBaseline.verdict) +
               "** |\n";
    }
    const size_t n = shownFunctions(r, 10);
    if (n > 0) {
        out += "\nMost changed functions, " + r.rounds.back().name + " against " + r.rounds.front().name +
               " (cum):\n\n| function | " + cell(r.rounds.front().name) + " | " + cell(r.rounds.back().name) +
               " | change | verdict |\n|---|--:|--:|--:|---|\n";
        for (size_t i = 0; i < n; ++i) {
            const FunctionRounds &f = r.functions[i];
            const double delta = double(f.cum.back()) - double(f.cum.front());
            out += "| `" + codeCell(f.name) + "` | " + formatValue(double(f.cum.front()), unit) + " | " +
                   formatValue(double(f.cum.back()), unit) + " | " + (delta > 0 ? "+" : "") +
                   formatValue(delta, unit) + " | " + verdictName(f.vsBaseline.back().verdict) + " |\n";
        }
    }
    out += "\nNoise: " + r.noiseRule() + ".\n";
    for (const std::string &note : r.notes)
        out += "\nNote: " + cell(note) + "\n";
    std::cout << out;
}


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
    case Output::Tsv: printTsv(result); break;
    case Output::Csv: printCsv(result); break;
    case Output::Markdown: printMarkdown(result); break;
    case Output::Window: break;   // not reached: without an output option, qflame-gui opens the rounds tab
    }
}

bool roundsWantsWindow(const std::vector<std::string> &args)
{
    for (const std::string &s : args)
        if (s == "--tsv" || s == "--csv" || s == "--markdown")
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
