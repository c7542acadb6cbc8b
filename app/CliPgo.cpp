// `qflame pgo FILE...`: what go build -pgo would make of the profiles, from model/pgo.
#include "CliPgo.h"

#include "Cli.h"
#include "CliFormats.h"
#include "formats/ProfileInput.h"
#include "pgo/InliningChanges.h"
#include "pgo/PgoCandidates.h"
#include "pgo/PgoEdges.h"
#include "pgo/PgoReadiness.h"
#include "pgo/Preprofile.h"

#include <QFileInfo>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>

namespace qflame {

namespace {

struct PgoArgs {
    std::vector<std::string> inputs;
    std::optional<std::string> threshold, preprofile, maxSize;
    bool tsv = false;
};

PgoArgs parsePgoArgs(const std::vector<std::string> &argv)
{
    PgoArgs a;
    for (size_t i = 0; i < argv.size(); ++i) {
        const std::string &s = argv[i];
        if (takeOption(argv, i, "--threshold", a.threshold) || takeOption(argv, i, "--preprofile", a.preprofile) ||
            takeOption(argv, i, "--max-size", a.maxSize))
            continue;
        if (s == "--tsv")
            a.tsv = true;
        else if (s.size() > 1 && s[0] == '-' && s != "-")
            usageError("unknown option " + s);
        else
            a.inputs.push_back(s);
    }
    return a;
}

double parseThreshold(const std::string &text)
{
    char *end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v) || v < 0 || v > 100)
        usageError("--threshold takes a percentage from 0 to 100, not '" + text + "'");
    return v;
}

void pad(std::string &out, const std::string &text, size_t width, bool right)
{
    if (!right)
        out += text;
    if (text.size() < width)
        out.append(width - text.size(), ' ');
    if (right)
        out += text;
}

void printTable(const PgoEdges &e, double threshold)
{
    std::cout << "Edges: " << e.edges.size() << ", total weight " << e.totalWeight << " (" << e.sampleType
              << "), hot " << e.hotCount << " at threshold " << threshold << "%\n";
    struct Row {
        std::string cells[8];
    };
    std::vector<Row> rows;
    rows.push_back({{"rank", "caller", "callee", "offset", "weight", "share%", "cum%", "hot"}});
    const std::vector<int64_t> cum = cumulativeWeights(e.edges);
    for (size_t i = 0; i < e.edges.size(); ++i) {
        const PgoEdge &edge = e.edges[i];
        rows.push_back({{std::to_string(i + 1), escapeField(edge.caller), escapeField(edge.callee),
                         std::to_string(edge.offset), std::to_string(edge.weight),
                         pgoShareText(pgoPercent(edge.weight, e.totalWeight)),
                         pgoShareText(pgoPercent(cum[i], e.totalWeight)),
                         edge.hot ? "hot" : ""}});
    }
    // Go names run to 200 bytes (module paths, generic instances): the name columns are as wide as their names
    // up to 60, and a longer name pushes the rest of its row out instead of widening every row.
    constexpr size_t kNameWidth = 60;
    size_t widths[8] = {};
    for (const Row &r : rows)
        for (size_t c = 0; c < 8; ++c)
            widths[c] = std::max(widths[c], c == 1 || c == 2 ? std::min(r.cells[c].size(), kNameWidth)
                                                             : r.cells[c].size());
    std::string out;
    for (const Row &r : rows) {
        for (size_t c = 0; c < 8; ++c) {
            if (c)
                out += "  ";
            pad(out, r.cells[c], c == 7 ? 0 : widths[c], c != 1 && c != 2);   // names left-aligned
        }
        out.erase(out.find_last_not_of(' ') + 1);   // a cold row ends at its cumulative share
        out += '\n';
    }
    std::cout << out;
}

void printCandidates(const PgoEdges &e)
{
    const auto sites = devirtualisationCandidates(e);
    if (sites.empty()) {
        std::cout << "Devirtualisation candidates: none (no call site has more than one callee)\n";
        return;
    }
    std::cout << "Devirtualisation candidates (call sites with more than one callee; only the compiler knows "
                 "which calls are indirect):\n";
    for (const PgoCallSite &s : sites)
        std::cout << "  " << escapeField(s.caller) << " +" << s.offset << ": " << s.callees << " callees, heaviest "
                  << escapeField(s.heaviest) << " " << s.heaviestWeight << " (" << pgoShareText(s.siteShare)
                  << " of the site, " << pgoShareText(s.totalShare) << " of the total)\n";
}

// The TSV token of a kind: its name with underscores.
std::string kindToken(InliningChange::Kind kind)
{
    std::string token = inliningKindName(kind);
    std::replace(token.begin(), token.end(), ' ', '_');
    return token;
}

