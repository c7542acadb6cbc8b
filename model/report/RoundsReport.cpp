#include "report/RoundsReport.h"

#include "export/TableCsv.h"
#include "pprof/Units.h"
#include "report/JsonOut.h"
#include "report/TextEscape.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace qflame {

namespace {

// At least 9 significant digits, as scripts need; "-" for what is not known.
std::string number(double v)
{
    if (!std::isfinite(v))
        return "-";
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.10g", v);
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

void estimateJson(JsonOut &j, const RateEstimate &e)
{
    j.field("k", int64_t(e.k));
    j.field("total", e.total);
    j.field("duration_nanos", e.durationNanos);
    j.fieldNumber("rate", e.rate);                // NaN (unknown) is written as null
    j.fieldNumber("standard_error", e.standardError);
}

void changeJson(JsonOut &j, const char *name, const RateChange &c)
{
    j.key(name);
    j.beginObject();
    j.fieldNumber("delta", c.delta);
    j.fieldNumber("percent", c.percent);
    j.fieldNumber("standard_error", c.standardError);
    j.field("verdict", verdictName(c.verdict));
    j.endObject();
}

}   // namespace

void writeRoundsTsv(const RoundsResult &r, const TextSink &sink)
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
    sink(out);
}

void writeRoundsCsv(const RoundsResult &r, const TextSink &sink)
{
    std::string out;
    for (const auto &row : machineRows(r))
        out += csvRow(row);
    sink(out);
}

std::string roundsMarkdown(const RoundsResult &r)
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
    const size_t n = std::min<size_t>(10, r.functions.size());   // the most changed, last round against the first
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
    return out;
}

std::string roundsJson(const RoundsResult &r)
{
    JsonOut j;
    j.beginObject();
    j.field("report", "rounds");
    j.field("version", 1);
    j.key("sample_type");
    j.beginObject();
    j.field("type", r.sampleType.type);
    j.field("unit", r.sampleType.unit);
    j.endObject();
    j.field("granularity", granularityName(r.granularity));
    j.fieldNumber("noise_k", r.noiseK);
    j.field("noise_rule", r.noiseRule());
    j.key("rounds");
    j.beginArray();
    for (const RoundSummary &s : r.rounds) {
        j.beginObject();
        j.field("name", s.name);
        estimateJson(j, s.estimate);
        changeJson(j, "vs_baseline", s.vsBaseline);
        changeJson(j, "vs_previous", s.vsPrevious);
        j.endObject();
    }
    j.endArray();
    j.key("functions");
    j.beginArray();
    for (const FunctionRounds &f : r.functions) {
        j.beginObject();
        j.field("name", f.name);
        j.key("cum");
        j.beginArray();
        for (int64_t c : f.cum)
            j.integer(c);
        j.endArray();
        j.key("flat");
        j.beginArray();
        for (int64_t c : f.flat)
            j.integer(c);
        j.endArray();
        j.key("verdicts");   // of the function's cum rate against the baseline, per round
        j.beginArray();
        for (const RateChange &c : f.vsBaseline)
            j.string(verdictName(c.verdict));
        j.endArray();
        j.endObject();
    }
    j.endArray();
    j.key("notes");
    j.beginArray();
    for (const std::string &note : r.notes)
        j.string(note);
    j.endArray();
    j.endObject();
    return j.text();
}

}   // namespace qflame
