// The headless verbs: `qflame info FILE`, `qflame top FILE`. They use the model only, so what the tests prove
// for them holds for the window too.
#include "Cli.h"

#include "CliDiff.h"
#include "CliFetch.h"
#include "CliFormats.h"
#include "CliList.h"
#include "CliPgo.h"
#include "CliQryn.h"
#include "CliRounds.h"
#include "export/TableCsv.h"
#include "formats/ProfileInput.h"
#include "names/Demangle.h"
#include "pprof/Units.h"
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
    bool tsv = false, csv = false;
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
        else if (std::string *filter = allowTsv ? filterOption(a.filters, s) : nullptr) {
            std::optional<std::string> v;
            value(v);
            *filter = *v;
        } else if (allowTsv && s == "--collapse-recursion")
            a.filters.collapseRecursion = true;
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


std::string formatTime(int64_t nanos)
{
    if (nanos == 0)
        return "-";
    return QDateTime::fromMSecsSinceEpoch(nanos / 1000000, Qt::UTC)
        .toString(Qt::ISODateWithMs)
        .toStdString();
}

int runInfo(const std::vector<std::string> &argv)
{
    const Args a = parseArgs(argv, false);
    if (a.positional.size() != 1)
        usageError("info takes exactly one FILE");
    auto p = readProfileFile(QString::fromStdString(a.positional[0]), readOptions(a));
    leaveToProcessEnd(p);
    std::cout << "File: " << p->sourceName << "\n";
    std::cout << "Sample types:\n";
    const int dflt = p->effectiveDefaultType();
    for (size_t i = 0; i < p->sampleTypes.size(); ++i) {
        std::cout << "  " << i << "  " << p->typeName(i) << "/" << p->unitName(i)
                  << (int(i) == dflt ? "  [default]" : "") << "  total " << p->total(i) << " ("
                  << formatValue(double(p->total(i)), p->unitName(i)) << ")\n";
    }
    std::cout << "Samples: " << p->fileSampleCount() << "\n";
    std::cout << "Locations: " << p->locations.size() << "\n";
    std::cout << "Functions: " << p->functions.size() << "\n";
    std::cout << "Mappings: " << p->mappings.size() << "\n";
    std::cout << "Period: " << p->period << " " << p->str(p->periodType.type) << "/" << p->str(p->periodType.unit)
              << "\n";
    std::cout << "Time: " << formatTime(p->timeNanos) << "\n";
    std::cout << "Duration: " << p->durationNanos << " ns (" << formatValue(double(p->durationNanos), "nanoseconds")
              << ")\n";
    if (p->dropFrames)
        std::cout << "Drop frames: " << p->str(p->dropFrames) << "\n";
    if (p->keepFrames)
        std::cout << "Keep frames: " << p->str(p->keepFrames) << "\n";
    for (uint32_t c : p->comments)
        std::cout << "Comment: " << p->str(c) << "\n";
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
    int type = first.effectiveDefaultType();
    if (a.sample) {
        type = first.findSampleType(*a.sample);
        if (type < 0) {
            std::string known;
            for (size_t i = 0; i < first.sampleTypes.size(); ++i)
                known += (i ? ", " : "") + first.typeName(i) + "/" + first.unitName(i);
            usageError("no sample type '" + *a.sample + "' in " + first.sourceName + " (it has: " + known + ")");
        }
    }
    if (type < 0)
        throw ProfileError(first.sourceName + ": the profile has no sample types");
    // Straight from the samples: the table needs no tree (the GUI builds one; tst_corpusoracle checks both).
    const auto table = FlatTable::compute(profiles, size_t(type), build);
    for (auto &p : profiles)
        leaveToProcessEnd(std::move(p));
    leaveToProcessEnd(table);
    return printTop(*table, limit, a.tsv, a.csv);
}

}   // namespace

