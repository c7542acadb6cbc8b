// `qflame top`: pprof's top table (tree/FlatTable) rendered. `rows` is how many of the table's rows are shown
// (--limit); the totals are the whole table's.
#pragma once

#include "report/Report.h"
#include "tree/FlatTable.h"

#include <string>

namespace qflame {

// flat<TAB>cum<TAB>name per row: exact integers, names escaped, pprof's inline marker after the name.
void writeTopTsv(const FlatTable &table, size_t rows, const TextSink &out);

// The table for people: "Type: ... total ..." then flat, flat%, sum%, cum, cum% and name per row, as pprof -top.
void writeTopText(const FlatTable &table, size_t rows, const TextSink &out);

// {"report":"top","version":1,"sample_type":{...},"total":N,"functions":N,"rows":[{"flat","cum","name","inline"}]}
std::string topJson(const FlatTable &table, size_t rows);

}   // namespace qflame
