// `qflame rounds`: the rounds compared (rounds/Rounds) as --tsv, --csv, --markdown and --json print them, for
// rounds of files and of a server alike.
#pragma once

#include "report/Report.h"
#include "rounds/Rounds.h"

#include <string>

namespace qflame {

// One line per round, `round NAME k total duration_ns rate se change_pct verdict` (rates per second with 10
// significant digits, "-" where unknown), then one per function, `function NAME cum_1 ... cum_N`; tab-separated
// with names escaped (TSV) or as RFC 4180 CSV.
void writeRoundsTsv(const RoundsResult &result, const TextSink &out);
void writeRoundsCsv(const RoundsResult &result, const TextSink &out);

// A summary for a pull-request comment: the rounds' table, the ten most changed functions, the noise rule, notes.
std::string roundsMarkdown(const RoundsResult &result);

// {"report":"rounds","version":1,"sample_type","granularity","noise_k","noise_rule","rounds":[...],
//  "functions":[...],"notes":[...]}; rates and errors per second, null where unknown.
std::string roundsJson(const RoundsResult &result);

}   // namespace qflame
