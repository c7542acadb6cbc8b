// The headless verbs: `qflame info FILE`, `qflame top FILE`. They use the model only, so what the tests prove
// for them holds for the window too.
#include "Cli.h"

#include "CliTimeRange.h"
#include "CliVerbs.h"
#include "VerbTable.h"
#include "export/TableCsv.h"
#include "formats/ProfileInput.h"
#include "io/PhaseTrace.h"
#include "names/Demangle.h"
#include "names/NameOptions.h"
#include "pprof/SampleTypes.h"
#include "pprof/Units.h"
#include "report/InfoReport.h"
#include "report/TopReport.h"
#include "tree/CallTreeBuilder.h"
#include "tree/FlatTable.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <limits>
#include <optional>
#include <string>

#include <strings.h>

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace qflame {

int runInfo(const ParsedArgs &a)
{
    const std::vector<std::string> files = a.positional();
    if (files.size() != 1)
        usageError("info takes exactly one FILE");
    auto p = readProfileFile(files[0], readOptionsFor(a.value("--max-size")));
    leaveToProcessEnd(p);
    if (a.has("--json"))
        writeToStdout(infoJson(*p));
    else
        writeInfoText(*p, writeToStdout);
    return 0;
}

int runTop(const ParsedArgs &a)
{
    const std::vector<std::string> files = a.positional();
    if (files.empty())
        usageError("top takes one or more FILEs (several are merged)");
    BuildOptions build;
    const std::optional<std::string> granularity = a.value("--granularity"), limitText = a.value("--limit");
    if (granularity && !parseGranularity(*granularity, &build.granularity))
        usageError("--granularity must be functions, lines or addresses, not '" + *granularity + "'");
    build.filters = sampleFiltersFrom(a);
    std::optional<uint64_t> limit;
    if (limitText && !(limit = parseCount(*limitText)))
        usageError("--limit takes a whole number, not '" + *limitText + "'");
    ReadOptions ro = readOptionsFor(a.value("--max-size"));
    // The table looks at labels only through tag filters and label frames, and a time range at their times.
    ro.sampleLabels = build.filters.readsLabels() || !ro.timeFrom.empty() || !ro.timeTo.empty();
    std::vector<std::shared_ptr<const Profile>> profiles;
    for (const std::string &f : files)
        profiles.push_back(readProfileFile(f, ro));
    tracePhase("read");
    const Profile &first = *profiles.front();
    const size_t type = chosenSampleType(first, a.value("--sample"));
    // Straight from the samples: the table needs no tree (the GUI builds one; tst_corpusoracle checks both).
    const auto table = FlatTable::compute(profiles, type, build);
    tracePhase("table");
    for (auto &p : profiles)
        leaveToProcessEnd(std::move(p));
    leaveToProcessEnd(table);
    const int status = printTop(*table, limit, a.has("--tsv"), a.has("--csv"), a.has("--json"));
    tracePhase("printed");
    return status;
}

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

SampleFilters sampleFiltersFrom(const ParsedArgs &a)
{
    SampleFilters f;
    for (auto [name, slot] : {std::pair{"--focus", &f.focus}, {"--ignore", &f.ignore}, {"--hide", &f.hide},
                              {"--show", &f.show}, {"--tagfocus", &f.tagFocus}, {"--tagignore", &f.tagIgnore},
                              {"--tagroot", &f.tagRoot}, {"--tagleaf", &f.tagLeaf}})
        if (const std::optional<std::string> v = a.value(name))
            *slot = *v;
    f.collapseRecursion = a.has("--collapse-recursion");
    f.inverted = a.has("--inverted");
    return f;
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

// --demangle and --collapse-templates are common to every verb that reads profiles (the verb table gives every
// verb them; applyCommonOptions keeps them), and every verb's read options (readOptionsFor) carry them.
NameOptions &cliNameOptions()
{
    static NameOptions names;   // pprof's defaults, as the window's
    return names;
}

// `--profile NAME`, for every verb that reads files (kept by applyCommonOptions).
std::string &profileNameOption()
{
    static std::string name;
    return name;
}

}   // namespace

// --demangle, --collapse-templates, --profile and (for the verbs that read sample times) --from/--to apply to every
// profile the verb reads: kept here for readOptionsFor.
void applyCommonOptions(const ParsedArgs &a)
{
    cliNameOptions().collapseTemplates = a.has("--collapse-templates");
    if (const std::optional<std::string> value = a.value("--demangle")) {
        const auto mode = parseDemangleMode(*value);
        if (!mode)
            usageError("--demangle must be none, simple, templates or full, not '" + *value + "'");
        cliNameOptions().demangle = *mode;
    }
    profileNameOption() = a.value("--profile").value_or(std::string());
    if (a.verb->needs == VerbNeeds::Files)
        setCliTimeRange(a);
}

ReadOptions readOptionsFor(const std::optional<std::string> &maxSizeMiB)
{
    ReadOptions o = cliNameOptions().appliedTo({});
    o.profileName = profileNameOption();
    o.timeFrom = cliTimeFrom(), o.timeTo = cliTimeTo();
    o.warning = [](const std::string &message) { std::cerr << "qflame: warning: " << message << "\n"; };
    if (maxSizeMiB) {
        const std::optional<uint64_t> bytes = maxSizeBytes(*maxSizeMiB);
        if (!bytes)
            usageError("--max-size takes a size in MiB, not '" + *maxSizeMiB + "'");
        o.maxDecompressedBytes = *bytes;
    }
    return o;
}

std::optional<uint64_t> maxSizeBytes(const std::string &mib)
{
    const std::optional<uint64_t> count = parseCount(mib);
    if (!count || *count == 0 || *count > (uint64_t(1) << 40))
        return std::nullopt;
    return *count << 20;
}

void writeToStdout(std::string_view text)
{
    std::cout.write(text.data(), std::streamsize(text.size()));
}

namespace {

using FetchHook = void (*)(const ParsedArgs &args);

FetchHook &fetchHook()
{
    static FetchHook hook = nullptr;
    return hook;
}

bool isUrl(const std::string &word)
{
    return strncasecmp(word.c_str(), "http://", 7) == 0 || strncasecmp(word.c_str(), "https://", 8) == 0;
}

// A form's arguments read leniently, for choosing the program: a problem is reported by the verb itself.
std::optional<ParsedArgs> parsedForChoice(const std::string &verb, const std::vector<std::string> &args)
{
    const VerbSpec *form = verbForm(verb, args);
    std::string error;
    return form ? parseVerbArgs(*form, args, &error) : std::nullopt;
}

bool wantsHelp(const std::vector<std::string> &args)
{
    for (const std::string &a : args) {
        if (a == "--")
            return false;
        if (a == "--help" || a == "-h")
            return true;
    }
    return false;
}

}   // namespace

void setServerVerbs(const ServerVerbs &verbs)
{
    setVerbRun("top", "--url", verbs.top);
    setVerbRun("diff", "--url", verbs.diff);
    setVerbRun("merge", "--url", verbs.merge);
    setVerbRun("rounds", "--url", verbs.rounds);
    fetchHook() = verbs.fetch;
}

bool namesUrl(const ParsedArgs &args)
{
    if (args.verb && args.verb->needs != VerbNeeds::Files)
        return false;
    const std::vector<std::string> files = args.positional();
    return std::any_of(files.begin(), files.end(), isUrl);
}

bool roundsWantsWindow(const std::vector<std::string> &args)
{
    const std::optional<ParsedArgs> parsed = parsedForChoice("rounds", args);
    if (!parsed)
        return false;   // the verb reports what is wrong
    if (!parsed->verb->windowWithoutOutput)
        return false;   // rounds --graph prints or draws, as diff --graph
    for (const ParsedArgs::Item &item : parsed->items)
        if (const OptionSpec *o = item.option.empty() ? nullptr : parsed->verb->option(item.option); o && o->output)
            return false;
    return true;
}

bool verbRunsHere(const std::string &verb, const std::vector<std::string> &args)
{
    const VerbSpec *form = verbForm(verb, args);
    if (!form || wantsHelp(args))
        return true;
    if (form->needs == VerbNeeds::Server && !form->run)
        return false;   // asking a server needs QtNetwork: qflame-gui's
    const std::optional<ParsedArgs> parsed = parsedForChoice(verb, args);
    if (!parsed)
        return true;   // the verb reports what is wrong, here
    for (const ParsedArgs::Item &item : parsed->items)
        if (const OptionSpec *o = item.option.empty() ? nullptr : form->option(item.option); o && o->draws)
            return false;   // pictures are painted by qflame-gui
    if (form->windowWithoutOutput && roundsWantsWindow(args))
        return false;
    return !(namesUrl(*parsed) && !fetchHook());   // fetching needs QtNetwork too
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

bool isCliVerb(const std::string &word)
{
    const std::vector<std::string> verbs = verbNames();
    return std::find(verbs.begin(), verbs.end(), word) != verbs.end();
}

std::string cliVerbList()
{
    std::string out;
    for (const std::string &v : verbNames())
        out += (out.empty() ? "" : ", ") + v;
    return out;
}

void registerCoreVerbs()
{
    setVerbRun("info", nullptr, runInfo);
    setVerbRun("top", nullptr, runTop);
}

bool hasVerbRun(const std::string &verb, const std::vector<std::string> &args)
{
    const VerbSpec *form = verbForm(verb, args);
    return form && form->run;
}

void keepVerbHeap()
{
#ifdef __GLIBC__
    // Blocks from 128 KB up were mapped and unmapped one by one (glibc's default), so every growing array and
    // every temporary buffer touched fresh pages: 1,700 of the 15,300 page faults of `qflame top` on r2048,
    // 6% of its time. A verb's process is short; its heap keeps what it frees for the next block instead.
    mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);   // glibc's maximum on 64-bit systems
#endif
}

void endVerbProcess(int status)
{
    // The output is complete; what is left is tearing down (the application object, the libraries' static
    // objects, everything leaveToProcessEnd kept), which the process's end does at once: 6-11 ms of `qflame
    // top` on the two profiles benchmarked closest to zcat (docs/benchmarks.md). Files the verb wrote are
    // closed by then: they belong to the verb's scope. Output lost to a full disk must not pass for success
    // (a verb that failed has said why already).
    std::cout.flush();
    const bool written = std::cout.good() && std::fflush(stdout) == 0 && !std::ferror(stdout);
    if (!written && status == 0)
        std::cerr << "qflame: cannot write the output: " << std::strerror(errno) << "\n";
    std::fflush(nullptr);
    std::_Exit(!written && status == 0 ? 2 : status);
}

int runCli(const std::string &verb, const std::vector<std::string> &args)
{
    try {
        const VerbSpec *form = verbForm(verb, args);
        if (!form)
            usageError("unknown verb " + verb);
        if (wantsHelp(args)) {
            std::cout << verbHelp(verb);
            return 0;
        }
        const ParsedArgs parsed = parseVerbArgsOrExit(*form, args);
        if (!form->run)   // reached only where qflame-gui did not register it (runHeadless hands it over)
            throw ProfileError("this program cannot ask a server; qflame-gui can");
        const bool urls = namesUrl(parsed);
        for (const ParsedArgs::Item &item : parsed.items)
            if (const OptionSpec *o = item.option.empty() ? nullptr : form->option(item.option); o && o->forUrls && !urls)
                usageError(item.option + " says how to fetch URL FILEs (http://, https://), and no FILE is one");
        if (urls && fetchHook())
            fetchHook()(parsed);
        applyCommonOptions(parsed);
        return form->run(parsed);
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
