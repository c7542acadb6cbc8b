#include "export/TableCsv.h"

#include <algorithm>
#include <cstdio>

namespace qflame {

namespace {

std::string percent(double part, double whole)
{
    if (whole == 0)
        return {};
    char buf[48];
    snprintf(buf, sizeof buf, "%.2f", 100.0 * part / whole);
    return buf;
}

}   // namespace

std::string csvField(std::string_view field)
{
    if (field.find_first_of(",\"\r\n") == std::string_view::npos)
        return std::string(field);
    std::string out = "\"";
    for (char c : field) {
        if (c == '"')
            out += '"';
        out += c;
    }
    out += '"';
    return out;
}

std::string csvRow(const std::vector<std::string> &fields)
{
    std::string out;
    for (size_t i = 0; i < fields.size(); ++i) {
        if (i)
            out += ',';
        out += csvField(fields[i]);
    }
    out += "\r\n";
    return out;
}

std::string flatTableCsv(const FlatTable &table, size_t limit)
{
    std::string out = csvRow({"flat", "flat_percent", "sum_percent", "cum", "cum_percent", "name"});
    const double total = double(table.total());
    const size_t n = std::min(limit, table.rows().size());
    int64_t sum = 0;
    for (size_t i = 0; i < n; ++i) {
        const FlatRow &r = table.rows()[i];
        sum += r.flat;
        out += csvRow({std::to_string(r.flat), percent(double(r.flat), total), percent(double(sum), total),
                       std::to_string(r.cum), percent(double(r.cum), total), table.displayName(r)});
    }
    return out;
}

std::string diffTableCsv(const DiffTable &table)
{
    std::string out = csvRow({"before_flat", "after_flat", "delta_flat", "before_cum", "after_cum", "delta_cum",
                              "class", "name"});
    // Raw integers when nothing is scaled: doubles would lose exactness past 2^53 and print "1e+21".
    const bool integers = table.tree().options().normalization == Normalization::None;
    for (const DiffRow &r : table.rows()) {
        std::vector<std::string> fields;
        if (integers)
            fields = {std::to_string(r.beforeFlatRaw), std::to_string(r.afterFlatRaw),
                      std::to_string(r.afterFlatRaw - r.beforeFlatRaw), std::to_string(r.beforeCumRaw),
                      std::to_string(r.afterCumRaw), std::to_string(r.afterCumRaw - r.beforeCumRaw)};
        else
            fields = {formatExact(r.beforeFlat), formatExact(r.afterFlat), formatExact(r.deltaFlat),
                      formatExact(r.beforeCum),  formatExact(r.afterCum),  formatExact(r.deltaCum)};
        fields.push_back(diffClassName(r.diffClass));
        fields.push_back(table.displayName(r));
        out += csvRow(fields);
    }
    return out;
}

}   // namespace qflame
