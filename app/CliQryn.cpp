// `qflame merge` and `qflame top --url`: the qryn client (model/qryn) driven from the command line.
#include "CliQryn.h"

#include "Cli.h"
#include "ExportCheck.h"
#include "PprofExport.h"
#include "QrynClient.h"
#include "TimeSpec.h"

#include <QDateTime>
#include <QFile>

#include <algorithm>
#include <iostream>
#include <map>

namespace qflame {

using namespace qryn;

namespace {

[[noreturn]] void usageError(const std::string &message)
{
    std::cerr << "qflame: " << message << "\nRun 'qflame --help' for usage.\n";
    throw CliExit{1};
}

[[noreturn]] void serverError(const QString &message)
{
    std::cerr << "qflame: " << message.toStdString() << "\n";
    throw CliExit{2};
}

struct ServerArgs {
    std::map<std::string, std::string> values;   // option name (without --) -> value
    bool tsv = false, csv = false, force = false;

    bool has(const char *name) const { return values.count(name) != 0; }
    QString get(const char *name, const char *fallback = "") const
    {
        auto it = values.find(name);
        return QString::fromStdString(it == values.end() ? std::string(fallback) : it->second);
    }
};

// Options taking a value, for both verbs; the flags are --tsv/--csv (top) and --force (merge).
const std::vector<std::string> kCommon = {"url",    "type",    "query",    "from",     "to",      "user",    "password-env",
                                          "token-env", "tenant", "ca-file", "protocol", "timeout", "max-size"};

ServerArgs parseServerArgs(const std::vector<std::string> &argv, const std::string &verb,
                           const std::vector<std::string> &extra)
{
    ServerArgs a;
    for (size_t i = 0; i < argv.size(); ++i) {
        const std::string &s = argv[i];
        if (verb == "top" && (s == "--tsv" || s == "--csv")) {
            (s == "--tsv" ? a.tsv : a.csv) = true;
            continue;
        }
        if (verb == "merge" && s == "--force") {
            a.force = true;
            continue;
        }
        if (s.rfind("--", 0) != 0)
            usageError(verb + (verb == "top" ? " --url" : "") + " takes no FILE arguments ('" + s + "')");
        const size_t eq = s.find('=');
        const std::string name = s.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
        const bool known = std::find(kCommon.begin(), kCommon.end(), name) != kCommon.end() ||
                           std::find(extra.begin(), extra.end(), name) != extra.end();
        if (!known) {
            if (verb == "top" && (name == "sample" || name == "granularity"))
                usageError("--" + name + " does not apply to a server: --type picks the sample type, and the "
                           "server's flamegraph has function names only");
            usageError("unknown option --" + name + " for " + verb);
        }
        if (eq != std::string::npos)
            a.values[name] = s.substr(eq + 1);
        else if (i + 1 < argv.size())
            a.values[name] = argv[++i];
        else
            usageError("option --" + name + " needs a value");
    }
    for (const char *required : {"url", "type", "from", "to"})
        if (!a.has(required))
            usageError(verb + " needs --" + required);
    return a;
}

std::optional<uint64_t> positiveNumber(const ServerArgs &a, const char *name)
{
    if (!a.has(name))
        return std::nullopt;
    bool ok = false;
    const qulonglong v = a.get(name).toULongLong(&ok);
    if (!ok || v == 0)
        usageError("--" + std::string(name) + " takes a positive whole number, not '" + a.get(name).toStdString() +
                   "'");
    return v;
}

QString fromEnvironment(const ServerArgs &a, const char *option)
{
    const QString var = a.get(option);
    const QByteArray value = qgetenv(var.toLocal8Bit().constData());
    if (value.isEmpty())
        usageError("--" + std::string(option) + ": the environment variable " + var.toStdString() +
                   " is not set or empty");
    return QString::fromUtf8(value);
}

ConnectionSettings connectionFrom(const ServerArgs &a)
{
    ConnectionSettings s;
    s.url = QUrl(a.get("url"));
    if (a.has("password-env") && !a.has("user"))
        usageError("--password-env needs --user");
    if (a.has("user")) {
        s.user = a.get("user");
        if (a.has("password-env"))
            s.password = fromEnvironment(a, "password-env");
    }
    if (a.has("token-env"))
        s.bearerToken = fromEnvironment(a, "token-env");
    s.tenant = a.get("tenant");
    s.caFile = a.get("ca-file");
    const QString protocol = a.get("protocol", "qryn");
    if (protocol == u"connect")
        s.protocol = WireProtocol::Connect;
    else if (protocol != u"qryn")
        usageError("--protocol must be qryn or connect, not '" + protocol.toStdString() + "'");
    s.timeoutMs = int(std::min<uint64_t>(positiveNumber(a, "timeout").value_or(60), 86400) * 1000);
    s.maxResponseBytes = qint64(positiveNumber(a, "max-size").value_or(1024)) << 20;
    const QString invalid = s.validate();
    if (!invalid.isEmpty())
        usageError(invalid.toStdString());
    return s;
}

ProfileQuery queryFrom(const ServerArgs &a)
{
    ProfileQuery q;
    q.profileTypeId = a.get("type");
    ProfileType parsed;
    if (!ProfileType::parse(q.profileTypeId, &parsed))
        usageError("--type must be a profile type ID name:sample_type:sample_unit:period_type:period_unit, e.g. "
                   "process_cpu:cpu:nanoseconds:cpu:nanoseconds, not '" + q.profileTypeId.toStdString() + "'");
    q.labelSelector = a.get("query", "{}");
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    QString why;
    const std::optional<qint64> from = parseTimeSpec(a.get("from"), now, &why);
    if (!from)
        usageError("--from: " + why.toStdString());
    const std::optional<qint64> to = parseTimeSpec(a.get("to"), now, &why);
    if (!to)
        usageError("--to: " + why.toStdString());
    if (*from > *to)
        usageError("--from is after --to");
    q.range = {*from, *to};
    return q;
}

QString describeQuery(const ProfileQuery &q)
{
    return QStringLiteral("no profiles of type %1 match %2 between %3 and %4")
        .arg(q.profileTypeId, q.labelSelector, formatTimeMs(q.range.startMs), formatTimeMs(q.range.endMs));
}

template <class T>
T valueOrExit(Result<T> r)
{
    if (!r.ok())
        serverError(r.error.message);
    return std::move(r.value);
}

}   // namespace

bool wantsServer(const std::vector<std::string> &args)
{
    for (const std::string &s : args)
        if (s == "--url" || s.rfind("--url=", 0) == 0)
            return true;
    return false;
}

RemoteTop fetchRemoteTop(const std::vector<std::string> &argv)
{
    const ServerArgs a = parseServerArgs(argv, "top", {"limit"});
    RemoteTop out;
    out.tsv = a.tsv;
    out.csv = a.csv;
    out.limit = positiveNumber(a, "limit");
    const ProfileQuery query = queryFrom(a);
    QrynClient client(connectionFrom(a));
    const MergedFlamegraph merged = valueOrExit(QrynClient::wait(client.selectMergeStacktraces(query)));
    if (merged.isEmpty())
        serverError(describeQuery(query));
    out.table = merged.flat;
    return out;
}

int runMerge(const std::vector<std::string> &argv)
{
    const ServerArgs a = parseServerArgs(argv, "merge", {"output"});
    if (!a.has("output"))
        usageError("merge needs --output FILE");
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
        serverError(describeQuery(query) + (graph.isEmpty() ? QString()
                                                             : QStringLiteral(" (but its flamegraph is not empty: "
                                                                              "the server sent an empty pprof)")));
    ProfileType type;
    ProfileType::parse(query.profileTypeId, &type);
    const TotalsCheck check = checkExportTotals(graph.graph.total, merged.profile.get(), type);
    const QString error = writeGzipPprof(output, merged.pprof, a.force);
    if (!error.isEmpty())
        serverError(error + (a.force ? QString() : QStringLiteral(" (--force overwrites it)")));
    if (!check.agree)
        std::cerr << "qflame: warning: " << check.message.toStdString() << "\n";
    std::cout << "Wrote " << output.toStdString() << ": " << merged.profile->sampleCount() << " samples, "
              << merged.profile->sampleTypes.size() << " sample types, " << merged.pprof.size()
              << " bytes of pprof (gzip-compressed)\n";
    return 0;
}

}   // namespace qflame