void printInliningTsv(const InliningChanges &c)
{
    std::string out;
    for (const InliningChange &x : c.inlining) {
        out += "inlining\t" + kindToken(x.kind) + '\t';
        appendEscaped(out, x.caller);
        out += '\t';
        appendEscaped(out, x.callee);
        for (int64_t v : {x.base.called, x.base.inlined, x.next.called, x.next.inlined})
            out += '\t' + std::to_string(v);
        out += '\n';
    }
    for (const HotEdgeChange &h : c.hotEdges) {
        out += std::string("hot\t") + (h.appeared ? "appeared" : "vanished") + '\t';
        appendEscaped(out, h.caller);
        out += '\t';
        appendEscaped(out, h.callee);
        for (int64_t v : {h.offset, h.baseWeight, h.nextWeight})
            out += '\t' + std::to_string(v);
        out += '\n';
    }
    std::cout << out;
}

void printInliningForPeople(const InliningChanges &c, const std::string &baseName, const std::string &nextName)
{
    std::cout << "Inlining changes from " << baseName << " to " << nextName << " (" << c.sampleType << "): "
              << c.inlining.size() << "\n";
    for (const InliningChange &x : c.inlining)
        std::cout << "  " << inliningKindName(x.kind) << ": " << escapeField(x.caller) << " -> "
                  << escapeField(x.callee) << ": base called " << x.base.called << ", inlined " << x.base.inlined
                  << "; new called " << x.next.called << ", inlined " << x.next.inlined << "\n";
    for (bool appeared : {true, false}) {
        size_t n = 0;
        for (const HotEdgeChange &h : c.hotEdges)
            n += h.appeared == appeared;
        std::cout << "PGO hot edges that " << (appeared ? "appeared" : "vanished") << ": " << n << "\n";
        for (const HotEdgeChange &h : c.hotEdges)
            if (h.appeared == appeared)
                std::cout << "  " << escapeField(h.caller) << " -> " << escapeField(h.callee) << " +" << h.offset
                          << ": base " << h.baseWeight << ", new " << h.nextWeight << "\n";
    }
}

}   // namespace

int printInliningChanges(const std::shared_ptr<const Profile> &base, const std::shared_ptr<const Profile> &next,
                         int sampleIndex, bool tsv)
{
    const InliningChanges changes = computeInliningChanges({base}, {next}, sampleIndex);
    if (tsv)
        printInliningTsv(changes);
    else
        printInliningForPeople(changes, base->sourceName, next->sourceName);
    return 0;
}

int runPgo(const std::vector<std::string> &argv)
{
    const PgoArgs a = parsePgoArgs(argv);
    if (a.inputs.empty())
        usageError("pgo takes one or more FILEs (several are merged)");
    if (a.preprofile && (a.tsv || a.threshold))
        usageError("--preprofile writes every edge (the compiler applies its own threshold): it takes neither "
                   "--tsv nor --threshold");
    const double threshold = a.threshold ? parseThreshold(*a.threshold) : kPgoDefaultHotThreshold;
    const ReadOptions read = readOptionsFor(a.maxSize);
    std::vector<std::shared_ptr<const Profile>> profiles;
    uint64_t inputBytes = 0;
    bool sizeKnown = true;
    for (const std::string &f : a.inputs) {
        profiles.push_back(readProfileFile(QString::fromStdString(f), read));
        leaveToProcessEnd(profiles.back());
        if (f == "-")
            sizeKnown = false;
        else
            inputBytes += uint64_t(QFileInfo(QString::fromStdString(f)).size());
    }
    const PgoEdges edges = computePgoEdges(profiles, threshold);
    if (a.preprofile) {
        std::string text;
        try {
            text = preprofileText(edges);
        } catch (const ProfileError &e) {   // the model knows the edges, not where they came from
            std::string sources;
            for (const auto &p : profiles)
                sources += (sources.empty() ? "" : ", ") + p->sourceName;
            throw ProfileError(sources + ": " + e.what());
        }
        writeOutput(*a.preprofile, text);
        return 0;
    }
    if (a.tsv) {
        std::string out;
        for (const PgoEdge &e : edges.edges) {
            appendEscaped(out, e.caller);
            out += '\t';
            appendEscaped(out, e.callee);
            out += '\t' + std::to_string(e.offset) + '\t' + std::to_string(e.weight) + '\t' + (e.hot ? "1\n" : "0\n");
        }
        std::cout << out;
        return 0;
    }
    for (const PgoReadinessLine &line : pgoReadiness(profiles, edges, sizeKnown ? inputBytes : 0))
        std::cout << formatReadinessLine(line) << '\n';
    printTable(edges, threshold);
    printCandidates(edges);
    return 0;
}

}   // namespace qflame
