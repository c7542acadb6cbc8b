#include "CliTimeRange.h"

#include "Cli.h"

namespace qflame {

namespace {

std::string &timeFrom()
{
    static std::string value;
    return value;
}

std::string &timeTo()
{
    static std::string value;
    return value;
}

bool takesTimeRange(const std::string &verb)
{
    return verb == "top" || verb == "diff" || verb == "convert" || verb == "graph" || verb == "heatmap";
}

}   // namespace

const std::string &cliTimeFrom()
{
    return timeFrom();
}

const std::string &cliTimeTo()
{
    return timeTo();
}

std::vector<std::string> takeTimeRangeOptions(const std::string &verb, const std::vector<std::string> &args)
{
    // With --url the verb asks a server, whose --from/--to name the query's window (CliQryn): not sample times.
    if (!takesTimeRange(verb) || wantsServer(args))
        return args;
    std::vector<std::string> rest;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string &s = args[i];
        const bool to = s == "--to" || s.rfind("--to=", 0) == 0;
        if (to && verb == "convert") {
            // convert's --to FORMAT; a time starts with a digit.
            const std::string value = s == "--to" ? (i + 1 < args.size() ? args[i + 1] : std::string()) : s.substr(5);
            if (value.empty() || value[0] < '0' || value[0] > '9') {
                rest.push_back(s);
                continue;
            }
        }
        std::optional<std::string> value;
        if (takeOption(args, i, "--from", value))
            timeFrom() = *value;
        else if (takeOption(args, i, "--to", value))
            timeTo() = *value;
        else
            rest.push_back(s);
        if (value && value->empty())
            usageError("option " + s + " needs a value");
    }
    return rest;
}

}   // namespace qflame
