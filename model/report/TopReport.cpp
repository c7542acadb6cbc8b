#include "report/TopReport.h"

#include "pprof/Units.h"
#include "report/JsonOut.h"
#include "report/TextEscape.h"

#include <cmath>
#include <limits>

namespace qflame {

namespace {

const char *inlineName(FlatRow::Inline inlined)
{
    switch (inlined) {
    case FlatRow::Inline::Always: return "inline";
    case FlatRow::Inline::Partly: return "partial-inline";
    case FlatRow::Inline::No: break;
    }
    return "none";
}

}   // namespace

void writeTopTsv(const FlatTable &table, size_t rows, const TextSink &out)
{
    std::string text;
    for (size_t i = 0; i < rows; ++i) {
        const FlatRow &r = table.rows()[i];
        text += std::to_string(r.flat), text += '\t', text += std::to_string(r.cum), text += '\t';
        appendEscaped(text, table.label(i));
        text += FlatTable::inlineSuffix(r.inlined);
        text += '\n';
        if (text.size() > (1 << 16)) {
            out(text);
            text.clear();
        }
    }
    if (!text.empty())
        out(text);
}

void writeTopText(const FlatTable &table, size_t rows, const TextSink &sink)
{
    const std::string unit = table.tree().sampleType().unit;
    const double total = double(table.total());
    sink("Type: " + table.tree().sampleType().type + "/" + unit + "  total " + formatValue(total, unit) + "  (" +
         std::to_string(table.rows().size()) + " functions" +
         (rows < table.rows().size() ? ", showing " + std::to_string(rows) : std::string()) + ")\n");
    // Each row is put together in one buffer and written in large pieces: with tens of thousands of rows,
    // formatting through printf and a stream write per field were a third of the command's time.
    std::string out;
    auto field = [&out](const std::string &text, size_t width) {   // right-aligned like printf's %12s (bytes)
        if (text.size() < width)
            out.append(width - text.size(), ' ');
        out += text;
    };
    field("flat", 12), field(" flat%", 8), field(" sum%", 8), field(" cum", 13), field(" cum%", 8);
    out += "  name\n";
    // Rows come in value order, so neighbours mostly share their flat and cum (on a profile of 23,000 functions
    // nearly all rows have flat 0 and one of a few cums): each column is formatted again only when its value
    // changes (formatting was most of the printing there).
    double sum = 0;
    struct Column {
        double value = std::numeric_limits<double>::quiet_NaN();   // of the text below; NaN: none yet
        std::string text;
    } flatValue, flatShare, sumShare, cumValue, cumShare;
    auto column = [](Column &c, double value, size_t width, auto format) -> const std::string & {
        if (!(c.value == value)) {
            c.value = value;
            c.text.clear();
            const std::string text = format(value);
            if (text.size() < width)
                c.text.append(width - text.size(), ' ');
            c.text += text;
        }
        return c.text;
    };
    auto asValue = [&unit](double v) { return formatValue(v, unit); };
    auto asShare = [total](double v) { return formatPercent(v, total); };
    for (size_t i = 0; i < rows; ++i) {
        const FlatRow &r = table.rows()[i];
        sum += double(r.flat);
        out += column(flatValue, double(r.flat), 12, asValue);
        out += ' ', out += column(flatShare, double(r.flat), 7, asShare);
        out += ' ', out += column(sumShare, sum, 7, asShare);
        out += ' ', out += column(cumValue, double(r.cum), 12, asValue);
        out += ' ', out += column(cumShare, double(r.cum), 7, asShare);
        out += "  ";
        if (i + 16 < rows)   // the label bytes of a row a little ahead: rows in value order are scattered in memory
            __builtin_prefetch(table.label(i + 16).data());
        appendEscaped(out, table.label(i));
        out += FlatTable::inlineSuffix(r.inlined);
        out += '\n';
        if (out.size() > (1 << 16)) {
            sink(out);
            out.clear();
        }
    }
    if (!out.empty())
        sink(out);
}

std::string topJson(const FlatTable &table, size_t rows)
{
    JsonOut j;
    j.beginObject();
    j.field("report", "top");
    j.field("version", 1);
    j.key("sample_type");
    j.beginObject();
    j.field("type", table.tree().sampleType().type);
    j.field("unit", table.tree().sampleType().unit);
    j.endObject();
    j.field("total", table.total());
    j.field("functions", int64_t(table.rows().size()));
    j.key("rows");
    j.beginArray();
    for (size_t i = 0; i < rows; ++i) {
        const FlatRow &r = table.rows()[i];
        j.beginObject();
        j.field("flat", r.flat);
        j.field("cum", r.cum);
        j.field("name", table.label(i));
        j.field("inline", inlineName(r.inlined));
        j.endObject();
    }
    j.endArray();
    j.endObject();
    return j.text();
}

}   // namespace qflame
