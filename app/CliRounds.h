// `qflame rounds`: N rounds of profiles compared at once (model/rounds).
#pragma once

#include "rounds/RoundFiles.h"
#include "rounds/Rounds.h"

#include <string>
#include <vector>

namespace qflame {

// Usage lines for cliUsage(), a macro so that they concatenate with its string literal.
#define QFLAME_ROUNDS_USAGE                                                                                        \
    "  qflame rounds (-r NAME FILE...)... [--sample TYPE|INDEX] [--granularity functions|lines|addresses]\n"     \
    "                     [--noise K] [--duration SECONDS] [--tsv|--csv|--markdown|--json]\n"                   \
    "                                compares rounds (each -r NAME begins one; its FILEs are its observations,\n" \
    "                                merged into its tree); the first is the baseline. Per round: k, total,\n"    \
    "                                duration, rate per second with its standard error from the spread of the\n"  \
    "                                observations (Poisson for one file), change vs baseline and verdict\n"       \
    "                                (faster/slower past K standard errors, else noise; default K 2);\n"          \
    "                                --duration: for files without duration_nanos;\n"                             \
    "                                --tsv: round<TAB>NAME<TAB>k<TAB>total<TAB>duration_ns<TAB>rate<TAB>se\n"      \
    "                                <TAB>change_pct<TAB>verdict per round, then function<TAB>NAME<TAB>cum_1\n"   \
    "                                ...<TAB>cum_N per function by |cum_N - cum_1|; --csv: the same rows;\n"       \
    "                                --markdown: a summary for a pull-request comment; --json: the rounds,\n"  \
    "                                their changes and the functions as JSON (docs/json.md)\n"                 \
    "  qflame rounds --url URL --type ID [--step SECONDS] (-r NAME [--query SEL] --from T --to T)...\n"         \
    "                [--noise K] [server options] [--tsv|--csv|--markdown|--json]\n"                            \
    "                                rounds as windows of a server: each -r NAME begins one, with its own\n"   \
    "                                --query (default {}), --from and --to; one observation per step of the\n" \
    "                                window (--step, or about 60 steps of at least 10 s; a step without data\n"\
    "                                is 0), its tree the window's merged flamegraph; the same output as for\n"  \
    "                                files\n"

int runRounds(const std::vector<std::string> &args);

enum class RoundsOutput { Window, Tsv, Csv, Markdown, Json };
// A result as --tsv, --csv or --markdown print it: one code for rounds of files and of a server.
void printRounds(const RoundsResult &result, RoundsOutput output);
// An option's number >= 0 (--noise K); a usage error otherwise.
double parseNonNegative(const std::string &text, const char *option);

// Without --tsv, --csv or --markdown, `qflame rounds` opens the window on a rounds tab (qflame-gui).
bool roundsWantsWindow(const std::vector<std::string> &args);

struct RoundsRequest {
    std::vector<RoundFiles> rounds;
    RoundsOptions options;
};
// The rounds and options the arguments name, for the window; a usage error prints its line and throws CliExit.
RoundsRequest parseRoundsRequest(const std::vector<std::string> &args);

}   // namespace qflame
