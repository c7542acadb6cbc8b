// `qflame --help`, `qflame VERB --help` and the man page, written from the verb table (VerbTable.h): a verb or
// option the parser knows is one the help and the page describe.
#include "VerbGroups.h"
#include "VerbTable.h"

#include <algorithm>

namespace qflame {

namespace {

constexpr size_t kHelpColumn = 32;   // where descriptions start, as in the help before the table
constexpr size_t kWidth = 112;

// `text` wrapped to kWidth, every line indented by `indent` (the first line continuing `line`).
void wrap(std::string &out, std::string line, const std::string &text, size_t indent)
{
    if (line.size() + 1 > indent) {   // the description starts on its own line
        out += line + "\n";
        line.clear();
    }
    line.resize(indent, ' ');
    size_t pos = 0;
    bool first = true;
    while (pos < text.size()) {
        size_t end = text.find(' ', pos);
        if (end == std::string::npos)
            end = text.size();
        const std::string word = text.substr(pos, end - pos);
        if (!first && line.size() + 1 + word.size() > kWidth) {
            out += line + "\n";
            line = std::string(indent, ' ');
            first = true;
        }
        line += (first ? "" : " ") + word;
        first = false;
        pos = end + 1;
    }
    out += line + "\n";
}

std::string synopsisLine(const VerbSpec &v)
{
    std::string line = "qflame";
    if (*v.name)
        line += std::string(" ") + v.name;
    if (v.selector && std::string(v.synopsis).find(v.selector) == std::string::npos)
        line += std::string(" ") + v.selector;   // "top --url URL ...", where the synopsis starts after it
    return line + " " + v.synopsis;
}

// "qflame", "qflame top --url": a form's section in the page, as optionList names it.
std::string manTitle(const VerbSpec &v)
{
    return "qflame" + (v.title().empty() ? std::string() : " " + v.title());
}

std::string optionWords(const OptionSpec &o)
{
    return std::string(o.name) + (o.value ? std::string(" ") + o.value : std::string());
}

bool isCommon(const OptionSpec &o)
{
    const Options c = common();
    return o.forUrls || std::string(o.name) == "--max-size" ||
           std::any_of(c.begin(), c.end(), [&](const OptionSpec &s) { return std::string(s.name) == o.name; });
}

const char kTrailer[] =
    "FILE may be pprof, perf script output, folded stacks, Pyroscope flamebearer JSON, speedscope JSON or a\n"
    "Chrome/V8 .cpuprofile, raw or gzip/zstd compressed, told apart by content; '-' reads standard input; an\n"
    "http:// or https:// URL is fetched (go tool pprof's /debug/pprof/... endpoints, or any URL serving a\n"
    "profile).\n"
    "In --tsv output, names escape backslash, tab, newline and carriage return as \\\\, \\t, \\n and \\r.\n"
    "Exit status: 0 success, 1 usage error, 2 bad input.\n";

// roff: '-' is a hyphen unless escaped, '\' starts an escape, '.' and '\'' start a request at a line's start.
std::string roff(const std::string &text)
{
    std::string out;
    for (char c : text) {
        if (c == '\\')
            out += "\\e";
        else if (c == '-')
            out += "\\-";
        else if (c == '>' || c == '|')
            out += std::string(1, c) + "\\:";   // a place to break the long column lists ("a<TAB>b<TAB>...")
        else
            out += c;
    }
    if (!out.empty() && (out[0] == '.' || out[0] == '\''))
        out = "\\&" + out;
    return out;
}

std::string manSection(const VerbSpec &v)
{
    std::string out = ".SS \"" + roff(manTitle(v)) + "\"\n";
    out += "\\fB" + roff(synopsisLine(v)) + "\\fR\n.PP\n" + roff(v.summary) + ".\n";
    for (const OptionSpec &o : v.options) {
        out += ".TP\n\\fB" + roff(o.name) + "\\fR";
        if (o.value)
            out += " \\fI" + roff(o.value) + "\\fR";
        out += "\n" + roff(o.help) + (o.repeats ? " (may be given more than once)" : "") + ".\n";
    }
    return out;
}

}   // namespace

std::string mainHelp()
{
    std::string out = "Usage:\n";
    for (const VerbSpec &v : verbTable()) {
        wrap(out, "  " + synopsisLine(v), v.summary, kHelpColumn);
        std::string names;
        for (const OptionSpec &o : v.options)
            if (!isCommon(o) && (!v.selector || std::string(o.name) != v.selector))
                names += (names.empty() ? "" : " ") + ("[" + optionWords(o) + "]");
        if (!names.empty() && v.needs != VerbNeeds::Window)
            wrap(out, std::string(), names, kHelpColumn);
    }
    out += "Common options (every verb that reads files):\n";
    Options shared = common();
    shared.insert(shared.begin(), kMaxSize);
    for (const OptionSpec &o : shared)
        wrap(out, "  " + optionWords(o), o.help, kHelpColumn);
    out += "  --help, --version\n";
    out += "Run 'qflame VERB --help' for what each option of VERB does.\n";
    return out + kTrailer;
}

std::string verbHelp(const std::string &verb)
{
    std::string out;
    for (const VerbSpec &v : verbTable()) {
        if (verb != v.name)
            continue;
        out += (out.empty() ? "Usage:\n" : "\n");
        wrap(out, "  " + synopsisLine(v), v.summary, kHelpColumn);
        for (const OptionSpec &o : v.options)
            wrap(out, "    " + optionWords(o), std::string(o.help) + (o.repeats ? " (may be repeated)" : ""),
                 kHelpColumn);
    }
    return out + kTrailer;
}

std::string manPage(const std::string &templateText)
{
    std::string synopsis, commands, shared;
    for (const VerbSpec &v : verbTable()) {
        synopsis += "\\fB" + roff(synopsisLine(v)) + "\\fR\n.br\n";
        commands += manSection(v);
    }
    Options common = qflame::common();
    common.insert(common.begin(), kMaxSize);
    const Options urls = fetching();
    common.insert(common.end(), urls.begin(), urls.end());
    for (const OptionSpec &o : common) {
        shared += ".TP\n\\fB" + roff(o.name) + "\\fR";
        if (o.value)
            shared += " \\fI" + roff(o.value) + "\\fR";
        shared += "\n" + roff(o.help) + ".\n";
    }
    std::string out;
    size_t pos = 0;
    while (pos < templateText.size()) {
        size_t end = templateText.find('\n', pos);
        if (end == std::string::npos)
            end = templateText.size();
        const std::string line = templateText.substr(pos, end - pos);
        if (line == "@SYNOPSIS@")
            out += synopsis;
        else if (line == "@COMMANDS@")
            out += ".ad l\n" + commands + ".ad b\n";   // left-aligned: the column lists are long words
        else if (line == "@COMMON@")
            out += shared;
        else
            out += line + "\n";
        pos = end + 1;
    }
    return out;
}

std::string optionList()
{
    std::string out;
    for (const VerbSpec &v : verbTable()) {
        const std::string title = manTitle(v);
        for (const OptionSpec &o : v.options)
            out += title + "\t" + o.name + "\n";
    }
    return out;
}

}   // namespace qflame
