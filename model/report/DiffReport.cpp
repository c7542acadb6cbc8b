#include "report/DiffReport.h"

#include "diff/DiffHeadline.h"
#include "report/JsonOut.h"
#include "report/TextEscape.h"

#include <cstdio>

namespace qflame {

namespace {

bool exactIntegers(const DiffTable &table)
{
    return table.tree().options().normalization == Normalization::None;
}

}   // namespace

void writeDiffTsv(const DiffTable &table, const TextSink &out)
{
    const bool integers = exactIntegers(table);
    std::string s;
    auto cell = [&s](const std::string &v) { s += v, s += '\t'; };
    for (const DiffRow &r : table.rows()) {
        if (integers) {
            for (int64_t v : {r.beforeFlatRaw, r.afterFlatRaw, r.afterFlatRaw - r.beforeFlatRaw, r.beforeCumRaw,
                              r.afterCumRaw, r.afterCumRaw - r.beforeCumRaw})
                cell(std::to_string(v));
        } else {
            for (double v : {r.beforeFlat, r.afterFlat, r.deltaFlat, r.beforeCum, r.afterCum, r.deltaCum})
                cell(formatExact(v));
        }
        s += diffClassName(r.diffClass), s += '\t';
        appendEscaped(s, table.displayName(r));
        s += '\n';
        if (s.size() > (1 << 16)) {
            out(s);
            s.clear();
        }
    }
    if (!s.empty())
        out(s);
}

void writeDiffText(const DiffTable &table, const TextSink &out)
{
    const DiffTree &t = table.tree();
    const DiffHeadline h = diffHeadline(t);
    std::string s = "Comparing " + t.sampleType().type + "/" + t.sampleType().unit + " by " +
                    granularityName(t.granularity()) + ": " + t.before().name + " -> " + t.after().name + "\n";
    s += "Total " + h.beforeText + " -> " + h.afterText + ", delta " + h.deltaText + " (" + h.changePercent +
         " of the baseline total); " + h.durations + "; normalisation: " + h.normalization + "; " + h.noise + "\n";
    char line[200];
    std::snprintf(line, sizeof line, "%11s %11s %11s %11s %11s %11s %8s  %s\n", "flat before", "flat after",
                  "flat delta", "cum before", "cum after", "cum delta", "delta%", "class     name");
    s += line;
    for (const DiffRow &r : table.rows()) {
        std::snprintf(line, sizeof line, "%11s %11s %11s %11s %11s %11s %8s  %-9s ",
                      t.formatValue(r.beforeFlat).c_str(), t.formatValue(r.afterFlat).c_str(),
                      t.formatValue(r.deltaFlat, true).c_str(), t.formatValue(r.beforeCum).c_str(),
                      t.formatValue(r.afterCum).c_str(), t.formatValue(r.deltaCum, true).c_str(),
                      cumChangeText(r).c_str(), diffClassName(r.diffClass));
        s += line;
        appendEscaped(s, table.displayName(r));
        s += '\n';
        if (s.size() > (1 << 16)) {
            out(s);
            s.clear();
        }
    }
    out(s);
}

std::string diffJson(const DiffTable &table)
{
    const DiffTree &t = table.tree();
    const DiffHeadline h = diffHeadline(t);
    const bool integers = exactIntegers(table);
    JsonOut j;
    j.beginObject();
    j.field("report", "diff");
    j.field("version", 1);
    j.key("sample_type");
    j.beginObject();
    j.field("type", t.sampleType().type);
    j.field("unit", t.sampleType().unit);
    j.endObject();
    j.field("granularity", granularityName(t.granularity()));
    j.field("before", t.before().name);
    j.field("after", t.after().name);
    j.field("normalization", normalizationName(t.options().normalization));
    j.fieldBool("exact", integers);
    j.key("headline");
    j.beginObject();
    if (integers) {   // the profiles' own totals, exact
        const int64_t before = t.beforeTotalRaw(DiffTree::kRoot), after = t.afterTotalRaw(DiffTree::kRoot);
        j.field("before", before);
        j.field("after", after);
        j.field("delta", after - before);
    } else {
        j.fieldNumber("before", h.before);
        j.fieldNumber("after", h.after);
        j.fieldNumber("delta", h.delta);
    }
    j.field("change_percent", h.changePercent);
    j.field("durations", h.durations);
    j.field("normalization", h.normalization);
    j.field("noise", h.noise);
    j.endObject();
    j.key("rows");
    j.beginArray();
    for (const DiffRow &r : table.rows()) {
        j.beginObject();
        if (integers) {
            j.field("before_flat", r.beforeFlatRaw);
            j.field("after_flat", r.afterFlatRaw);
            j.field("delta_flat", r.afterFlatRaw - r.beforeFlatRaw);
            j.field("before_cum", r.beforeCumRaw);
            j.field("after_cum", r.afterCumRaw);
            j.field("delta_cum", r.afterCumRaw - r.beforeCumRaw);
        } else {
            j.fieldNumber("before_flat", r.beforeFlat);
            j.fieldNumber("after_flat", r.afterFlat);
            j.fieldNumber("delta_flat", r.deltaFlat);
            j.fieldNumber("before_cum", r.beforeCum);
            j.fieldNumber("after_cum", r.afterCum);
            j.fieldNumber("delta_cum", r.deltaCum);
        }
        j.field("class", diffClassName(r.diffClass));
        j.field("name", table.displayName(r));
        j.endObject();
    }
    j.endArray();
    j.endObject();
    return j.text();
}

}   // namespace qflame
