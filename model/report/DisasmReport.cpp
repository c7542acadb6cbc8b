#include "report/DisasmReport.h"

#include "pprof/PprofLabels.h"
#include "report/ListingColumns.h"
#include "report/TextEscape.h"

#include <cstdio>

namespace qflame {

namespace {

std::string hex(uint64_t v)
{
    char b[24];
    std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(v));
    return b;
}

std::string fileLine(const std::string &file, int64_t line)
{
    if (file.empty())
        return line ? ":" + std::to_string(line) : std::string();
    return file + ":" + std::to_string(line);
}

std::string baseName(const std::string &path)
{
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

}   // namespace

void writeDisasmTsv(const Disassembly &d, const TextSink &out)
{
    std::string s;
    for (const DisasmRoutine &r : d.routines)
        for (const DisasmInstruction &in : r.instructions) {
            s.clear();
            appendEscaped(s, r.name);
            s += '\t' + hex(in.address) + '\t' + std::to_string(in.flat) + '\t' + std::to_string(in.cum) + '\t';
            appendEscaped(s, fileLine(in.file, in.line));
            s += '\t';
            appendEscaped(s, in.text);
            s += '\n';
            out(s);
        }
}

void writeDisasmText(const Disassembly &d, const TextSink &out)
{
    out("Total: " + pprofScaledLabel(d.total, d.unit) + "\n");
    for (const DisasmRoutine &r : d.routines) {
        out("ROUTINE ======================== " + r.name + " in " + r.binary + "\n");
        out(padLeft(pprofScaledLabel(r.flat, d.unit), 10) + " " + padLeft(pprofScaledLabel(r.cum, d.unit), 10) +
            " (flat, cum) " + pprofPercentage(r.cum, d.total) + " of Total\n");
        std::string function, file;
        int64_t line = 0;
        for (const DisasmInstruction &in : r.instructions) {
            std::string loc;
            if (in.function != function || in.file != file || in.line != line) {
                function = in.function, file = in.file, line = in.line;
                loc = in.function.empty() ? std::string() : in.function + " ";
                if (!in.file.empty())
                    loc += baseName(in.file) + (in.line ? ":" + std::to_string(in.line) : std::string());
            }
            std::string row = padLeft(valueOrDot(in.flat, d.unit), 10) + " " + padLeft(valueOrDot(in.cum, d.unit), 10) + " " +
                              padLeft(hex(in.address), 10) + ": " + in.text;
            if (!loc.empty())
                row += (in.text.size() < 40 ? std::string(40 - in.text.size(), ' ') : std::string(" ")) + ";" + loc;
            out(row + "\n");
        }
    }
}

void writeDisasmDiffTsv(const DisasmDiff &d, const TextSink &out)
{
    std::string s;
    for (const DisasmGroup &g : d.groups) {
        s = "group\t";
        appendEscaped(s, g.routine);
        s += '\t';
        appendEscaped(s, g.function);
        s += '\t';
        appendEscaped(s, fileLine(g.file, g.line));
        s += '\t' + std::to_string(g.beforeCum) + '\t' + std::to_string(g.afterCum) + '\t' +
             std::to_string(g.cumDelta()) + '\t' + diffClassName(g.cls) + '\n';
        for (int side = 0; side < 2; ++side)
            for (const DisasmInstruction &in : side ? g.after : g.before) {
                s += side ? "after\t" : "before\t";
                s += hex(in.address) + '\t' + std::to_string(in.flat) + '\t' + std::to_string(in.cum) + '\t';
                appendEscaped(s, in.text);
                s += '\n';
            }
        out(s);
    }
}

void writeDisasmDiffText(const DisasmDiff &d, const TextSink &out)
{
    out("Total: " + pprofScaledLabel(d.beforeTotal, d.unit) + " -> " + pprofScaledLabel(d.afterTotal, d.unit) + "\n");
    char rule[160];
    if (d.countsKnown && d.noiseK > 0)
        std::snprintf(rule, sizeof rule, "Noise: a group's cum delta under %g Poisson standard errors (from "
                      "samples/count) is noise\n", d.noiseK);
    else
        std::snprintf(rule, sizeof rule, "Noise: not tested (%s)\n",
                      d.noiseK > 0 ? "no samples/count on both sides" : "--noise 0");
    out(rule);
    std::string routine;
    for (const DisasmGroup &g : d.groups) {
        if (g.routine != routine) {
            routine = g.routine;
            out("ROUTINE ======================== " + routine + " (cum before, after, delta)\n");
        }
        const std::string cls = g.cls == DiffClass::Unchanged ? "" : diffClassName(g.cls);
        out(padLeft(valueOrDot(g.beforeCum, d.unit), 10) + " " + padLeft(valueOrDot(g.afterCum, d.unit), 10) + " " +
            padLeft(signedValue(g.cumDelta(), d.unit), 10) + " " + padLeft(cls, 7) + "  " +
            (g.function.empty() ? std::string() : g.function + " ") +
            (g.file.empty() ? std::string("(no line)") : baseName(g.file) + ":" + std::to_string(g.line)) +
            (g.sameCode ? "  (same code)" : "") + "\n");
        const size_t rows = std::max(g.before.size(), g.after.size());
        for (size_t i = 0; i < rows; ++i) {
            auto cell = [&](const std::vector<DisasmInstruction> &v) {
                if (i >= v.size())
                    return std::string(60, ' ');
                std::string c = padLeft(valueOrDot(v[i].cum, d.unit), 8) + " " + padLeft(hex(v[i].address), 8) + ": " + v[i].text;
                return c.size() < 60 ? c + std::string(60 - c.size(), ' ') : c.substr(0, 59) + " ";
            };
            std::string row = "      " + cell(g.before) + "| " + cell(g.after);
            row.erase(row.find_last_not_of(' ') + 1);
            out(row + "\n");
        }
    }
}

}   // namespace qflame
