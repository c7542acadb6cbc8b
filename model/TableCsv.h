// CSV (RFC 4180) of tables, for spreadsheets: exact integers, shares as plain numbers, names quoted when needed.
#pragma once

#include "FlatTable.h"

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

}   // namespace qflame
