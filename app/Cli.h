// Headless command-line verbs.
#pragma once

#include "formats/ProfileInput.h"
#include "report/TextEscape.h"   // escapeField: names in the verbs' line formats
#include "tree/FlatTable.h"
#include "tree/SampleFilter.h"
#include "VerbTable.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace qflame {

struct CliExit {
    int code;
};

bool isCliVerb(const std::string &word);
// The verbs, comma-separated ("info, top, ..."), for messages.
std::string cliVerbList();
// Runs a verb with its arguments (`qflame VERB --help`: its help); returns the process exit status (0 ok, 1 usage,
// 2 bad input). The verb table (VerbTable.h) picks the form, its one parser reads the arguments.
int runCli(const std::string &verb, const std::vector<std::string> &args);

// The run functions of the verbs that read files, registered in the verb table (which links none, so that the
// `qflame` program, built without Qt, links only the verbs it runs itself): info and top, which need no Qt
// (Cli.cpp), and every one of them (VerbRuns.cpp, on QtCore; runHeadless calls it).
void registerCoreVerbs();
void registerFileVerbs();
// Whether this program has the run function of the verb form these arguments choose.
bool hasVerbRun(const std::string &verb, const std::vector<std::string> &args);

// The verbs that ask a server (CliQryn.cpp) belong to qflame-gui, which registers their run functions in the verb
// table before runHeadless: QtNetwork and the dozen libraries it loads cost 2.2 ms of every start of `qflame`,
// which hands those verbs to qflame-gui as it hands it the verbs that draw.
struct ServerVerbs {
    VerbRun top = nullptr;      // top --url
    VerbRun diff = nullptr;     // diff --url
    VerbRun merge = nullptr;    // merge --url
    VerbRun rounds = nullptr;   // rounds --url
    // URL FILEs (CliFetch.h): reads the fetch options (--user ...) and makes URLs read with them.
    void (*fetch)(const ParsedArgs &args) = nullptr;
};
void setServerVerbs(const ServerVerbs &verbs);
// Whether some FILE of a verb that reads files is an http(s) URL to fetch.
bool namesUrl(const ParsedArgs &args);
// Whether this program runs the verb with these arguments without the GUI libraries: not when an option draws
// (the table's `draws`), nor when the form asks a server whose run function was not registered, nor when a
// FILE is a URL and nothing fetches here, nor for rounds without an output option (the window).
bool verbRunsHere(const std::string &verb, const std::vector<std::string> &args);
// `qflame rounds` (files or --url) without an output option: the window's rounds tab (qflame-gui).
bool roundsWantsWindow(const std::vector<std::string> &args);

// What both programs do first with their command line: --help, --version and the verbs that draw nothing,
// with a QCoreApplication. Ends the process once a verb has run (with its exit status, after flushing the
// standard streams); returns the exit status of --help and --version, or nothing when the arguments are for
// the window or for a verb this program does not run (verbRunsHere).
std::optional<int> runHeadless(int &argc, char **argv);
// Ends a verb's process with `status` once its output is flushed (status 2 when it could not be written).
[[noreturn]] void endVerbProcess(int status);
// Before a verb runs: malloc keeps large blocks it frees for reuse rather than unmapping them.
void keepVerbHeap();
// Keeps Qt's own chatter (runtime dirs, fonts) out of the verbs' one-line error reports.
void quietQtMessages();

// Shared by the verbs.
// Leaves a verb's large results to the end of the process instead of freeing them: releasing a profile's many
// small objects one by one cost milliseconds of every `qflame top`, and the process's end returns its whole
// memory at once anyway. Only for what the verb has finished with (nothing is closed or flushed later).
void leaveToProcessEnd(std::shared_ptr<const void> object);
// Prints "qflame: MESSAGE" and the usage hint on stderr and throws CliExit{1}.
[[noreturn]] void usageError(const std::string &message);
// The sample type a verb works on: --sample's (a usage error naming the types the profile has, when it has no such
// type), else the profile's default; a profile without any sample type is bad input (ProfileError).
size_t chosenSampleType(const Profile &p, const std::optional<std::string> &spec);
// The pprof sample filters, --tagroot/--tagleaf, --collapse-recursion and --inverted the arguments give.
SampleFilters sampleFiltersFrom(const ParsedArgs &args);
// --demangle, --collapse-templates, --profile and --from/--to (files): kept for readOptionsFor.
void applyCommonOptions(const ParsedArgs &args);

// A whole non-negative number ("12"), or nothing ("-1", "1e3", "ten").
std::optional<uint64_t> parseCount(const std::string &text);
// Read options with --max-size MIB applied (a usage error when it is not a positive whole number).
ReadOptions readOptionsFor(const std::optional<std::string> &maxSizeMiB);
// A --max-size value (MiB) in bytes; nothing when it is not a count from 1 MiB to 1 TiB.
std::optional<uint64_t> maxSizeBytes(const std::string &mib);
// A rendering's piece on standard output (report/Report.h's TextSink for the verbs).
void writeToStdout(std::string_view text);
// The table of `qflame top`, for files and for a server's flamegraph alike (report/TopReport); the exit status.
int printTop(const FlatTable &table, std::optional<uint64_t> limit, bool tsv, bool csv, bool json = false);

}   // namespace qflame
