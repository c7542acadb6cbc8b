#include "CliFetch.h"

#include "Cli.h"
#include "CliQryn.h"
#include "fetch/ProfileFetch.h"

#include <map>
#include <optional>

namespace qflame {

std::vector<std::string> takeFetchOptions(const std::vector<std::string> &args)
{
    // The qryn options that mean the same for one URL; --max-size stays with the verb, whose read options bound
    // the download as they bound a file.
    static const char *const names[] = {"--user", "--password-env", "--token-env", "--ca-file", "--timeout"};
    std::map<std::string, std::string> values;
    std::vector<std::string> rest;
    for (size_t i = 0; i < args.size(); ++i) {
        bool taken = false;
        for (const char *name : names) {
            std::optional<std::string> value;
            if (takeOption(args, i, name, value)) {
                values[std::string(name).substr(2)] = *value;
                taken = true;
                break;
            }
        }
        if (taken)
            continue;
        if (fetch::isProfileUrl(QString::fromStdString(args[i])) && !values.count("url"))
            values["url"] = args[i];   // the checks (scheme, host, CA file) run on the first; each URL on its own
        rest.push_back(args[i]);
    }
    const bool explicitTimeout = values.count("timeout") != 0;
    qryn::ConnectionSettings settings = connectionFromOptions(values);
    if (!explicitTimeout)
        settings.timeoutMs = 0;   // each URL's own: its seconds plus a margin
    fetch::installUrlReader(settings, false);
    return rest;
}

}   // namespace qflame
