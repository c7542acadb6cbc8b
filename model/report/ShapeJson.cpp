#include "report/ShapeJson.h"

#include "diff/DiffTree.h"
#include "graph/GraphReport.h"
#include "report/JsonOut.h"

#include <cstdio>

namespace qflame {

namespace {

// A graph value: one number, or before, after, delta in a comparison (the --tsv columns).
void values(JsonOut &j, const CallGraph &g, const char *name, const int64_t v[2])
{
    if (!g.isDiff()) {
        j.field(name, v[1]);
        return;
    }
    const std::string n = name;
    if (g.isNormalized()) {   // the scaled values of --tsv
        const double before = double(v[0]) * g.scale(0), after = double(v[1]) * g.scale(1);
        j.fieldNumber("before_" + n, before);
        j.fieldNumber("after_" + n, after);
        j.fieldNumber("delta_" + n, after - before);
        return;
    }
    j.field("before_" + n, v[0]);
    j.field("after_" + n, v[1]);
    j.field("delta_" + n, v[1] - v[0]);
}

}   // namespace

std::string graphJson(const CallGraph &g)
{
    JsonOut j;
    j.beginObject();
    j.field("report", "graph");
    j.field("version", 1);
    j.field("sample_type", g.sampleType().type);
    j.field("unit", g.sampleType().unit);
    j.field("total", g.total());
    j.fieldBool("diff", g.isDiff());
    if (g.isNormalized())   // diff --graph --normalize: the values below are scaled
        j.field("normalization", normalizationName(g.diffOptions().normalization));
    j.key("nodes");
    j.beginArray();
    for (uint32_t i : tsvNodeOrder(g)) {
        const GraphNode &n = g.nodes()[i];
        j.beginObject();
        j.field("name", g.name(i));
        values(j, g, "flat", n.flat);
        values(j, g, "cum", n.cum);
        if (g.isDiff())
            j.field("class", diffClassName(g.classOf(n)));
        j.endObject();
    }
    j.endArray();
    j.key("edges");
    j.beginArray();
    for (uint32_t i : tsvEdgeOrder(g)) {
        const GraphEdge &e = g.edges()[i];
        j.beginObject();
        j.field("caller", g.name(e.from));
        j.field("callee", g.name(e.to));
        values(j, g, "weight", e.weight);
        if (g.isDiff())
            j.field("class", diffClassName(g.classOf(e)));
        j.field("kind", e.kind());
        j.endObject();
    }
    j.endArray();
    j.endObject();
    return j.text();
}

std::string heatmapJson(const Heatmap &h, const std::string &sampleType, const std::string &unit)
{
    JsonOut j;
    j.beginObject();
    j.field("report", "heatmap");
    j.field("version", 1);
    j.field("sample_type", sampleType);
    j.field("unit", unit);
    j.field("column_ns", h.columnNanos);
    j.field("rows", int64_t(h.rows));
    j.field("columns", int64_t(h.columns));
    j.field("max", h.maxValue);
    j.key("cells");
    j.beginArray();
    for (size_t c = 0; c < h.columns; ++c)
        for (uint32_t r = 0; r < h.rows; ++r)
            if (const int64_t v = h.value(c, r)) {
                j.beginObject();
                j.field("column_start_ns", int64_t(c) * h.columnNanos);
                j.field("row", int64_t(r));
                j.field("value", v);
                j.endObject();
            }
    j.endArray();
    j.endObject();
    return j.text();
}

namespace {

// One instruction as both disasm JSONs hold it: the address in hex as --tsv prints it; its source line only where
// the report's rows carry one (a diff's are its group's).
void instruction(JsonOut &j, const DisasmInstruction &in, bool withLine)
{
    char address[32];
    std::snprintf(address, sizeof address, "%llx", static_cast<unsigned long long>(in.address));
    j.beginObject();
    j.field("address", address);
    j.field("flat", in.flat);
    j.field("cum", in.cum);
    if (withLine) {
        j.field("file", in.file);
        j.field("line", in.line);
    }
    j.field("text", in.text);
    j.endObject();
}

}   // namespace

std::string disasmJson(const Disassembly &d)
{
    JsonOut j;
    j.beginObject();
    j.field("report", "disasm");
    j.field("version", 1);
    j.field("sample_type", d.sampleType);
    j.field("unit", d.unit);
    j.field("total", d.total);
    j.key("routines");
    j.beginArray();
    for (const DisasmRoutine &r : d.routines) {
        j.beginObject();
        j.field("name", r.name);
        j.field("binary", r.binary);
        j.field("flat", r.flat);
        j.field("cum", r.cum);
        j.key("instructions");
        j.beginArray();
        for (const DisasmInstruction &in : r.instructions)
            instruction(j, in, true);
        j.endArray();
        j.endObject();
    }
    j.endArray();
    j.endObject();
    return j.text();
}

std::string disasmDiffJson(const DisasmDiff &d)
{
    JsonOut j;
    j.beginObject();
    j.field("report", "diff-disasm");
    j.field("version", 1);
    j.field("sample_type", d.sampleType);
    j.field("unit", d.unit);
    j.field("before_total", d.beforeTotal);
    j.field("after_total", d.afterTotal);
    j.fieldNumber("noise_k", d.noiseK);
    j.fieldBool("counts_known", d.countsKnown);
    j.key("groups");
    j.beginArray();
    for (const DisasmGroup &g : d.groups) {
        j.beginObject();
        j.field("routine", g.routine);
        j.field("function", g.function);
        j.field("file", g.file);
        j.field("line", g.line);
        j.field("before_cum", g.beforeCum);
        j.field("after_cum", g.afterCum);
        j.field("delta_cum", g.cumDelta());
        j.field("class", diffClassName(g.cls));
        j.fieldBool("same_code", g.sameCode);
        for (int side = 0; side < 2; ++side) {
            j.key(side ? "after" : "before");
            j.beginArray();
            for (const DisasmInstruction &in : side ? g.after : g.before)
                instruction(j, in, false);
            j.endArray();
        }
        j.key("paired");
        j.beginArray();
        for (const InstructionDelta &p : g.paired) {
            j.beginObject();
            j.field("flat_delta", p.flatDelta);
            j.field("cum_delta", p.cumDelta);
            j.field("class", diffClassName(p.cls));
            j.endObject();
        }
        j.endArray();
        j.key("became_inlined");
        j.beginArray();
        for (const InlinedCall &c : g.inlinedCalls)
            if (c.kind == InliningChange::Kind::BecameInlined)
                j.string(c.callee);
        j.endArray();
        j.endObject();
    }
    j.endArray();
    j.endObject();
    return j.text();
}

}   // namespace qflame
