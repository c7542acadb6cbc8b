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
    timeFrom() = args.value("--from").value_or(std::string());
    timeTo().clear();
    // convert's --to also names the output format; a time starts with a digit.
    const bool convert = std::string(args.verb->name) == "convert";
    for (const std::string &to : args.values("--to"))
        if (!convert || isTime(to))
            timeTo() = to;
    if (const std::optional<std::string> v = args.value("--from"); v && v->empty())
        usageError("option --from needs a value");
    if (const std::optional<std::string> v = args.value("--to"); v && v->empty() && !convert)
        usageError("option --to needs a value");
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
