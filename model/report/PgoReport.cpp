#include "report/PgoReport.h"

#include "pgo/PgoCandidates.h"
#include "report/JsonOut.h"
#include "report/TextEscape.h"

#include <algorithm>
#include <sstream>

namespace qflame {

namespace {

void pad(std::string &out, const std::string &text, size_t width, bool right)
{
    if (!right)
        out += text;
    if (text.size() < width)
        out.append(width - text.size(), ' ');
    if (right)
        out += text;
}

const char *levelName(PgoLevel level)
{
    return level == PgoLevel::Ok ? "ok" : level == PgoLevel::Warning ? "warning" : "error";
}

// The TSV token of a kind: its name with underscores.
std::string kindToken(InliningChange::Kind kind)
{
    std::string token = inliningKindName(kind);
    std::replace(token.begin(), token.end(), ' ', '_');
    return token;
}

std::string edgeTable(const PgoEdges &e, double threshold)
{
    std::ostringstream head;
    head << "Edges: " << e.edges.size() << ", total weight " << e.totalWeight << " (" << e.sampleType << "), hot "
         << e.hotCount << " at threshold " << threshold << "%\n";
    std::string out = head.str();
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
                         pgoShareText(pgoPercent(cum[i], e.totalWeight)), edge.hot ? "hot" : ""}});
    }
    // Go names run to 200 bytes (module paths, generic instances): the name columns are as wide as their names
    // up to 60, and a longer name pushes the rest of its row out instead of widening every row.
    constexpr size_t kNameWidth = 60;
    size_t widths[8] = {};
    for (const Row &r : rows)
        for (size_t c = 0; c < 8; ++c)
            widths[c] = std::max(widths[c], c == 1 || c == 2 ? std::min(r.cells[c].size(), kNameWidth)
                                                             : r.cells[c].size());
    for (const Row &r : rows) {
        for (size_t c = 0; c < 8; ++c) {
            if (c)
                out += "  ";
            pad(out, r.cells[c], c == 7 ? 0 : widths[c], c != 1 && c != 2);   // names left-aligned
        }
        out.erase(out.find_last_not_of(' ') + 1);   // a cold row ends at its cumulative share
        out += '\n';
    }
    return out;
}

std::string candidatesText(const PgoEdges &e)
{
    const auto sites = devirtualisationCandidates(e);
    if (sites.empty())
        return "Devirtualisation candidates: none (no call site has more than one callee)\n";
    std::string out = "Devirtualisation candidates (call sites with more than one callee; only the compiler knows "
                      "which calls are indirect):\n";
    for (const PgoCallSite &s : sites)
        out += "  " + escapeField(s.caller) + " +" + std::to_string(s.offset) + ": " + std::to_string(s.callees) +
               " callees, heaviest " + escapeField(s.heaviest) + " " + std::to_string(s.heaviestWeight) + " (" +
               pgoShareText(s.siteShare) + " of the site, " + pgoShareText(s.totalShare) + " of the total)\n";
    return out;
}

}   // namespace

void writePgoTsv(const PgoEdges &edges, const TextSink &sink)
{
    std::string out;
    for (const PgoEdge &e : edges.edges) {
        appendEscaped(out, e.caller);
        out += '\t';
        appendEscaped(out, e.callee);
        out += '\t' + std::to_string(e.offset) + '\t' + std::to_string(e.weight) + '\t' + (e.hot ? "1\n" : "0\n");
    }
    sink(out);
}

void writePgoText(const PgoEdges &edges, const std::vector<PgoReadinessLine> &readiness, double threshold,
                  const TextSink &sink)
{
    std::string out;
    for (const PgoReadinessLine &line : readiness)
        out += formatReadinessLine(line) + '\n';
    sink(out);
    sink(edgeTable(edges, threshold));
    sink(candidatesText(edges));
}

