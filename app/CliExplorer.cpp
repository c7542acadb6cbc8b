#include "CliExplorer.h"

#include "Cli.h"
#include "CliQryn.h"
#include "VerbTable.h"
#include "explorer/ConnectionStore.h"
#include "qryn/LabelSelector.h"
#include "qryn/TimeSpec.h"

#include <QDateTime>

#include <algorithm>
#include <iostream>
#include <map>

namespace qflame {

using namespace qryn;

namespace {

// The server options of every --url verb (CliQryn.cpp's connectionFromOptions reads them), and the query's.
const std::vector<std::string> kServerOptions = {"url",    "user",     "password-env", "token-env", "tenant",
                                                 "ca-file", "protocol", "timeout",      "max-size"};
const std::vector<std::string> kQueryOptions = {"type", "query", "from", "to", "connection"};

bool isOneOf(const std::vector<std::string> &names, const std::string &name)
{
    return std::find(names.begin(), names.end(), name) != names.end();
}

// The window's command line says what is wrong in one line and opens nothing.
[[noreturn]] void explorerError(const std::string &message)
{
    std::cerr << "qflame: " << message << "\n";
    throw CliExit{2};
}

std::string joined(const QStringList &names)
{
    return names.join(QStringLiteral(", ")).toStdString();
}

}   // namespace

bool wantsExplorer(const std::vector<std::string> &args)
{
    return std::any_of(args.begin(), args.end(), [](const std::string &a) {
        return a == "--url" || a.rfind("--url=", 0) == 0 || a == "--connection" || a.rfind("--connection=", 0) == 0;
    });
}

QrynExplorer::Start parseExplorerArgs(const std::vector<std::string> &args, const ConnectionStore &store)
{
    // The table's `qflame --url` form (VerbTable.cpp), read by the verbs' one parser.
    const VerbSpec *form = nullptr;
    for (const VerbSpec &v : verbTable())
        if (!*v.name && v.selector && std::string(v.selector) == "--url")
            form = &v;
    std::string error;
    const std::optional<ParsedArgs> parsed = parseVerbArgs(*form, args, &error);
    if (!parsed)
        explorerError(error + (error.rfind("unknown option", 0) == 0 ? " for the explorer (--url or --connection)" : ""));
    std::map<std::string, std::string> values, server;
    for (const ParsedArgs::Item &item : parsed->items) {
        if (item.option.empty())
            explorerError("'" + item.value + "': the explorer takes no FILE (open files without --url or "
                          "--connection)");
        const std::string name = item.option.substr(2);
        values[name] = item.value;
        if (isOneOf(kServerOptions, name))
            server[name] = item.value;
    }
    auto has = [&](const char *name) { return values.count(name) != 0; };
    auto get = [&](const char *name) { return QString::fromStdString(values[name]); };

    QrynExplorer::Start start;
    if (has("connection")) {
        if (has("url"))
            explorerError("give --url or --connection, not both");
        if (!server.empty())
            explorerError("--" + server.begin()->first + " does not go with --connection: the saved connection "
                          "has its own (give --url with the server options instead)");
        const QString name = get("connection");
        const QStringList names = store.names();
        if (!names.contains(name))
            explorerError("no saved connection named '" + name.toStdString() + "' (" +
                          (names.isEmpty() ? std::string("none is saved: File > Connect to qryn... saves one")
                                           : "saved: " + joined(names)) +
                          ")");
        start.settings = store.connection(name);
        start.name = name;
        start.secretsFromStore = true;
    } else {
        if (!has("type"))
            explorerError("--url needs --type PROFILE_TYPE_ID, e.g. --type process_cpu:cpu:nanoseconds:cpu:nanoseconds");
        start.settings = connectionFromOptions(server, explorerError);
        start.name = start.settings.displayUrl();
        // A saved connection of the same server lends what the command line does not say, its secrets included.
        for (const QString &name : store.names()) {
            const ConnectionSettings saved = store.connection(name);
            if (saved.displayUrl() != start.settings.displayUrl())
                continue;
            if (!has("tenant"))
                start.settings.tenant = saved.tenant;
            if (!has("ca-file"))
                start.settings.caFile = saved.caFile;
            if (!has("protocol"))
                start.settings.protocol = saved.protocol;
            if (!has("user") && !has("password-env") && !has("token-env")) {
                start.settings.user = saved.user;
                start.secretsFromStore = true;
            }
            start.name = name;
            break;
        }
    }

    if (!has("type")) {
        for (const char *needsType : {"query", "from", "to"})
            if (has(needsType))
                explorerError(std::string("--") + needsType + " needs --type PROFILE_TYPE_ID");
        return start;   // the connection's last query
    }
    ProfileType type;
    if (!ProfileType::parse(get("type"), &type))
        explorerError("--type must be a profile type ID name:sample_type:sample_unit:period_type:period_unit, e.g. "
                      "process_cpu:cpu:nanoseconds:cpu:nanoseconds, not '" + values["type"] + "'");
    start.profileType = type.id;
    QString why;
    if (has("query") && !parseSelector(get("query"), &why))
        explorerError("--query: " + why.toStdString());
    start.selector = get("query");
    if (has("from") || has("to")) {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        std::optional<qint64> from, to = now;
        if (has("to") && !(to = parseTimeSpec(get("to"), now, &why)))
            explorerError("--to: " + why.toStdString());
        if (!has("from"))
            from = *to - 3'600'000;   // the last hour before --to, as the window's default is the last hour
        else if (!(from = parseTimeSpec(get("from"), now, &why)))
            explorerError("--from: " + why.toStdString());
        if (*from > *to)
            explorerError("--from is after --to");
        start.range = TimeRange{*from, *to};
    }
    return start;
}

}   // namespace qflame
