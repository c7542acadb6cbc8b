// The verbs that ask a qryn (or Grafana Pyroscope) server instead of reading files: `qflame merge`, and
// `qflame top --url`, which prints the same table as `qflame top FILE`.
#pragma once

#include "Cli.h"
#include "CliRounds.h"
#include "qryn/ConnectionSettings.h"
#include "qryn/ServerRounds.h"
#include "tree/FlatTable.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace qflame {

// `qflame merge --url URL --type ID [--query SEL] --from T --to T --output FILE [--force] [auth, TLS options]`:
// writes the server's merged pprof gzip-compressed, as `profilecli query merge --output pprof=FILE` does.
// Returns the exit status; throws CliExit like the other verbs.
int runMerge(const ParsedArgs &args);

// `qflame top --url ...`: the flat table of the server's merged flamegraph, and the --limit/--tsv to print it
// with. Throws CliExit{1} after a usage message and CliExit{2} after a server or data error.
struct RemoteTop {
    std::shared_ptr<const FlatTable> table;
    std::optional<uint64_t> limit;
    bool tsv = false, csv = false, json = false;
};
RemoteTop fetchRemoteTop(const ParsedArgs &args);

// `qflame diff --url URL --type ID [--base-query SEL] [--base-from T] [--base-to T] [--query SEL] --from T --to T
// [--normalize ...] [--noise K] [--tsv]`: the server's flamegraphs of the two queries, compared and printed by
// `qflame diff` itself (runDiff), so the table is the one of two files. The base defaults to the comparison's
// selector and window. Each side lasts its window (per-second normalisation divides by the window lengths) and
// carries the samples:count type of the same profiles where the server holds it (qryn/ComparisonSide.h), so the
// noise test works.
int runRemoteDiff(const ParsedArgs &args);

// `qflame top --url ...`: fetchRemoteTop, printed.
int runRemoteTop(const ParsedArgs &args);

// `qflame rounds --url URL --type ID [--step SECONDS] (-r NAME [--query SEL] --from T --to T)... [--noise K]
// [server options] --tsv|--csv|--markdown` (CliQrynRounds.cpp): rounds as windows of the server
// (qryn/ServerRounds.h), printed by the code that prints rounds of files.
int runServerRounds(const ParsedArgs &args);

// What `qflame rounds --url ...` asks for; without an output option, qflame-gui opens it in a rounds tab. A usage
// error prints its line and throws CliExit.
struct ServerRoundsRequest {
    qryn::ConnectionSettings settings;
    qryn::ServerRoundsQuery query;
    RoundsOptions options;
    RoundsOutput output = RoundsOutput::Window;
};
ServerRoundsRequest parseServerRoundsRequest(const std::vector<std::string> &args);
ServerRoundsRequest serverRoundsRequest(const ParsedArgs &args);

// The server options every --url verb takes (url, user, password-env, token-env, tenant, ca-file, protocol,
// timeout, max-size; by name without "--") as connection settings; a usage error when one is wrong, or, with
// `fail` (which must throw), what `fail` does with the message.
qryn::ConnectionSettings connectionFromOptions(const std::map<std::string, std::string> &values,
                                              void (*fail)(const std::string &message) = nullptr);

// The four, for setServerVerbs (qflame-gui's main).
ServerVerbs qrynVerbs();

}   // namespace qflame
