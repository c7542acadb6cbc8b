// `qflame diff`: the per-function diff table (diff/DiffTable) under its headline (diff/DiffHeadline), for people,
// as TSV and as JSON.
#pragma once

#include "diff/DiffTable.h"
#include "report/Report.h"

#include <string>

namespace qflame {

// before/after/delta of flat, then of cum, class and name per row: exact integers when the diff is not normalised,
// else the normalised values as exact decimals.
void writeDiffTsv(const DiffTable &table, const TextSink &out);

// "Comparing ...", the headline, then the table with its delta% and class columns.
void writeDiffText(const DiffTable &table, const TextSink &out);

// {"report":"diff","version":1,"sample_type","granularity","before","after","normalization","exact","headline",
//  "rows":[{"before_flat",...,"class","name","inline"}]}
std::string diffJson(const DiffTable &table);

}   // namespace qflame
