// --from T --to T (seconds from the first sample, or RFC 3339 where the file's times are wall-clock times) for the
// verbs that read whole profiles: top, diff, convert, graph and heatmap. Taken out of the arguments before the
// verb parses them, as --demangle is; readOptionsFor carries them into every read (ReadOptions::timeFrom and
// timeTo), where the front door cuts the profile to the range (model/time/TimeRange.h).
#pragma once

#include <string>
#include <vector>

namespace qflame {

// The arguments without --from and --to. None are taken with --url (there they name the server's window), and for
// `convert`, whose --to names the output format, a --to that does not start with a digit stays. A missing value is
// a usage error.
std::vector<std::string> takeTimeRangeOptions(const std::string &verb, const std::vector<std::string> &args);
// What was taken ("" when absent).
const std::string &cliTimeFrom();
const std::string &cliTimeTo();

}   // namespace qflame