int printTop(const FlatTable &flatTable, std::optional<uint64_t> limit, bool tsv, bool csv)
{
    const FlatTable *table = &flatTable;
    const std::string unit = table->tree().sampleType().unit;
    const size_t n = limit ? std::min<size_t>(*limit, table->rows().size()) : table->rows().size();
    if (csv) {
        std::cout << flatTableCsv(*table, n);
        return 0;
    }
    if (tsv) {
        for (size_t i = 0; i < n; ++i) {
            const FlatRow &r = table->rows()[i];
            std::cout << r.flat << '\t' << r.cum << '\t' << escapeField(table->displayName(r)) << '\n';
        }
        return 0;
    }
    const double total = double(table->total());
    std::cout << "Type: " << table->tree().sampleType().type << "/" << unit << "  total "
              << formatValue(total, unit) << "  (" << table->rows().size() << " functions"
              << (n < table->rows().size() ? ", showing " + std::to_string(n) : std::string()) << ")\n";
    // Each row is put together in one buffer and written in large pieces: with tens of thousands of rows,
    // formatting through printf and a stream write per field were a third of the command's time.
    std::string out;
    auto field = [&out](const std::string &text, size_t width) {   // right-aligned like printf's %12s (bytes)
        if (text.size() < width)
            out.append(width - text.size(), ' ');
        out += text;
    };
    field("flat", 12), field(" flat%", 8), field(" sum%", 8), field(" cum", 13), field(" cum%", 8);
    out += "  name\n";
    // Rows come in value order, so neighbours mostly share their flat and cum (on a profile of 23,000 functions
    // nearly all rows have flat 0 and one of a few cums): each column is formatted again only when its value
    // changes (formatting was most of the printing there).
    double sum = 0;
    struct Column {
        double value = std::numeric_limits<double>::quiet_NaN();   // of the text below; NaN: none yet
        std::string text;
    } flatValue, flatShare, sumShare, cumValue, cumShare;
    auto column = [](Column &c, double value, size_t width, auto format) -> const std::string & {
        if (!(c.value == value)) {
            c.value = value;
            c.text.clear();
            const std::string text = format(value);
            if (text.size() < width)
                c.text.append(width - text.size(), ' ');
            c.text += text;
        }
        return c.text;
    };
    auto asValue = [&unit](double v) { return formatValue(v, unit); };
    auto asShare = [total](double v) { return formatPercent(v, total); };
    for (size_t i = 0; i < n; ++i) {
        const FlatRow &r = table->rows()[i];
        sum += double(r.flat);
        out += column(flatValue, double(r.flat), 12, asValue);
        out += ' ', out += column(flatShare, double(r.flat), 7, asShare);
        out += ' ', out += column(sumShare, sum, 7, asShare);
        out += ' ', out += column(cumValue, double(r.cum), 12, asValue);
        out += ' ', out += column(cumShare, double(r.cum), 7, asShare);
        out += "  ";
        if (i + 16 < n)   // the label bytes of a row a little ahead: rows in value order are scattered in memory
            __builtin_prefetch(table->label(i + 16).data());
        appendEscaped(out, table->label(i));
        out += FlatTable::inlineSuffix(r.inlined);
        out += '\n';
        if (out.size() > (1 << 16) || i + 1 == n) {
            std::cout.write(out.data(), std::streamsize(out.size()));
            out.clear();
        }
    }
    if (!out.empty())
        std::cout.write(out.data(), std::streamsize(out.size()));
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
DemangleMode &cliDemangleMode()
{
    static DemangleMode mode = DemangleMode::Simple;   // pprof's default
    return mode;
}

bool &cliCollapseTemplates()
{
    static bool collapse = false;
    return collapse;
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
            cliCollapseTemplates() = true;
        else if (!takeOption(argv, i, "--demangle", value))
            rest.push_back(argv[i]);
    }
    if (value) {
        const auto mode = parseDemangleMode(*value);
        if (!mode)
            usageError("--demangle must be none, simple, templates or full, not '" + *value + "'");
        cliDemangleMode() = *mode;
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
    ReadOptions o;
    o.demangle = cliDemangleMode();
    o.collapseTemplates = cliCollapseTemplates();
    o.profileName = profileNameOption();
    o.warning = [](const std::string &message) { std::cerr << "qflame: warning: " << message << "\n"; };
    if (maxSizeMiB) {
        const auto mib = parseCount(*maxSizeMiB);
        if (!mib || *mib == 0 || *mib > (uint64_t(1) << 40))
            usageError("--max-size takes a size in MiB, not '" + *maxSizeMiB + "'");
        o.maxDecompressedBytes = *mib << 20;
    }
    return o;
}

namespace {

// Whether some of the 8 bytes in w is a backslash or below 0x10 (where tab, newline and carriage return are):
// names almost never hold either, so the scan looks at 8 bytes a step. A byte-by-byte scan was two thirds of
// printing pprof__large.cpu's 23,038 rows.
bool mayNeedEscaping(uint64_t w)
{
    constexpr uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    const uint64_t backslashes = w ^ (ones * uint8_t('\\'));   // zero bytes where w has a backslash
    return (((backslashes - ones) & ~backslashes) | ((w - ones * 0x10) & ~w)) & highs;
}

const char *escapeOf(char c)
{
    return c == '\\' ? "\\\\" : c == '\t' ? "\\t" : c == '\n' ? "\\n" : c == '\r' ? "\\r" : nullptr;
}

}   // namespace

void appendEscaped(std::string &out, std::string_view s)
{
    size_t plain = 0;   // copied in runs
    for (size_t i = 0; i < s.size();) {
        if (i + 8 <= s.size()) {
            uint64_t w;
            std::memcpy(&w, s.data() + i, 8);
            if (!mayNeedEscaping(w)) {
                i += 8;
                continue;
            }
        }
        for (const size_t stop = std::min(i + 8, s.size()); i < stop; ++i) {
            if (const char *escaped = escapeOf(s[i])) {
                out.append(s.substr(plain, i - plain));
                out += escaped;
                plain = i + 1;
            }
        }
    }
    out.append(s.substr(plain));
}

std::string escapeField(const std::string &s)
{
    std::string out;
    appendEscaped(out, s);
    return out;
}

const char *cliUsage()
{
    return "Usage:\n"
           "  qflame [FILE]                 open the window (on FILE, if given)\n"
           QFLAME_EXPLORER_USAGE
           "  qflame --time-to-paint FILE [NEW]\n"
           "                                open the window on FILE (or the comparison), print 'first paint: N ms'\n"
           "                                (from the process's start to the first painted flamegraph) and exit\n"
           "  qflame info FILE              sample types, counts, period, time, duration, totals\n"
           "  qflame top FILE... [--sample TYPE|INDEX] [--granularity functions|lines|addresses]\n"
           "                     [--limit N] [--tsv|--csv]\n"
           "                     [--focus RE] [--ignore RE] [--hide RE] [--show RE] [--tagfocus F]\n"
           "                     [--tagignore F] [--collapse-recursion]\n"
           "                                flat/cum table per function; several FILEs are merged;\n"
           "                                --tsv prints exact integers: flat<TAB>cum<TAB>name\n"
           "                                --csv: flat,flat_percent,sum_percent,cum,cum_percent,name\n"
           "                                --focus/--ignore/--hide/--show/--tagfocus/--tagignore: pprof's\n"
           "                                sample filters, same syntax and meaning (see docs/filters.md);\n"
           "                                --collapse-recursion folds direct self-calls (flat/cum unchanged)\n"
           "                                (with filters, percentages are of what they keep)\n"
           "  qflame diff BASE NEW [--sample TYPE|INDEX] [--granularity functions|lines|addresses]\n"
           "                     [--normalize none|per-second|total|FACTOR] [--noise K] [--tsv|--csv]\n"
           "                     [--png FILE] [--svg FILE]\n"
           "  qflame diff BASE NEW --inlining [--sample TYPE|INDEX] [--tsv]\n"           "  qflame diff BASE NEW --list REGEX [--sample TYPE|INDEX] [--noise K] [--source-path DIRS]\n"
           "                     [--trim-path P] [--tsv]\n"
           "                                per-function change from BASE to NEW (delta = NEW - BASE);\n"
           "                                --normalize: none (default, absolute), per-second (each side\n"
           "                                by its duration), total (NEW scaled to BASE's total: the share\n"
           "                                view), FACTOR (NEW multiplied by it); --noise K: a delta under\n"
           "                                K Poisson standard errors is 'noise' (default 2, 0 off);\n"
           "                                --tsv: before_flat after_flat delta_flat before_cum after_cum\n"
           "                                delta_cum class name, sorted by |delta_cum|; --csv: the same\n"
           "                                columns as CSV; --png/--svg: the\n"
           "                                diff flamegraph as a picture (works without a display)\n"
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
           "                     [--granularity functions|lines|addresses]\n"
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
           "                     [--trim-path PREFIXES] [--tsv]\n"
           "                                the cost of every source line of the functions REGEX matches, as\n"
           "                                go tool pprof -list prints it (several FILEs are merged); sources are\n"
           "                                found as pprof finds them (--source-path DIR[:DIR], default the\n"
           "                                working directory and its parents; --trim-path cuts prefixes), then\n"
           "                                in GOROOT and the Go module cache;\n"
           "                                --tsv: function<TAB>file<TAB>line<TAB>flat<TAB>cum<TAB>text, file\n"
           "                                the one read, exact integers\n"
           "  qflame pgo FILE... [--threshold P] [--tsv | --preprofile OUT]\n"
           "                                the call edges go build -pgo builds from CPU profiles (the last two\n"
           "                                frames of each sample; several FILEs are merged): readiness lines\n"
           "                                (ok|warning|error: CHECK: message), then rank, caller, callee,\n"
           "                                offset, weight, share, cumulative share, hot (the heaviest edges up\n"
           "                                to the first past P% of the weight, default 99), then call sites\n"
           "                                with several callees (devirtualisation candidates);\n"
           "                                --tsv: caller<TAB>callee<TAB>offset<TAB>weight<TAB>hot(1|0);\n"
           "                                --preprofile: go tool preprofile's text to OUT ('-': stdout)\n"
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

namespace {

const std::vector<std::string> &cliVerbs()
{
    static const std::vector<std::string> verbs = {"info", "top", "diff", "convert", "merge", "pgo", "rounds", "list"};
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
        const std::vector<std::string> args = takeDemangleOption(takeProfileName(
            namesUrl(givenArgs) && serverVerbs().fetch ? serverVerbs().fetch(givenArgs) : givenArgs));
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
