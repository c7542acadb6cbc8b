// The one table of the command line: every verb (and each of its forms, such as `diff --graph` or `top --url`),
// its synopsis, summary and options, what it needs (a display, a server) and the function that runs it. One
// parser reads every verb's arguments from it, `--help`, `qflame VERB --help` and the man page are written from
// it (VerbHelp.cpp), and the choice between `qflame` and `qflame-gui` is made from it (Cli.cpp's verbRunsHere),
// so that none of these can disagree with another.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace qflame {

struct ParsedArgs;

struct OptionSpec {
    const char *name;    // "--sample", or a short one ("-r", "-o")
    const char *value;   // "TYPE|INDEX"; nullptr: a flag, which takes no value
    const char *help;    // one or more sentences, for --help and the man page
    bool repeats = false;   // may be given more than once (each value kept, in order); else the last one wins
    bool draws = false;     // a picture: the verb needs qflame-gui's painting (diff --png)
    bool output = false;    // one of the verb's output options: rounds without one opens the window
    bool forUrls = false;   // how to fetch URL FILEs: only with an http(s) FILE (qflame-gui fetches)
};

enum class VerbNeeds {
    Files,    // runs in `qflame`: without Qt (info, top) or in its libqflame-cli.so, on QtCore
    Server,   // asks a server (QtNetwork): run by qflame-gui, which registers its run function
    Window,   // the window's own command line (documentation only: main.cpp opens the window)
};

using VerbRun = int (*)(const ParsedArgs &args);

struct VerbSpec {
    const char *name;       // "diff"; "" for the window's forms
    const char *selector;   // the option that picks this form among the verb's ("--graph"), or nullptr
    const char *synopsis;   // after "qflame NAME "
    const char *summary;    // what it does, for --help and the man page
    std::vector<OptionSpec> options;
    VerbNeeds needs = VerbNeeds::Files;
    VerbRun run = nullptr;        // registered (setVerbRun): the table links no verb's code (Cli.h)
    bool regexFirst = false;      // the first positional is a regex, which may begin with '-'
    bool windowWithoutOutput = false;   // without one of its output options it opens the window (rounds)

    const OptionSpec *option(const std::string &name) const;
    std::string title() const;   // "diff --graph", "top --url", "info"
};

// What the parser made of a verb's arguments: options and positionals in the order given.
struct ParsedArgs {
    struct Item {
        std::string option;   // "" for a positional
        std::string value;    // the option's value ("" for a flag), or the positional
    };
    const VerbSpec *verb = nullptr;
    std::vector<Item> items;

    bool has(const std::string &option) const;
    std::optional<std::string> value(const std::string &option) const;   // the last one given
    std::vector<std::string> values(const std::string &option) const;    // all, in order
    std::vector<std::string> positional() const;
    // The arguments as given (each option as "--name" "value"), for the verbs that hand them on.
    std::vector<std::string> words() const;
};

// Every form of every verb, in the order of --help.
const std::vector<VerbSpec> &verbTable();
// The verbs, once each, in table order.
std::vector<std::string> verbNames();
// The form of `verb` these arguments choose (its selector option among them, else the form without one);
// nullptr when there is no such verb.
const VerbSpec *verbForm(const std::string &verb, const std::vector<std::string> &args);
// Registers qflame-gui's run function of a server form ("top", "--url").
void setVerbRun(const std::string &verb, const char *selector, VerbRun run);

// Reads `args` by `spec`: "--x v" and "--x=v" alike, flags without a value, "--" ends the options. Returns the
// one-line message of the first problem in `error` (an unknown option, a missing value) and nothing then.
std::optional<ParsedArgs> parseVerbArgs(const VerbSpec &spec, const std::vector<std::string> &args,
                                        std::string *error);
// The same; a problem is a usage error (exit 1, naming the verb's --help).
ParsedArgs parseVerbArgsOrExit(const VerbSpec &spec, const std::vector<std::string> &args);

// Written from the table (VerbHelp.cpp).
std::string mainHelp();
std::string verbHelp(const std::string &verb);
// The man page: `templateText` with its "@SYNOPSIS@", "@COMMANDS@" and "@COMMON@" lines replaced.
std::string manPage(const std::string &templateText);
// "FORM<TAB>OPTION" per option of every form (packaging/check-man.sh checks the man page against it).
std::string optionList();

}   // namespace qflame