std::string pgoJson(const PgoEdges &e, const std::vector<PgoReadinessLine> &readiness, double threshold)
{
    JsonOut j;
    j.beginObject();
    j.field("report", "pgo");
    j.field("version", 1);
    j.field("sample_type", e.sampleType);
    j.fieldNumber("threshold", threshold);
    j.field("total_weight", e.totalWeight);
    j.field("hot_count", int64_t(e.hotCount));
    j.key("readiness");
    j.beginArray();
    for (const PgoReadinessLine &line : readiness) {
        j.beginObject();
        j.field("level", levelName(line.level));
        j.field("check", line.check);
        j.field("message", line.message);
        j.endObject();
    }
    j.endArray();
    j.key("edges");
    j.beginArray();
    const std::vector<int64_t> cum = cumulativeWeights(e.edges);
    for (size_t i = 0; i < e.edges.size(); ++i) {
        const PgoEdge &edge = e.edges[i];
        j.beginObject();
        j.field("caller", edge.caller);
        j.field("callee", edge.callee);
        j.field("offset", edge.offset);
        j.field("weight", edge.weight);
        j.field("cum_weight", cum[i]);
        j.fieldBool("hot", edge.hot);
        j.endObject();
    }
    j.endArray();
    j.key("candidates");
    j.beginArray();
    for (const PgoCallSite &s : devirtualisationCandidates(e)) {
        j.beginObject();
        j.field("caller", s.caller);
        j.field("offset", s.offset);
        j.field("callees", int64_t(s.callees));
        j.field("heaviest", s.heaviest);
        j.field("heaviest_weight", s.heaviestWeight);
        j.field("site_weight", s.siteWeight);
        j.endObject();
    }
    j.endArray();
    j.endObject();
    return j.text();
}

void writeInliningTsv(const InliningChanges &c, const TextSink &sink)
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
    sink(out);
}

void writeInliningText(const InliningChanges &c, const std::string &baseName, const std::string &newName,
                       const TextSink &sink)
{
    std::string out = "Inlining changes from " + baseName + " to " + newName + " (" + c.sampleType +
                      "): " + std::to_string(c.inlining.size()) + "\n";
    for (const InliningChange &x : c.inlining)
        out += "  " + std::string(inliningKindName(x.kind)) + ": " + escapeField(x.caller) + " -> " +
               escapeField(x.callee) + ": base called " + std::to_string(x.base.called) + ", inlined " +
               std::to_string(x.base.inlined) + "; new called " + std::to_string(x.next.called) + ", inlined " +
               std::to_string(x.next.inlined) + "\n";
    for (bool appeared : {true, false}) {
        size_t n = 0;
        for (const HotEdgeChange &h : c.hotEdges)
            n += h.appeared == appeared;
        out += std::string("PGO hot edges that ") + (appeared ? "appeared" : "vanished") + ": " +
               std::to_string(n) + "\n";
        for (const HotEdgeChange &h : c.hotEdges)
            if (h.appeared == appeared)
                out += "  " + escapeField(h.caller) + " -> " + escapeField(h.callee) + " +" +
                       std::to_string(h.offset) + ": base " + std::to_string(h.baseWeight) + ", new " +
                       std::to_string(h.nextWeight) + "\n";
    }
    sink(out);
}

std::string inliningJson(const InliningChanges &c, const std::string &baseName, const std::string &newName)
{
    JsonOut j;
    j.beginObject();
    j.field("report", "inlining");
    j.field("version", 1);
    j.field("sample_type", c.sampleType);
    j.field("base", baseName);
    j.field("new", newName);
    j.key("inlining");
    j.beginArray();
    for (const InliningChange &x : c.inlining) {
        j.beginObject();
        j.field("kind", kindToken(x.kind));
        j.field("caller", x.caller);
        j.field("callee", x.callee);
        j.field("base_called", x.base.called);
        j.field("base_inlined", x.base.inlined);
        j.field("new_called", x.next.called);
        j.field("new_inlined", x.next.inlined);
        j.endObject();
    }
    j.endArray();
    j.key("hot_edges");
    j.beginArray();
    for (const HotEdgeChange &h : c.hotEdges) {
        j.beginObject();
        j.field("change", h.appeared ? "appeared" : "vanished");
        j.field("caller", h.caller);
        j.field("callee", h.callee);
        j.field("offset", h.offset);
        j.field("base_weight", h.baseWeight);
        j.field("new_weight", h.nextWeight);
        j.endObject();
    }
    j.endArray();
    j.endObject();
    return j.text();
}

}   // namespace qflame
