// The one option parser of the verbs (VerbTable.h): every verb reads "--x v" and "--x=v" alike.
#include "VerbTable.h"

#include "Cli.h"

#include <algorithm>
#include <cstring>
#include <iostream>

namespace qflame {

const OptionSpec *VerbSpec::option(const std::string &name) const
{
    for (const OptionSpec &o : options)
        if (name == o.name)
            return &o;
    return nullptr;
}

std::string VerbSpec::title() const
{
    std::string t = name;
    if (selector)
        t += (t.empty() ? "" : " ") + std::string(selector);
    return t;
}

bool ParsedArgs::has(const std::string &option) const
{
    return std::any_of(items.begin(), items.end(), [&](const Item &i) { return i.option == option; });
}

std::optional<std::string> ParsedArgs::value(const std::string &option) const
{
    for (auto it = items.rbegin(); it != items.rend(); ++it)
        if (it->option == option)
            return it->value;
    return std::nullopt;
}

std::vector<std::string> ParsedArgs::values(const std::string &option) const
{
    std::vector<std::string> out;
    for (const Item &i : items)
        if (i.option == option)
            out.push_back(i.value);
    return out;
}

std::vector<std::string> ParsedArgs::positional() const
{
    return values(std::string());
}

std::vector<std::string> ParsedArgs::words() const
{
    std::vector<std::string> out;
    bool ended = false;   // a positional that looks like an option goes after "--"
    for (const Item &i : items) {
        if (i.option.empty()) {
            if (!ended && i.value.size() > 1 && i.value[0] == '-') {
                out.push_back("--");
                ended = true;
            }
            out.push_back(i.value);
            continue;
        }
        out.push_back(i.option);
        const OptionSpec *spec = verb ? verb->option(i.option) : nullptr;
        if (spec && spec->value)
            out.push_back(i.value);
    }
    return out;
}

namespace {

bool namesOption(const std::string &arg, const char *option)
{
    const size_t n = std::strlen(option);
    return arg.compare(0, n, option) == 0 && (arg.size() == n || arg[n] == '=');
}

}   // namespace

const VerbSpec *verbForm(const std::string &verb, const std::vector<std::string> &args)
{
    // A server's --url first (`diff --url ... --graph` is no graph of files), then the table's order.
    const VerbSpec *plain = nullptr, *chosen = nullptr, *first = nullptr;
    for (const VerbSpec &v : verbTable()) {
        if (verb != v.name)
            continue;
        first = first ? first : &v;
        if (!v.selector) {
            plain = plain ? plain : &v;
            continue;
        }
        bool given = false;
        for (const std::string &a : args) {
            if (a == "--")
                break;   // what follows is files, whatever it looks like
            given = given || namesOption(a, v.selector);
        }
        if (given && (!chosen || std::strcmp(v.selector, "--url") == 0))
            chosen = &v;
    }
    // A verb that has only a selector's form (merge --url) is that form without it too: it says what is missing.
    return chosen ? chosen : plain ? plain : first;
}

std::optional<ParsedArgs> parseVerbArgs(const VerbSpec &spec, const std::vector<std::string> &args,
                                        std::string *error)
{
    ParsedArgs parsed;
    parsed.verb = &spec;
    bool optionsEnded = false;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string &s = args[i];
        const bool looksLikeOption = !optionsEnded && s.size() > 1 && s[0] == '-';
        if (looksLikeOption && s == "--") {
            optionsEnded = true;
            continue;
        }
        if (!looksLikeOption) {
            parsed.items.push_back({std::string(), s});
            continue;
        }
        // "--name=value"; a short option ("-r NAME") takes its value apart only.
        const size_t eq = s.rfind("--", 0) == 0 ? s.find('=') : std::string::npos;
        const std::string name = s.substr(0, eq);
        const OptionSpec *option = spec.option(name);
        if (!option && spec.regexFirst && parsed.positional().empty()) {
            parsed.items.push_back({std::string(), s});   // the regex, which may begin with '-'
            continue;
        }
        if (!option) {
            *error = "unknown option " + name;
            return std::nullopt;
        }
        if (!option->value) {
            if (eq != std::string::npos) {
                *error = "option " + name + " takes no value";
                return std::nullopt;
            }
            parsed.items.push_back({name, std::string()});
            continue;
        }
        if (eq != std::string::npos) {
            parsed.items.push_back({name, s.substr(eq + 1)});
        } else if (i + 1 < args.size()) {
            parsed.items.push_back({name, args[++i]});
        } else {
            *error = "option " + name + " needs a value";
            return std::nullopt;
        }
    }
    return parsed;
}

ParsedArgs parseVerbArgsOrExit(const VerbSpec &spec, const std::vector<std::string> &args)
{
    std::string error;
    if (std::optional<ParsedArgs> parsed = parseVerbArgs(spec, args, &error))
        return std::move(*parsed);
    // One line that says what is wrong, then where the verb's own options are listed.
    std::cerr << "qflame: " << error << "\nRun 'qflame " << (*spec.name ? spec.name : "")
              << (*spec.name ? " " : "") << "--help' for " << (*spec.name ? spec.name : "the window")
              << "'s options.\n";
    throw CliExit{1};
}

}   // namespace qflame
