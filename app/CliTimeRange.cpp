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

bool isTime(const std::string &value)
{
    return !value.empty() && value[0] >= '0' && value[0] <= '9';
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

void setCliTimeRange(const ParsedArgs &args)
{
    if (!args.verb->option("--from"))
        return;   // a verb without sample times (the table says which)
    // Repeated, pair by pair: a union of ranges, handed to the front door comma-separated (time/TimeRange.h).
    timeFrom().clear();
    for (const std::string &from : args.values("--from"))
        timeFrom() += (timeFrom().empty() ? "" : ",") + from;
    timeTo().clear();
    // convert's --to also names the output format; a time starts with a digit.
    const bool convert = std::string(args.verb->name) == "convert";
    for (const std::string &to : args.values("--to"))
        if (!convert || isTime(to))
            timeTo() += (timeTo().empty() ? "" : ",") + to;
    for (const std::string &v : args.values("--from"))
        if (v.empty() || v.find(',') != std::string::npos)
            usageError(v.empty() ? "option --from needs a value" : "option --from takes one time, not '" + v + "'");
    for (const std::string &v : args.values("--to"))
        if ((v.empty() && !convert) || v.find(',') != std::string::npos)
            usageError(v.empty() ? "option --to needs a value" : "option --to takes one time, not '" + v + "'");
}

std::optional<std::string> convertFormat(const ParsedArgs &args)
{
    std::optional<std::string> format;
    for (const std::string &to : args.values("--to"))
        if (!isTime(to))
            format = to;
    return format;
}

}   // namespace qflame
