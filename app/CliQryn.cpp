// `qflame merge` and `qflame top --url`: the qryn client (model/qryn) driven from the command line.
#include "CliQryn.h"

#include "Cli.h"
#include "CliDiff.h"
#include "CliFetch.h"
#include "CliFormats.h"
#include "export/ProfileWriter.h"
#include "pgo/PgoEdges.h"
#include "pgo/PgoReadiness.h"
#include "pgo/PgoTrim.h"
#include "qryn/ComparisonSide.h"
#include "qryn/ExportCheck.h"
#include "qryn/PprofExport.h"
#include "qryn/QrynClient.h"
#include "qryn/TimeSpec.h"

#include <QDateTime>
#include <QFile>

#include <algorithm>
#include <iostream>
#include <map>
#include <optional>

namespace qflame {

using namespace qryn;

namespace {

[[noreturn]] void serverError(const QString &message)
{
    std::cerr << "qflame: " << message.toStdString() << "\n";
    throw CliExit{2};
}

struct ServerArgs {
    std::map<std::string, std::string> values;   // option name (without --) -> value
    bool tsv = false, csv = false, json = false, force = false;

    bool has(const char *name) const { return values.count(name) != 0; }
    QString get(const char *name, const char *fallback = "") const
    {
        auto it = values.find(name);
        return QString::fromStdString(it == values.end() ? std::string(fallback) : it->second);
    }
};

// The server verbs' arguments, as the one parser read them by the verb table (VerbTable.cpp's server()).
ServerArgs serverArgsFrom(const ParsedArgs &p)
{
    ServerArgs a;
    const std::string verb = p.verb->name;
    for (const ParsedArgs::Item &item : p.items) {
        if (item.option.empty())
            usageError(verb + (verb == "top" ? " --url" : "") + " takes no FILE arguments ('" + item.value + "')");
        if (verb == "top" && (item.option == "--sample" || item.option == "--granularity"))
            usageError(item.option + " does not apply to a server: --type picks the sample type, and the server's "
                       "flamegraph has function names only");
        if (item.option == "--tsv" || item.option == "--csv" || item.option == "--force" || item.option == "--json")
            continue;
        a.values[item.option.substr(2)] = item.value;
    }
    a.tsv = p.has("--tsv"), a.csv = p.has("--csv"), a.json = p.has("--json"), a.force = p.has("--force");
    for (const char *required : {"url", "type", "from", "to"})
        if (!a.has(required))
            usageError(verb + " needs --" + required);
    return a;
}

// How a wrong server option is reported: usageError for the verbs, the window's own way for its command line.
using OptionError = void (*)(const std::string &message);

[[noreturn]] void optionError(OptionError fail, const std::string &message)
{
    if (fail)
        fail(message);   // throws
    usageError(message);
}

std::optional<uint64_t> positiveNumber(const ServerArgs &a, const char *name, OptionError fail = nullptr)
{
    if (!a.has(name))
        return std::nullopt;
    bool ok = false;
    const qulonglong v = a.get(name).toULongLong(&ok);
    if (!ok || v == 0)
        optionError(fail, "--" + std::string(name) + " takes a positive whole number, not '" + a.get(name).toStdString() +
                   "'");
    return v;
}

QString fromEnvironment(const ServerArgs &a, const char *option, OptionError fail)
{
    const QString var = a.get(option);
    const QByteArray value = qgetenv(var.toLocal8Bit().constData());
    if (value.isEmpty())
        optionError(fail, "--" + std::string(option) + ": the environment variable " + var.toStdString() +
                   " is not set or empty");
    return QString::fromUtf8(value);
}

ConnectionSettings connectionFrom(const ServerArgs &a, OptionError fail = nullptr)
{
    ConnectionSettings s;
    s.url = QUrl(a.get("url"));
    if (a.has("password-env") && !a.has("user"))
        optionError(fail, "--password-env needs --user");
    if (a.has("user")) {
        s.user = a.get("user");
        if (a.has("password-env"))
            s.password = fromEnvironment(a, "password-env", fail);
    }
    if (a.has("token-env"))
        s.bearerToken = fromEnvironment(a, "token-env", fail);
    s.tenant = a.get("tenant");
    s.caFile = a.get("ca-file");
    const QString protocol = a.get("protocol", "qryn");
    if (protocol == u"connect")
        s.protocol = WireProtocol::Connect;
    else if (protocol != u"qryn")
        optionError(fail, "--protocol must be qryn or connect, not '" + protocol.toStdString() + "'");
    s.timeoutMs = int(std::min<uint64_t>(positiveNumber(a, "timeout", fail).value_or(60), 86400) * 1000);
    s.maxResponseBytes = qint64(positiveNumber(a, "max-size", fail).value_or(1024)) << 20;
    const QString invalid = s.validate();
    if (!invalid.isEmpty())
        optionError(fail, invalid.toStdString());
    return s;
}

// The query of --type, --<prefix>query, --<prefix>from and --<prefix>to (prefix "base-" for a diff's baseline,
// falling back to the unprefixed options).
ProfileQuery queryFrom(const ServerArgs &a, const std::string &prefix = "")
{
    auto option = [&](const std::string &name) {
        return a.has((prefix + name).c_str()) ? prefix + name : name;
    };
    ProfileQuery q;
    q.profileTypeId = a.get("type");
    ProfileType parsed;
    if (!ProfileType::parse(q.profileTypeId, &parsed))
        usageError("--type must be a profile type ID name:sample_type:sample_unit:period_type:period_unit, e.g. "
                   "process_cpu:cpu:nanoseconds:cpu:nanoseconds, not '" + q.profileTypeId.toStdString() + "'");
    q.labelSelector = a.get(option("query").c_str(), "{}");
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    QString why;
    const std::string fromOption = option("from"), toOption = option("to");
    const std::optional<qint64> from = parseTimeSpec(a.get(fromOption.c_str()), now, &why);
    if (!from)
        usageError("--" + fromOption + ": " + why.toStdString());
    const std::optional<qint64> to = parseTimeSpec(a.get(toOption.c_str()), now, &why);
    if (!to)
        usageError("--" + toOption + ": " + why.toStdString());
    if (*from > *to)
        usageError("--" + fromOption + " is after --" + toOption);
    q.range = {*from, *to};
    return q;
}

template <class T>
T valueOrExit(Result<T> r)
{
    if (!r.ok())
        serverError(r.error.message);
    return std::move(r.value);
}

// One side of a remote diff: the query's flamegraph with its samples:count sibling where the server holds one
// (qryn/ComparisonSide.h, as the explorer's comparisons), as one profile lasting the query's window.
std::shared_ptr<const Profile> diffSide(QrynClient &client, const ProfileQuery &query)
{
    auto profile = valueOrExit(QrynClient::wait(fetchComparisonSide(client, query)));
    if (!profile)
        serverError(noProfilesMessage(query));
    return profile;
}

}   // namespace

RemoteTop fetchRemoteTop(const ParsedArgs &args)
{
    const ServerArgs a = serverArgsFrom(args);
    RemoteTop out;
    out.tsv = a.tsv;
    out.csv = a.csv;
    out.json = a.json;
    out.limit = positiveNumber(a, "limit");
    const ProfileQuery query = queryFrom(a);
    QrynClient client(connectionFrom(a));
    const MergedFlamegraph merged = valueOrExit(QrynClient::wait(client.selectMergeStacktraces(query)));
    if (merged.isEmpty())
        serverError(noProfilesMessage(query));
    out.table = merged.flat;
    return out;
}

int runMerge(const ParsedArgs &args)
{
    const ServerArgs a = serverArgsFrom(args);
    if (!a.has("output"))
        usageError("merge needs --output FILE");
    const bool forPgo = a.has("for");
    if (forPgo && a.get("for") != QLatin1String("pgo"))
        usageError("--for takes pgo (the profile go build -pgo reads), not '" + a.get("for").toStdString() + "'");
    const QString output = a.get("output");
    // Checked before asking the server, so a long query is not wasted; the write itself is exclusive again.
    if (!a.force && QFile::exists(output))
        usageError(output.toStdString() + " already exists (--force overwrites it)");
    const ProfileQuery query = queryFrom(a);
    QrynClient client(connectionFrom(a));
    // Both at once: the flamegraph's total is the truth the export is checked against (qryn 3.2.39 inflates).
    auto graphFuture = client.selectMergeStacktraces(query);
    auto profileFuture = client.selectMergeProfile(query);
    const MergedFlamegraph graph = valueOrExit(QrynClient::wait(graphFuture));
    const MergedProfile merged = valueOrExit(QrynClient::wait(profileFuture));
    if (merged.isEmpty())
        serverError(noProfilesMessage(query) + (graph.isEmpty() ? QString()
                                                             : QStringLiteral(" (but its flamegraph is not empty: "
                                                                              "the server sent an empty pprof)")));
    ProfileType type;
    ProfileType::parse(query.profileTypeId, &type);
    const TotalsCheck check = checkExportTotals(graph.graph.total, merged.profile.get(), type);
    std::optional<PgoTrimmedFile> trimmed;
    if (forPgo) {
        trimmed = encodeTrimmedForPgo({merged.profile});
        for (const PgoReadinessLine &line : pgoReadiness({merged.profile}, computePgoEdges({merged.profile}), 0))
            if (line.level != PgoLevel::Ok && line.check != "size")
                std::cerr << "qflame: " << formatReadinessLine(line) << "\n";
    }
    const QString error = writeGzipPprof(output, trimmed ? QByteArray::fromStdString(trimmed->pprofBytes) : merged.pprof,
                                         a.force);
    if (!error.isEmpty())
        serverError(error + (a.force ? QString() : QStringLiteral(" (--force overwrites it)")));
    if (!check.agree)
        std::cerr << "qflame: warning: " << check.message.toStdString() << "\n";
    if (trimmed) {
        // "from M": what the merge without --for pgo writes, gzip'd alike, so the ratio compares like with like.
        const size_t untrimmed = gzipCompress(std::string_view(merged.pprof.constData(), size_t(merged.pprof.size()))).size();
        std::cout << "Wrote " << output.toStdString() << ": " << trimmedForPgoReport(untrimmed, *trimmed) << "\n";
        return 0;
    }
    std::cout << "Wrote " << output.toStdString() << ": " << merged.profile->sampleCount() << " samples, "
              << merged.profile->sampleTypes.size() << " sample types, " << merged.pprof.size()
              << " bytes of pprof (gzip-compressed)\n";
    return 0;
}

int runRemoteDiff(const ParsedArgs &args)
{
    // The options of `qflame diff` itself go to runDiffOf; the rest say what to ask the server.
    std::vector<std::string> diffArgv;
    ParsedArgs serverOnly = args;
    serverOnly.items.clear();
    for (const ParsedArgs::Item &item : args.items) {
        if (item.option == "--normalize" || item.option == "--noise") {
            diffArgv.insert(diffArgv.end(), {item.option, item.value});
        } else if (item.option == "--tsv" || item.option == "--json") {
            diffArgv.push_back(item.option);
        } else {
            serverOnly.items.push_back(item);
        }
    }
    const ServerArgs a = serverArgsFrom(serverOnly);
    const ProfileQuery base = queryFrom(a, "base-"), comparison = queryFrom(a);
    QrynClient client(connectionFrom(a));
    const auto before = diffSide(client, base), after = diffSide(client, comparison);
    return runDiffOf(before, after, "base", "new", diffArgv);
}

int runRemoteTop(const ParsedArgs &args)
{
    const RemoteTop remote = fetchRemoteTop(args);
    return printTop(*remote.table, remote.limit, remote.tsv, remote.csv, remote.json);
}

qryn::ConnectionSettings connectionFromOptions(const std::map<std::string, std::string> &values,
                                              void (*fail)(const std::string &message))
{
    ServerArgs a;
    a.values = values;
    return connectionFrom(a, fail);
}

ServerVerbs qrynVerbs()
{
    ServerVerbs verbs;
    verbs.rounds = runServerRounds;
    verbs.top = runRemoteTop;
    verbs.diff = runRemoteDiff;
    verbs.merge = runMerge;
    verbs.fetch = installFetchOptions;
    return verbs;
}

}   // namespace qflame
