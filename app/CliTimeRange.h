// --from T --to T (seconds from the first sample, or RFC 3339 where the file's times are wall-clock times) for the
// verbs that read whole profiles: top, diff, convert, graph and heatmap (the verb table gives them the options).
// readOptionsFor carries them into every read (ReadOptions::timeFrom and timeTo), where the front door cuts the
// profile to the range (model/time/TimeRange.h).
#pragma once

#include "VerbTable.h"

#include <optional>
#include <string>

namespace qflame {

// Keeps the range the arguments give. For `convert`, whose --to also names the output format, only a --to that
// starts with a digit is a time. An empty value is a usage error.
void setCliTimeRange(const ParsedArgs &args);
// convert's --to FORMAT: its last --to that does not start with a digit.
std::optional<std::string> convertFormat(const ParsedArgs &args);
// What was kept ("" when absent).
const std::string &cliTimeFrom();
const std::string &cliTimeTo();

}   // namespace qflame
