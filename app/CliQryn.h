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

// Usage lines for cliUsage(), a macro so that they concatenate with its string literal.
#define QFLAME_QRYN_USAGE \
    "  qflame merge --url URL --type PROFILE_TYPE_ID [--query SELECTOR] --from TIME --to TIME\n" \
    "               --output FILE [--force] [--for pgo]\n" \
    "                                the server's merged pprof of the query, gzip-compressed as\n" \
    "                                profilecli query merge --output pprof=FILE writes it (for go build\n" \
    "                                -pgo); warns when its total disagrees with the server's flamegraph\n" \
    "                                --for pgo: trimmed as convert --for pgo trims\n" \
    "  qflame top --url URL --type PROFILE_TYPE_ID [--query SELECTOR] --from TIME --to TIME\n" \
    "             [--limit N] [--tsv|--csv]\n" \
    "                                the table of `qflame top FILE` for the server's merged flamegraph\n" \
    "  qflame diff --url URL --type PROFILE_TYPE_ID [--base-query SELECTOR] [--base-from TIME]\n" \
    "              [--base-to TIME] [--query SELECTOR] --from TIME --to TIME [diff options]\n" \
    "                                the table of `qflame diff BASE NEW` for two queries of the server\n" \
    "                                (the base defaults to --query, --from and --to)\n" \
    "Server options (merge, top --url, diff --url, rounds --url, the window's --url):\n" \
    "  --type ID                     e.g. process_cpu:cpu:nanoseconds:cpu:nanoseconds\n" \
    "  --query SELECTOR              e.g. '{service_name=\"api\", env=~\"prod.*\"}' (default {}: all)\n" \
    "  --from, --to TIME             RFC 3339 (2026-11-29T21:00:00Z), epoch seconds or ms, now,\n" \
    "                                now-1h, now-20m\n" \
    "  --user U --password-env VAR   HTTP basic auth, the password read from environment variable VAR\n" \
    "  --token-env VAR               bearer token from environment variable VAR\n" \
    "  --tenant T                    X-Scope-OrgID header (Grafana Pyroscope multi-tenancy)\n" \
    "  --ca-file PEM                 also trust these CA certificates (TLS is always verified)\n" \
    "  --protocol qryn|connect       connect adds Connect-Protocol-Version: 1 (Grafana Pyroscope)\n" \
    "  --timeout SECONDS             per request (default 60)\n" \
    "  --max-size MIB                largest answer accepted (default 1024)\n"

// The window's command line for a server (CliExplorer.h), for the same usage text.
#define QFLAME_EXPLORER_USAGE \
    "  qflame --url URL --type PROFILE_TYPE_ID [--query SELECTOR] [--from TIME] [--to TIME]\n" \
    "         [server options]      open the window's qryn explorer on the server with that query loaded\n" \
    "                                (default: the last hour); the secrets of the saved connection with\n" \
    "                                that URL are used unless --user, --password-env or --token-env say\n" \
    "                                otherwise (server options as for merge)\n" \
    "  qflame --connection NAME [--type PROFILE_TYPE_ID [--query SELECTOR] [--from TIME] [--to TIME]]\n" \
    "                                the explorer on a saved connection (File > Connect to qryn... saves\n" \
    "                                one), with its last query loaded unless --type gives one\n"

// `qflame merge --url URL --type ID [--query SEL] --from T --to T --output FILE [--force] [auth, TLS options]`:
// writes the server's merged pprof gzip-compressed, as `profilecli query merge --output pprof=FILE` does.
// Returns the exit status; throws CliExit like the other verbs.
int runMerge(const std::vector<std::string> &args);

// `qflame top --url ...`: the flat table of the server's merged flamegraph, and the --limit/--tsv to print it
// with. Throws CliExit{1} after a usage message and CliExit{2} after a server or data error.
struct RemoteTop {
    std::shared_ptr<const FlatTable> table;
    std::optional<uint64_t> limit;
    bool tsv = false, csv = false;
};
RemoteTop fetchRemoteTop(const std::vector<std::string> &args);

// `qflame diff --url URL --type ID [--base-query SEL] [--base-from T] [--base-to T] [--query SEL] --from T --to T
// [--normalize ...] [--noise K] [--tsv]`: the server's flamegraphs of the two queries, compared and printed by
// `qflame diff` itself (runDiff), so the table is the one of two files. The base defaults to the comparison's
// selector and window. Each side lasts its window (per-second normalisation divides by the window lengths) and
// carries the samples:count type of the same profiles where the server holds it (qryn/ComparisonSide.h), so the
// noise test works.
int runRemoteDiff(const std::vector<std::string> &args);

// `qflame top --url ...`: fetchRemoteTop, printed.
int runRemoteTop(const std::vector<std::string> &args);

// `qflame rounds --url URL --type ID [--step SECONDS] (-r NAME [--query SEL] --from T --to T)... [--noise K]
// [server options] --tsv|--csv|--markdown` (CliQrynRounds.cpp): rounds as windows of the server
// (qryn/ServerRounds.h), printed by the code that prints rounds of files.
int runServerRounds(const std::vector<std::string> &args);

// What `qflame rounds --url ...` asks for; without an output option, qflame-gui opens it in a rounds tab. A usage
// error prints its line and throws CliExit.
struct ServerRoundsRequest {
    qryn::ConnectionSettings settings;
    qryn::ServerRoundsQuery query;
    RoundsOptions options;
    RoundsOutput output = RoundsOutput::Window;
};
ServerRoundsRequest parseServerRoundsRequest(const std::vector<std::string> &args);

// The server options every --url verb takes (url, user, password-env, token-env, tenant, ca-file, protocol,
// timeout, max-size; by name without "--") as connection settings; a usage error when one is wrong, or, with
// `fail` (which must throw), what `fail` does with the message.
qryn::ConnectionSettings connectionFromOptions(const std::map<std::string, std::string> &values,
                                              void (*fail)(const std::string &message) = nullptr);

// The four, for setServerVerbs (qflame-gui's main).
ServerVerbs qrynVerbs();

}   // namespace qflame
