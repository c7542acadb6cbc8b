#include "CliFetch.h"

#include "Cli.h"
#include "CliQryn.h"
#include "fetch/ProfileFetch.h"

#include <map>
#include <optional>

namespace qflame {

void installFetchOptions(const ParsedArgs &args)
{
    // The qryn options that mean the same for one URL; --max-size stays with the verb, whose read options bound
    // the download as they bound a file.
    std::map<std::string, std::string> values;
    for (const ParsedArgs::Item &item : args.items) {
        const OptionSpec *spec = item.option.empty() ? nullptr : args.verb->option(item.option);
        if (spec && spec->forUrls)
            values[item.option.substr(2)] = item.value;
        else if (item.option.empty() && fetch::isProfileUrl(QString::fromStdString(item.value)) && !values.count("url"))
            values["url"] = item.value;   // the checks (scheme, host, CA file) run on the first; each URL on its own
    }
    const bool explicitTimeout = values.count("timeout") != 0;
    qryn::ConnectionSettings settings = connectionFromOptions(values);
    if (!explicitTimeout)
        settings.timeoutMs = 0;   // each URL's own: its seconds plus a margin
    fetch::installUrlReader(settings, false);
}

std::vector<std::string> takeFetchOptions(const std::vector<std::string> &args)
{
    const VerbSpec &window = verbTable().front();   // `qflame [FILE...]`, with the fetch options
    const ParsedArgs parsed = parseVerbArgsOrExit(window, args);
    installFetchOptions(parsed);
    ParsedArgs rest = parsed;
    rest.items.clear();
    for (const ParsedArgs::Item &item : parsed.items)
        if (item.option.empty() || !window.option(item.option)->forUrls)
            rest.items.push_back(item);
    return rest.words();
}

}   // namespace qflame
