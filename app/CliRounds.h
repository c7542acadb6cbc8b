// `qflame rounds`: N rounds of profiles compared at once (model/rounds).
#pragma once

#include "rounds/RoundFiles.h"
#include "rounds/Rounds.h"

#include <string>
#include <vector>

namespace qflame {

// `qflame rounds (-r NAME FILE...)...` is runRounds (CliVerbs.h).

enum class RoundsOutput { Window, Tsv, Csv, Markdown, Json };
// A result as --tsv, --csv or --markdown print it: one code for rounds of files and of a server.
void printRounds(const RoundsResult &result, RoundsOutput output);
// An option's number >= 0 (--noise K); a usage error otherwise.
double parseNonNegative(const std::string &text, const char *option);

struct RoundsRequest {
    std::vector<RoundFiles> rounds;
    RoundsOptions options;
    uint64_t maxReadBytes = 0;   // --max-size, in bytes (the default cap without it)
};
// The rounds and options the arguments name, for the window; a usage error prints its line and throws CliExit.
RoundsRequest parseRoundsRequest(const std::vector<std::string> &args);

}   // namespace qflame
