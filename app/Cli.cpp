// The headless verbs: `qflame info FILE`, `qflame top FILE`. They use the model only, so what the tests prove
// for them holds for the window too.
#include "Cli.h"

#include "CliDiff.h"
#include "CliDisasm.h"
#include "CliFetch.h"
#include "CliFormats.h"
#include "CliGraph.h"
#include "CliHeatmap.h"
#include "CliList.h"
#include "CliPgo.h"
#include "CliQryn.h"
#include "CliRounds.h"
#include "CliTimeRange.h"
#include "export/TableCsv.h"
#include "formats/ProfileInput.h"
#include "names/Demangle.h"
#include "names/NameOptions.h"
#include "pprof/SampleTypes.h"
#include "pprof/Units.h"
#include "report/InfoReport.h"
#include "report/TopReport.h"
#include "tree/CallTreeBuilder.h"
#include "tree/FlatTable.h"

#include <QDateTime>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <limits>
#include <optional>
#include <string>

namespace qflame {

namespace {

struct Args {
    std::vector<std::string> positional;
    std::optional<std::string> sample, granularity, limit, maxSize;
    bool tsv = false, csv = false, json = false;
    SampleFilters filters;
};


// The pprof filter option `arg` names (--focus=RE or --focus RE), or nullptr.
std::string *filterOption(SampleFilters &f, const std::string &arg)
{
    for (auto [name, slot] : {std::pair{"--focus", &f.focus}, {"--ignore", &f.ignore}, {"--hide", &f.hide},
                              {"--show", &f.show}, {"--tagfocus", &f.tagFocus}, {"--tagignore", &f.tagIgnore}})
        if (arg == name || arg.rfind(std::string(name) + "=", 0) == 0)
            return slot;
    return nullptr;
}

Args parseArgs(const std::vector<std::string> &argv, bool allowTsv)
{
    Args a;
    for (size_t i = 0; i < argv.size(); ++i) {
        const std::string &s = argv[i];
        auto value = [&](std::optional<std::string> &slot) {
            const size_t eq = s.find('=');
            if (eq != std::string::npos) {
                slot = s.substr(eq + 1);
            } else {
                if (i + 1 >= argv.size())
                    usageError("option " + s + " needs a value");
                slot = argv[++i];
            }
        };
        auto is = [&](const char *name) { return s == name || s.rfind(std::string(name) + "=", 0) == 0; };
        if (is("--sample"))
            value(a.sample);
        else if (is("--granularity"))
            value(a.granularity);
        else if (is("--limit"))
            value(a.limit);
        else if (is("--max-size"))
            value(a.maxSize);
        else if (allowTsv && s == "--tsv")
            a.tsv = true;
        else if (allowTsv && s == "--csv")
            a.csv = true;
        else if (s == "--json")
            a.json = true;
        else if (std::string *filter = allowTsv ? filterOption(a.filters, s) : nullptr) {
            std::optional<std::string> v;
            value(v);
            *filter = *v;
        } else if (allowTsv && s == "--collapse-recursion")
            a.filters.collapseRecursion = true;
        else if (allowTsv && takeLabelFrameOption(argv, i, a.filters, false))
            ;
        else if (s.size() > 1 && s[0] == '-' && s != "-")
            usageError("unknown option " + s);
        else
            a.positional.push_back(s);
    }
    return a;
}

ReadOptions readOptions(const Args &a)
{
    return readOptionsFor(a.maxSize);
}


int runInfo(const std::vector<std::string> &argv)
{
    const Args a = parseArgs(argv, false);
    if (a.positional.size() != 1)
        usageError("info takes exactly one FILE");
    auto p = readProfileFile(QString::fromStdString(a.positional[0]), readOptions(a));
    leaveToProcessEnd(p);
    if (a.json)
        writeToStdout(infoJson(*p));
    else
        writeInfoText(*p, writeToStdout);
    return 0;
}

ServerVerbs &serverVerbs()
{
    static ServerVerbs verbs;
    return verbs;
}

// Reached only where the verbs are registered (runHeadless hands them to qflame-gui otherwise).
int runServerVerb(int (*verb)(const std::vector<std::string> &), const std::vector<std::string> &args)
{
    if (!verb)
        throw ProfileError("this program cannot ask a server; qflame-gui can");
    return verb(args);
}

int runTop(const std::vector<std::string> &argv)
{
    if (wantsServer(argv))
        return runServerVerb(serverVerbs().top, argv);
    const Args a = parseArgs(argv, true);
    if (a.positional.empty())
        usageError("top takes one or more FILEs (several are merged)");
    BuildOptions build;
    if (a.granularity && !parseGranularity(*a.granularity, &build.granularity))
        usageError("--granularity must be functions, lines or addresses, not '" + *a.granularity + "'");
    build.filters = a.filters;
    std::optional<uint64_t> limit;
    if (a.limit && !(limit = parseCount(*a.limit)))
        usageError("--limit takes a whole number, not '" + *a.limit + "'");
    const ReadOptions ro = readOptions(a);
    std::vector<std::shared_ptr<const Profile>> profiles;
    for (const std::string &f : a.positional)
        profiles.push_back(readProfileFile(QString::fromStdString(f), ro));
    const Profile &first = *profiles.front();
    const size_t type = chosenSampleType(first, a.sample);
    // Straight from the samples: the table needs no tree (the GUI builds one; tst_corpusoracle checks both).
    const auto table = FlatTable::compute(profiles, type, build);
    for (auto &p : profiles)
        leaveToProcessEnd(std::move(p));
    leaveToProcessEnd(table);
    return printTop(*table, limit, a.tsv, a.csv, a.json);
}

}   // namespace

int printTop(const FlatTable &table, std::optional<uint64_t> limit, bool tsv, bool csv, bool json)
{
    const size_t n = limit ? std::min<size_t>(*limit, table.rows().size()) : table.rows().size();
    if (csv)
        std::cout << flatTableCsv(table, n);
    else if (json)
        writeToStdout(topJson(table, n));
    else if (tsv)
        writeTopTsv(table, n, writeToStdout);
    else
        writeTopText(table, n, writeToStdout);
    return 0;
}

[[noreturn]] void usageError(const std::string &message)
{
    std::cerr << "qflame: " << message << "\nRun 'qflame --help' for usage.\n";
    throw CliExit{1};
}

bool takeOption(const std::vector<std::string> &argv, size_t &i, const char *name, std::optional<std::string> &slot)
{
    const std::string &s = argv[i];
    const size_t n = std::strlen(name);
    if (s.compare(0, n, name) != 0 || (s.size() > n && s[n] != '='))
        return false;
    if (s.size() > n) {
        slot = s.substr(n + 1);
    } else {
        if (i + 1 >= argv.size())
            usageError("option " + s + " needs a value");
        slot = argv[++i];
    }
    return true;
}

std::optional<uint64_t> parseCount(const std::string &text)
{
    if (text.empty() || text.front() < '0' || text.front() > '9')
        return std::nullopt;
    try {
        size_t used = 0;
        const unsigned long long v = std::stoull(text, &used);
        if (used == text.size())
            return v;
    } catch (...) {
    }
    return std::nullopt;
}

namespace {

// --demangle and --collapse-templates are common to every verb that reads profiles: runCli takes them out of the
// arguments before a verb parses them, and every verb's read options (readOptionsFor) carry them.
NameOptions &cliNameOptions()
{
    static NameOptions names;   // pprof's defaults, as the window's
    return names;
}

std::vector<std::string> takeDemangleOption(const std::vector<std::string> &argv)
{
    std::vector<std::string> rest;
    std::optional<std::string> value;
    for (size_t i = 0; i < argv.size(); ++i) {
        if (argv[i] == "--") {   // what follows is files, whatever it looks like
            rest.insert(rest.end(), argv.begin() + long(i), argv.end());
            break;
        }
        if (argv[i] == "--collapse-templates")
            cliNameOptions().collapseTemplates = true;
        else if (!takeOption(argv, i, "--demangle", value))
            rest.push_back(argv[i]);
    }
    if (value) {
        const auto mode = parseDemangleMode(*value);
        if (!mode)
            usageError("--demangle must be none, simple, templates or full, not '" + *value + "'");
        cliNameOptions().demangle = *mode;
    }
    return rest;
}

// `--profile NAME`, for every verb that reads files: taken out of the arguments by runCli.
std::string &profileNameOption()
{
    static std::string name;
    return name;
}

// Takes `--profile NAME` out of a verb's arguments (it applies to every FILE, as --max-size does).
std::vector<std::string> takeProfileName(const std::vector<std::string> &args)
{
    std::vector<std::string> rest;
    for (size_t i = 0; i < args.size(); ++i) {
        std::optional<std::string> name;
        if (takeOption(args, i, "--profile", name))
            profileNameOption() = *name;
        else
            rest.push_back(args[i]);
    }
    return rest;
}

}   // namespace

ReadOptions readOptionsFor(const std::optional<std::string> &maxSizeMiB)
{
    ReadOptions o = cliNameOptions().appliedTo({});
    o.profileName = profileNameOption();
    o.timeFrom = cliTimeFrom(), o.timeTo = cliTimeTo();
    o.warning = [](const std::string &message) { std::cerr << "qflame: warning: " << message << "\n"; };
    if (maxSizeMiB) {
        const auto mib = parseCount(*maxSizeMiB);
        if (!mib || *mib == 0 || *mib > (uint64_t(1) << 40))
            usageError("--max-size takes a size in MiB, not '" + *maxSizeMiB + "'");
        o.maxDecompressedBytes = *mib << 20;
    }
    return o;
}

void writeToStdout(std::string_view text)
{
    std::cout.write(text.data(), std::streamsize(text.size()));
}

bool takeLabelFrameOption(const std::vector<std::string> &argv, size_t &i, SampleFilters &filters, bool inverted)
{
    if (inverted && argv[i] == "--inverted") {
        filters.inverted = true;
        return true;
    }
    std::optional<std::string> value;
    if (takeOption(argv, i, "--tagroot", value)) {
        filters.tagRoot = *value;
        return true;
    }
    if (takeOption(argv, i, "--tagleaf", value)) {
        filters.tagLeaf = *value;
        return true;
    }
    return false;
}

const char *cliUsage()
{
    return "Usage:\n"
           "  qflame [FILE]                 open the window (on FILE, if given)\n"
           QFLAME_EXPLORER_USAGE
           "  qflame --inverted FILE        open the window on FILE bottom-up (leaves as roots)\n"
           "  qflame --time-to-paint FILE [NEW]\n"
           "                                open the window on FILE (or the comparison), print 'first paint: N ms'\n"
           "                                (from the process's start to the first painted flamegraph) and exit\n"
           "  qflame info FILE [--json]     sample types, counts, period, time, duration, totals\n"
           "  qflame top FILE... [--sample TYPE|INDEX] [--granularity functions|lines|addresses]\n"
           "                     [--limit N] [--tsv|--csv|--json]\n"
           "                     [--focus RE] [--ignore RE] [--hide RE] [--show RE] [--tagfocus F]\n"
           "                     [--tagignore F] [--collapse-recursion] [--tagroot KEYS] [--tagleaf KEYS]\n"
           "                                flat/cum table per function; several FILEs are merged;\n"
           "                                --tsv prints exact integers: flat<TAB>cum<TAB>name\n"
           "                                --csv: flat,flat_percent,sum_percent,cum,cum_percent,name\n"
           "                                --json: the same rows as JSON (docs/json.md)\n"
           "                                --focus/--ignore/--hide/--show/--tagfocus/--tagignore: pprof's\n"
           "                                sample filters, same syntax and meaning (see docs/filters.md);\n"
           "                                --collapse-recursion folds direct self-calls (flat/cum unchanged)\n"
           "                                --tagroot/--tagleaf KEY,...: each label's values as a frame at the\n"
           "                                root or the leaf of every sample, as pprof's -tagroot/-tagleaf\n"
           "                                (with filters, percentages are of what they keep)\n"
           "  qflame diff BASE NEW [--sample TYPE|INDEX] [--granularity functions|lines|addresses]\n"
           "                     [--normalize none|per-second|total|FACTOR] [--noise K] [--tsv|--csv|--json]\n"
           "                     [--png FILE] [--svg FILE] [--inverted] [--tagroot KEYS] [--tagleaf KEYS]\n"
           "  qflame diff BASE NEW --inlining [--sample TYPE|INDEX] [--tsv|--json]\n"           "  qflame diff BASE NEW --list REGEX [--sample TYPE|INDEX] [--noise K] [--source-path DIRS]\n"
           "                     [--trim-path P] [--tsv|--json]\n"
           "                                per-function change from BASE to NEW (delta = NEW - BASE);\n"
           "                                --normalize: none (default, absolute), per-second (each side\n"
           "                                by its duration), total (NEW scaled to BASE's total: the share\n"
           "                                view), FACTOR (NEW multiplied by it); --noise K: a delta under\n"
           "                                K Poisson standard errors is 'noise' (default 2, 0 off);\n"
           "                                --tsv: before_flat after_flat delta_flat before_cum after_cum\n"
           "                                delta_cum class name, sorted by |delta_cum|; --csv: the same\n"
           "                                columns as CSV; --json: the table and its headline as JSON\n"
           "                                (docs/json.md); --png/--svg: the\n"
           "                                diff flamegraph as a picture (works without a display);\n"
           "                                --inverted: the flamegraph bottom-up (leaves as roots)\n"
           "                                --inlining: the calls that became inlined or stopped being inlined\n"
           "                                (weights of each as a real call and as an inline frame, both\n"
           "                                sides) and the go build -pgo hot edges that appeared or vanished;\n"
           "                                --tsv: inlining<TAB>KIND<TAB>caller<TAB>callee<TAB>base_called\n"
           "                                <TAB>base_inlined<TAB>new_called<TAB>new_inlined, KIND one of\n"
           "                                became_inlined, no_longer_inlined, partly_inlined, partly_called;\n"
           "                                then hot<TAB>appeared|vanished<TAB>caller<TAB>callee<TAB>offset\n"
           "                                <TAB>base_weight<TAB>new_weight\n"           "                                --list REGEX: per source line cum before, after, delta and class\n"
           "                                (noise from samples/count, --noise K; see list); --tsv: function\n"
           "                                file line before_flat after_flat delta_flat before_cum after_cum\n"
           "                                delta_cum class text\n"
           "  qflame convert FILE... --to pprof|folded|speedscope [--output OUT] [--sample TYPE|INDEX]\n"
           "                     [--granularity functions|lines|addresses] [--tagroot KEYS] [--tagleaf KEYS]\n"
           "  qflame convert FILE... --for pgo [--output OUT]\n"
           "                                writes FILE as gzip pprof or folded stacks ('root;...;leaf COUNT'\n"
           "                                lines) to OUT (default '-', standard output); several FILEs are\n"
           "                                merged; --to pprof of one FILE without --sample or --granularity\n"
           "                                keeps the whole profile (every sample type, labels), otherwise the\n"
           "                                call tree of one sample type is written; --to speedscope: that tree\n"
           "                                as one sampled profile of speedscope's file format (JSON)\n"
           "                                --for pgo: only what go build -pgo reads (the last two frames of\n"
           "                                each sample with their inline lines and start lines, samples/count\n"
           "                                and cpu/nanoseconds, the period), checked to give the same edges;\n"
           "                                the sizes before and after go to standard error\n"
           "  qflame list REGEX FILE... [--sample TYPE|INDEX] [--granularity lines] [--source-path DIRS]\n"
           "                     [--trim-path PREFIXES] [--tsv|--json]\n"
           "                                the cost of every source line of the functions REGEX matches, as\n"
           "                                go tool pprof -list prints it (several FILEs are merged); sources are\n"
           "                                found as pprof finds them (--source-path DIR[:DIR], default the\n"
           "                                working directory and its parents; --trim-path cuts prefixes), then\n"
           "                                in GOROOT and the Go module cache;\n"
           "                                --tsv: function<TAB>file<TAB>line<TAB>flat<TAB>cum<TAB>text, file\n"
           "                                the one read, exact integers; --json: the files and lines as JSON\n"
           "  qflame disasm REGEX FILE... [--binary FILE|DIR] [--sample TYPE|INDEX] [--tsv]\n"
           "                                the cost of every instruction of the functions REGEX matches, as go\n"
           "                                tool pprof -disasm counts it, disassembled by objdump from the binary\n"
           "                                the profile names (or --binary: a file, or a folder searched by build\n"
           "                                id; also $PPROF_BINARY_PATH); --tsv: function<TAB>address<TAB>flat\n"
           "                                <TAB>cum<TAB>file:line<TAB>instruction, exact integers, address in hex\n"
           "  qflame diff BASE NEW --disasm REGEX [--binary-base P] [--binary-new P] [--noise K] [--tsv]\n"
           "                                two builds' instructions grouped by source line and inline frame:\n"
           "                                cum before, after, delta and class, then each side's instructions\n"
           "  qflame graph FILE... [--nodecount N] [--nodefraction F] [--edgefraction F] [--sample TYPE|INDEX]\n"
           "                     [--granularity functions|lines|addresses] [filters as for top]\n"
           "                     [--tagroot KEYS] [--tagleaf KEYS] [--tsv | --dot OUT | --svg OUT | --png OUT]\n"
           "  qflame diff BASE NEW --graph [the same options] [--noise K]\n"
           "                                the call graph as go tool pprof draws it (-dot): nodes with flat and\n"
           "                                cum, calls with their weight, pruned as pprof prunes (--nodecount 80,\n"
           "                                --nodefraction 0.005, --edgefraction 0.001; --nodecount 0: no limit),\n"
           "                                residual edges through dropped nodes; --tsv: node<TAB>NAME<TAB>flat\n"
           "                                <TAB>cum, then edge<TAB>CALLER<TAB>CALLEE<TAB>weight<TAB>KIND (call,\n"
           "                                inline, residual); diff --graph: before, after, delta (and class)\n"
           "                                in place of each value; --dot: a Graphviz dot file ('-': stdout)\n"
           "                                diff --graph marks the calls whose inlining changed (diff --inlining's)\n"
           "                                on their edges: for people, --dot, --svg, --png (not in --tsv)\n"
           "  qflame pgo FILE... [--threshold P] [--tsv | --json | --preprofile OUT]\n"
           "                                the call edges go build -pgo builds from CPU profiles (the last two\n"
           "                                frames of each sample; several FILEs are merged): readiness lines\n"
           "                                (ok|warning|error: CHECK: message), then rank, caller, callee,\n"
           "                                offset, weight, share, cumulative share, hot (the heaviest edges up\n"
           "                                to the first past P% of the weight, default 99), then call sites\n"
           "                                with several callees (devirtualisation candidates);\n"
           "                                --tsv: caller<TAB>callee<TAB>offset<TAB>weight<TAB>hot(1|0);\n"
           "                                --json: readiness, edges and candidates (docs/json.md);\n"
           "                                --preprofile: go tool preprofile's text to OUT ('-': stdout)\n"
           "  qflame heatmap FILE [--column-ms N] [--rows N] [--thread RE] [--sample TYPE|INDEX] [--tsv]\n"
           "                                the subsecond heatmap of a file with sample times (perf script,\n"
           "                                .cpuprofile): columns of N ms (default 1000) from the first sample,\n"
           "                                each cut into rows (default 50), the sample type's sum per cell;\n"
           "                                --thread: threads whose name (perf: comm pid/tid) matches RE;\n"
           "                                --tsv: column_start_ns<TAB>row<TAB>value per non-empty cell\n"
           QFLAME_ROUNDS_USAGE
           QFLAME_QRYN_USAGE
           QFLAME_FETCH_USAGE
           "Common options:\n"
           "  --max-size MIB                refuse inputs that inflate to more (default 1024)\n"
           "  --demangle none|simple|templates|full\n"
           "                                how mangled C++ and Rust names are shown (default simple): none\n"
           "                                keeps them, full is c++filt's, templates drops parameter lists,\n"
           "                                simple also template arguments; readable names are kept as they are\n"
           "  --collapse-templates          then every name's template arguments become <> (readable names too):\n"
           "                                frames differing only inside <...> merge, values summed\n"
           "  --from T --to T               top, diff, convert, graph, heatmap: only the samples from T to T\n"
           "                                (seconds from the first sample, or RFC 3339 where the file's times\n"
           "                                are clock times); a file without sample times is an error; with\n"
           "                                --url they are the server's window instead\n"
           "  --help, --version\n"
           "FILE may be pprof, perf script output, folded stacks or Pyroscope flamebearer JSON, raw or gzip/zstd\n"
           "compressed, told apart by content; '-' reads standard input.\n"
           "FILE may also be speedscope JSON (--profile NAME reads the profile of that name in a file of\n"
           "several; default the file's active one, else the first) or a Chrome/V8 .cpuprofile.\n"
           "In --tsv output, names escape backslash, tab, newline and carriage return as \\\\, \\t, \\n and \\r.\n"
           "Exit status: 0 success, 1 usage error, 2 bad input.\n";
}

void setServerVerbs(const ServerVerbs &verbs)
{
    serverVerbs() = verbs;
}

bool wantsServer(const std::vector<std::string> &args)
{
    for (const std::string &s : args)
        if (s == "--url" || s.rfind("--url=", 0) == 0)
            return true;
    return false;
}

bool namesUrl(const std::vector<std::string> &args)
{
    if (wantsServer(args))
        return false;
    return std::any_of(args.begin(), args.end(), [](const std::string &a) {
        return QString::fromStdString(a).startsWith(QLatin1String("http://"), Qt::CaseInsensitive) ||
               QString::fromStdString(a).startsWith(QLatin1String("https://"), Qt::CaseInsensitive);
    });
}

bool verbRunsHere(const std::string &verb, const std::vector<std::string> &args)
{
    if (verbDraws(args) || (verb == "rounds" && roundsWantsWindow(args)))
        return false;
    const ServerVerbs &server = serverVerbs();
    if (namesUrl(args) && !server.fetch)
        return false;   // fetching needs QtNetwork: qflame-gui's
    return !(verb == "merge" || wantsServer(args)) || (server.top && server.diff && server.merge && server.rounds);
}

void leaveToProcessEnd(std::shared_ptr<const void> object)
{
    static auto *const kept = new std::vector<std::shared_ptr<const void>>;   // never destroyed, on purpose
    kept->push_back(std::move(object));
}

size_t chosenSampleType(const Profile &p, const std::optional<std::string> &spec)
{
    const int type = spec ? p.findSampleType(*spec) : p.effectiveDefaultType();
    if (type < 0 && spec)
        usageError(noSuchSampleType(p, *spec));
    if (type < 0)
        throw ProfileError(p.sourceName + ": the profile has no sample types");
    return size_t(type);
}

namespace {

const std::vector<std::string> &cliVerbs()
{
    static const std::vector<std::string> verbs = {"info", "top", "diff", "convert", "merge", "pgo", "rounds", "list", "graph", "disasm", "heatmap"};
    return verbs;
}

}   // namespace

bool isCliVerb(const std::string &word)
{
    const auto &verbs = cliVerbs();
    return std::find(verbs.begin(), verbs.end(), word) != verbs.end();
}

std::string cliVerbList()
{
    std::string out;
    for (const std::string &v : cliVerbs())
        out += (out.empty() ? "" : ", ") + v;
    return out;
}

int runCli(const std::string &verb, const std::vector<std::string> &givenArgs)
{
    try {
        const std::vector<std::string> args = takeTimeRangeOptions(verb, takeDemangleOption(takeProfileName(
            namesUrl(givenArgs) && serverVerbs().fetch ? serverVerbs().fetch(givenArgs) : givenArgs)));
        if (verb == "info")
            return runInfo(args);
        if (verb == "top")
            return runTop(args);
        if (verb == "diff")
            return wantsServer(args) ? runServerVerb(serverVerbs().diff, args) : runDiff(args);
        if (verb == "convert")
            return runConvert(args);
        if (verb == "merge")
            return runServerVerb(serverVerbs().merge, args);
        if (verb == "pgo")
            return runPgo(args);
        if (verb == "list")
            return runList(args);
        if (verb == "graph")
            return runGraph(args);
        if (verb == "disasm")
            return runDisasm(args);
        if (verb == "heatmap")
            return runHeatmap(args);
        if (verb == "rounds")
            return wantsServer(args) ? runServerVerb(serverVerbs().rounds, args) : runRounds(args);
        usageError("unknown verb " + verb);
    } catch (const CliExit &e) {
        return e.code;
    } catch (const FilterError &e) {   // a filter option that does not compile is a usage error
        std::cerr << "qflame: " << e.what() << "\n";
        return 1;
    } catch (const ProfileError &e) {
        std::cerr << "qflame: " << e.what() << "\n";
        return 2;
    } catch (const std::exception &e) {
        std::cerr << "qflame: " << e.what() << "\n";
        return 2;
    }
}

}   // namespace qflame
