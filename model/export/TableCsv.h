// CSV (RFC 4180) of tables, for spreadsheets: exact integers, shares as plain numbers, names quoted when needed.
#pragma once

#include "diff/DiffTable.h"
#include "tree/FlatTable.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace qflame {

// A field quoted when it holds a comma, a double quote, CR or LF (doubling inner quotes), as RFC 4180 says.
std::string csvField(std::string_view field);
// Fields joined by commas, ended by CRLF (RFC 4180's line end).
std::string csvRow(const std::vector<std::string> &fields);

// The top table: a header row, then the first `limit` rows (all when limit is SIZE_MAX) in the table's order:
//   flat,flat_percent,sum_percent,cum,cum_percent,name
// flat and cum are exact integers in the sample unit; the percentages are of the tree's total with two decimals
// ("19.67"), empty when the total is 0; name carries pprof's inline marker, as `qflame top` prints it.
std::string flatTableCsv(const FlatTable &table, size_t limit = SIZE_MAX);

// The diff table: a header row, then every row in the table's order (|cum delta| descending), with the columns
// of `qflame diff --tsv`:
//   before_flat,after_flat,delta_flat,before_cum,after_cum,delta_cum,class,name
// Without normalisation the numbers are exact integers in the sample unit (delta = after - before); under a
// normalisation they are the normalised values as the shortest decimals that read back as the same doubles, so
// a spreadsheet gets the exact values the view shows rounded. class is one word (slower, faster, noise, ...).
std::string diffTableCsv(const DiffTable &table);

}   // namespace qflame
