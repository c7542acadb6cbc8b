#include "report/ListReport.h"

#include "report/JsonOut.h"

namespace qflame {

namespace {

// A line's or a file's values: flat and cum, and in a comparison the other side's and the deltas.
void costs(JsonOut &j, bool comparison, const LineCost &before, const LineCost &after)
{
    j.field("flat", before.flat);
    j.field("cum", before.cum);
    if (!comparison)
        return;
    j.field("after_flat", after.flat);
    j.field("after_cum", after.cum);
    j.field("delta_flat", wrappingAdd(after.flat, -before.flat));
    j.field("delta_cum", wrappingAdd(after.cum, -before.cum));
}

}   // namespace

std::string listJson(const SourceListing &l)
{
    JsonOut j;
    j.beginObject();
    j.field("report", "list");
    j.field("version", 1);
    j.fieldBool("comparison", l.comparison);
    j.field("sample_type", l.sampleType);
    j.field("unit", l.unit);
    j.field("total", l.total);
    if (l.comparison) {
        j.field("after_total", l.afterTotal);
        j.fieldNumber("noise_k", l.noiseK);
        j.fieldBool("counts_known", l.countsKnown);
    }
    j.key("files");
    j.beginArray();
    for (const ListedFile &f : l.files) {
        j.beginObject();
        j.field("function", f.function);
        j.field("file", f.file);   // empty: the profile has no source information for the function
        j.field("read_file", f.readFile);
        j.field("found_in", f.foundIn);
        j.field("error", f.error);
        costs(j, l.comparison, f.before, f.after);
        j.field("lines_past_end", int64_t(f.linesPastEnd));
        j.key("lines");
        j.beginArray();
        for (const ListedLine &line : f.lines) {
            j.beginObject();
            j.field("line", line.line);
            j.field("text", line.text);
            costs(j, l.comparison, line.before, line.after);
            if (l.comparison)
                j.field("class", diffClassName(line.cls));
            j.endObject();
        }
        j.endArray();
        j.endObject();
    }
    j.endArray();
    j.endObject();
    return j.text();
}

}   // namespace qflame
