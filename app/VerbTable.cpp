// The verb table's rows (VerbTable.h): options by group, as several verbs share them, then every verb's forms.
#include "VerbTable.h"

#include "CliVerbs.h"
#include "VerbGroups.h"

#include <cstring>
#include <initializer_list>

namespace qflame {

Options join(std::initializer_list<Options> groups)
{
    Options out;
    for (const Options &g : groups)
        out.insert(out.end(), g.begin(), g.end());
    return out;
}

const OptionSpec kSample{"--sample", "TYPE|INDEX",
                         "the sample type, by name (cpu, alloc_space) or index (default: the profile's)"};
const OptionSpec kGranularity{"--granularity", "functions|lines|addresses",
                              "what a frame is: a function (default), a source line or an address"};
const OptionSpec kTsv{"--tsv", nullptr, "tab-separated exact integers (names escape \\, tab, newline, CR)"};
const OptionSpec kCsv{"--csv", nullptr, "the same columns as CSV, with percentages"};
const OptionSpec kJson{"--json", nullptr, "the result as JSON (docs/json.md)"};
const OptionSpec kNoise{"--noise", "K",
                        "a delta under K Poisson standard errors is 'noise' (default 2, 0 turns it off)"};
const OptionSpec kMaxSize{"--max-size", "MIB", "refuse inputs that inflate to more MiB (default 1024)"};

// Taken by every verb, applied to every profile it reads (runCli).
Options common()
{
    return {{"--demangle", "none|simple|templates|full",
             "how mangled C++ and Rust names are shown (default simple): none keeps them, full is c++filt's, "
             "templates drops parameter lists, simple also template arguments; readable names are kept"},
            {"--collapse-templates", nullptr,
             "then every name's template arguments become <> (readable names too): frames differing only inside "
             "<...> merge, values summed"},
            {"--profile", "NAME",
             "in a file of several profiles (speedscope), read the one of that name (default the file's active "
             "one, else the first)"}};
}

// Where a FILE is an http(s) URL (go tool pprof's /debug/pprof/...), how to fetch it.
Options fetching()
{
    Options o = {{"--user", "U", "URL FILEs: HTTP basic auth user"},
                 {"--password-env", "VAR", "URL FILEs: the password, from environment variable VAR"},
                 {"--token-env", "VAR", "URL FILEs: a bearer token, from environment variable VAR"},
                 {"--ca-file", "PEM", "URL FILEs: also trust these CA certificates (TLS is always verified)"},
                 {"--timeout", "SECONDS", "URL FILEs: per URL (default the profile's seconds plus 30)"}};
    for (OptionSpec &s : o)
        s.forUrls = true;
    return o;
}

Options files()
{
    return join({{kMaxSize}, common(), fetching()});
}

Options timeRange()
{
    return {{"--from", "T",
             "only the samples from T on (seconds from the first sample, or RFC 3339 where the file's times are "
             "clock times); a file without sample times is an error. Repeated with --to, pair by pair: the union "
             "of the ranges (heatmap cells, say)", true},
            {"--to", "T", "only the samples up to T (as --from)", true}};
}

Options filters()
{
    return {{"--focus", "RE", "pprof's -focus: only samples with a frame matching RE (docs/filters.md)"},
            {"--ignore", "RE", "pprof's -ignore: drop samples with a frame matching RE"},
            {"--hide", "RE", "pprof's -hide: drop the frames matching RE from every stack"},
            {"--show", "RE", "pprof's -show: keep only the frames matching RE"},
            {"--tagfocus", "F", "pprof's -tagfocus: only samples whose labels match F"},
            {"--tagignore", "F", "pprof's -tagignore: drop samples whose labels match F"}};
}

Options labelFrames()
{
    return {{"--tagroot", "KEYS", "each label's values (KEY,...) as a frame at the root of every sample (pprof's)"},
            {"--tagleaf", "KEYS", "each label's values (KEY,...) as a frame at the leaf of every sample"}};
}

const OptionSpec kInverted{"--inverted", nullptr, "the flamegraph bottom-up (leaves as roots)"};

// The options of every verb that asks a server (and of the window's --url).
Options server(bool query)
{
    const Options where = {{"--url", "URL", "the qryn or Grafana Pyroscope server"},
                           {"--type", "ID", "the profile type, e.g. process_cpu:cpu:nanoseconds:cpu:nanoseconds"}};
    const Options window = {
        {"--query", "SELECTOR", "a label selector, e.g. '{service_name=\"api\"}' (default {}: all)"},
        {"--from", "TIME", "RFC 3339 (2026-11-29T21:00:00Z), epoch seconds or ms, now, now-1h, now-20m"},
        {"--to", "TIME", "the window's end, as --from"}};
    const Options access = {
        {"--user", "U", "HTTP basic auth user"},
        {"--password-env", "VAR", "HTTP basic auth password, from environment variable VAR"},
        {"--token-env", "VAR", "bearer token from environment variable VAR"},
        {"--tenant", "T", "X-Scope-OrgID header (Grafana Pyroscope multi-tenancy)"},
        {"--ca-file", "PEM", "also trust these CA certificates (TLS is always verified)"},
        {"--protocol", "qryn|connect", "connect adds Connect-Protocol-Version: 1 (Grafana Pyroscope)"},
        {"--timeout", "SECONDS", "per request (default 60)"},
        {"--max-size", "MIB", "largest answer accepted (default 1024)"}};
    return query ? join({where, window, access}) : join({where, access});
}

Options graphPruning()
{
    return {{"--nodecount", "N", "at most N nodes, pprof's (default 80; 0: no limit)"},
            {"--nodefraction", "F", "drop nodes under F of the total (default 0.005)"},
            {"--edgefraction", "F", "drop edges under F of the total (default 0.001)"}};
}

Options graphOutputs()
{
    return {{"--tsv", nullptr,
             "node<TAB>NAME<TAB>flat<TAB>cum, then edge<TAB>CALLER<TAB>CALLEE<TAB>weight<TAB>KIND (call, "
             "inline, residual)"},
            {"--json", nullptr, "the nodes and edges of --tsv as JSON (docs/json.md)"},
            {"--dot", "OUT", "a Graphviz dot file ('-': standard output)"},
            {"--svg", "OUT", "the graph drawn as SVG", false, true},
            {"--png", "OUT", "the graph drawn as PNG", false, true}};
}

Options graphOptions()
{
    return join({graphPruning(), {kSample, kGranularity}, filters(), labelFrames(), graphOutputs(), timeRange(),
                 files()});
}

Options roundOutputs()
{
    Options o = {{"--tsv", nullptr,
                  "round<TAB>NAME<TAB>k<TAB>total<TAB>duration_ns<TAB>rate<TAB>se<TAB>change_pct<TAB>verdict per "
                  "round, then function<TAB>NAME<TAB>cum_1...<TAB>cum_N by |cum_N - cum_1|"},
                 {"--csv", nullptr, "the --tsv rows as CSV"},
                 {"--markdown", nullptr, "a summary for a pull-request comment"},
                 {"--json", nullptr, "the rounds, their changes and the functions as JSON (docs/json.md)"}};
    for (OptionSpec &s : o)
        s.output = true;
    return o;
}

namespace {

std::vector<VerbSpec> buildTable()
{
    std::vector<VerbSpec> t;
    t.push_back({"", nullptr, "[FILE...]", "open the window (on FILE, or the comparison of two)",
                 {kInverted, kMaxSize,
                  {"--time-to-paint", nullptr,
                   "open the window on FILE (or the comparison of FILE and NEW), print 'first paint: N ms' (from the "
                   "process's start to the first painted flamegraph) and exit"}},
                 VerbNeeds::Window});
    t.back().options = join({t.back().options, fetching()});
    t.push_back({"", "--url", "URL --type PROFILE_TYPE_ID [--query SELECTOR] [--from TIME] [--to TIME]",
                 "open the window's qryn explorer on the server with that query loaded (default: the last hour); "
                 "the secrets of the saved connection with that URL are used unless --user, --password-env or "
                 "--token-env say otherwise",
                 join({server(), {{"--connection", "NAME", "a saved connection (File > Connect to qryn...)"}}}),
                 VerbNeeds::Window});
    t.push_back({"", "--connection", "NAME [--type PROFILE_TYPE_ID [--query SELECTOR] [--from TIME] [--to TIME]]",
                 "the explorer on a saved connection, with its last query loaded unless --type gives one",
                 join({{{"--connection", "NAME", "the saved connection's name"}}, server()}), VerbNeeds::Window});
    t.push_back({"info", nullptr, "FILE [--json]", "sample types, counts, period, time, duration, totals",
                 join({{kJson}, files()}), VerbNeeds::Files});
    t.push_back({"top", nullptr, "FILE... [options]",
                 "flat/cum table per function; several FILEs are merged (with filters, percentages are of what "
                 "they keep)",
                 join({{kSample, kGranularity, {"--limit", "N", "only the first N rows"},
                        {"--tsv", nullptr, "exact integers: flat<TAB>cum<TAB>name"},
                        {"--csv", nullptr, "flat,flat_percent,sum_percent,cum,cum_percent,name"}, kJson},
                       filters(),
                       {{"--collapse-recursion", nullptr, "fold direct self-calls (flat/cum unchanged)"}},
                       labelFrames(), timeRange(), files()}),
                 VerbNeeds::Files});
    t.push_back({"top", "--url", "URL --type PROFILE_TYPE_ID [--query SELECTOR] --from TIME --to TIME [options]",
                 "the table of `qflame top FILE` for the server's merged flamegraph",
                 join({server(),
                       {{"--limit", "N", "only the first N rows"}, kTsv, kCsv, kJson,
                        {"--sample", "TYPE", "refused: --type picks the sample type"},
                        {"--granularity", "G", "refused: the server's flamegraph has function names only"}},
                       common()}),
                 VerbNeeds::Server});
    t.push_back(diffForm());
    t.push_back(diffGraphForm());
    t.push_back(diffDisasmForm());
    t.push_back({"diff", "--url", "URL --type PROFILE_TYPE_ID [--base-query SELECTOR] [--base-from TIME] "
                 "[--base-to TIME] [--query SELECTOR] --from TIME --to TIME [options]",
                 "the table of `qflame diff BASE NEW` for two queries of the server (the base defaults to --query, "
                 "--from and --to)",
                 join({server(),
                       {{"--base-query", "SELECTOR", "the base's selector (default --query's)"},
                        {"--base-from", "TIME", "the base's window start (default --from's)"},
                        {"--base-to", "TIME", "the base's window end (default --to's)"},
                        {"--normalize", "none|per-second|total|FACTOR", "as for diff BASE NEW"}, kNoise, kTsv,
                        kJson},
                       common()}),
                 VerbNeeds::Server});
    t.push_back(convertForm());
    t.push_back({"merge", "--url", "URL --type PROFILE_TYPE_ID [--query SELECTOR] --from TIME --to TIME "
                 "--output FILE [--force] [--for pgo]",
                 "the server's merged pprof of the query, gzip-compressed as profilecli query merge --output "
                 "pprof=FILE writes it (for go build -pgo); warns when its total disagrees with the server's "
                 "flamegraph",
                 join({server(),
                       {{"--output", "FILE", "where to write the profile"},
                        {"--force", nullptr, "overwrite an existing FILE"},
                        {"--for", "pgo", "trimmed as convert --for pgo trims"}},
                       common()}),
                 VerbNeeds::Server});
    t.push_back(pgoForm());
    t.push_back(roundsForm());
    t.push_back(roundsGraphForm());
    VerbSpec serverRounds{"rounds", "--url",
                          "URL --type ID [--step SECONDS] (-r NAME [--query SEL] --from T --to T)... [options]",
                          "rounds as windows of a server: each -r NAME begins one, with its own --query (default "
                          "{}), --from and --to; one observation per step of the window (--step, or about 60 steps "
                          "of at least 10 s; a step without data is 0), its tree the window's merged flamegraph; "
                          "without an output option the window's rounds tab",
                          join({{{"-r", "NAME", "begins a round", true}},
                                server(false),
                                {{"--query", "SELECTOR", "the last -r round's selector (default {})", true},
                                 {"--from", "TIME", "the last -r round's window start", true},
                                 {"--to", "TIME", "the last -r round's window end", true},
                                 {"--step", "SECONDS", "one observation per step (default: about 60 steps)"},
                                 kNoise},
                                roundOutputs(), common()}),
                          VerbNeeds::Server};
    serverRounds.windowWithoutOutput = true;
    t.push_back(serverRounds);
    t.push_back(listForm());
    t.push_back({"graph", nullptr, "FILE... [options]",
                 "the call graph as go tool pprof draws it (-dot): nodes with flat and cum, calls with their weight, "
                 "pruned as pprof prunes, residual edges through dropped nodes",
                 graphOptions(), VerbNeeds::Files});
    t.push_back(disasmForm());
    t.push_back(heatmapForm());
    return t;
}

}   // namespace

std::vector<VerbSpec> &verbTableStorage()
{
    static std::vector<VerbSpec> table = buildTable();
    return table;
}

const std::vector<VerbSpec> &verbTable()
{
    return verbTableStorage();
}

std::vector<std::string> verbNames()
{
    std::vector<std::string> out;
    for (const VerbSpec &v : verbTable())
        if (*v.name && (out.empty() || out.back() != v.name))
            out.push_back(v.name);
    return out;
}

void setVerbRun(const std::string &verb, const char *selector, VerbRun run)
{
    for (VerbSpec &v : verbTableStorage())
        if (verb == v.name && ((!selector && !v.selector) || (selector && v.selector && !std::strcmp(selector, v.selector))))
            v.run = run;
}

}   // namespace qflame
