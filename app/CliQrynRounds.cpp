// `qflame rounds --url ...`: rounds as windows of a server (qryn/ServerRounds.h), compared and printed by the code
// that compares and prints rounds of files (compareRounds, printRounds), so the two outputs cannot drift apart.
#include "Cli.h"
#include "CliQryn.h"
#include "CliRounds.h"
#include "qryn/QrynClient.h"
#include "qryn/ServerRounds.h"
#include "qryn/TimeSpec.h"

#include <QDateTime>

#include <algorithm>
#include <iostream>
#include <map>
#include <optional>

namespace qflame {

using namespace qryn;

namespace {

struct RoundArgs {
    std::string name;
    std::optional<std::string> query, from, to;
};

struct ServerRoundsArgs {
    std::map<std::string, std::string> server;   // url, type and the connection options, without "--"
    std::optional<std::string> step, noise;
    std::vector<RoundArgs> rounds;
    RoundsOutput output = RoundsOutput::Window;
};

// The arguments as the one parser read them: a round's own --query, --from and --to belong to the last -r NAME.
ServerRoundsArgs serverRoundsArgsFrom(const ParsedArgs &p)
{
    ServerRoundsArgs a;
    bool outputGiven = false;
    for (const ParsedArgs::Item &item : p.items) {
        const std::string &s = item.option;
        const OptionSpec *spec = s.empty() ? nullptr : p.verb->option(s);
        if (s.empty())
            usageError("rounds --url takes no FILE arguments ('" + item.value +
                       "'); each -r NAME takes --query, --from, --to");
        if (s == "-r") {
            a.rounds.push_back({item.value, {}, {}, {}});
        } else if (spec->output) {
            if (outputGiven)
                usageError("rounds takes one of --tsv, --csv, --markdown and --json");
            outputGiven = true;
            a.output = s == "--tsv"        ? RoundsOutput::Tsv
                       : s == "--csv"      ? RoundsOutput::Csv
                       : s == "--markdown" ? RoundsOutput::Markdown
                                           : RoundsOutput::Json;
        } else if (s == "--query" || s == "--from" || s == "--to") {
            if (a.rounds.empty())
                usageError("rounds --url: " + s + " comes before the first -r NAME (each round has its own --query, "
                           "--from and --to)");
            RoundArgs &r = a.rounds.back();
            (s[2] == 'q' ? r.query : s[2] == 'f' ? r.from : r.to) = item.value;
        } else if (s == "--step") {
            a.step = item.value;
        } else if (s == "--noise") {
            a.noise = item.value;
        } else if (s != "--demangle" && s != "--collapse-templates" && s != "--profile") {
            a.server[s.substr(2)] = item.value;   // the connection's
        }
    }
    for (const char *required : {"url", "type"})
        if (!a.server.count(required))
            usageError(std::string("rounds --url needs --") + required);
    if (a.rounds.empty())
        usageError("rounds --url takes at least one round: -r NAME [--query SEL] --from T --to T");
    for (const RoundArgs &r : a.rounds)
        if (!r.from || !r.to)
            usageError("round " + r.name + " needs --from and --to");
    return a;
}

qint64 timeOf(const std::string &text, const RoundArgs &r, const char *option, qint64 now)
{
    QString why;
    const std::optional<qint64> t = parseTimeSpec(QString::fromStdString(text), now, &why);
    if (!t)
        usageError("round " + r.name + ": " + option + ": " + why.toStdString());
    return *t;
}

ServerRoundsQuery queryFrom(const ServerRoundsArgs &a)
{
    ServerRoundsQuery q;
    q.profileTypeId = QString::fromStdString(a.server.at("type"));
    ProfileType type;
    if (!ProfileType::parse(q.profileTypeId, &type))
        usageError("--type must be a profile type ID name:sample_type:sample_unit:period_type:period_unit, e.g. "
                   "process_cpu:cpu:nanoseconds:cpu:nanoseconds, not '" + a.server.at("type") + "'");
    if (a.step) {
        const std::optional<uint64_t> step = parseCount(*a.step);
        if (!step || *step == 0 || *step > 86400 * 366)
            usageError("--step takes a whole number of seconds > 0, not '" + *a.step + "'");
        q.stepSeconds = qint64(*step);
    }
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (const RoundArgs &r : a.rounds) {
        ServerRoundSpec spec;
        spec.name = r.name;
        spec.selector = QString::fromStdString(r.query.value_or("{}"));
        spec.range = {timeOf(*r.from, r, "--from", now), timeOf(*r.to, r, "--to", now)};
        if (spec.range.startMs > spec.range.endMs)
            usageError("round " + r.name + ": --from is after --to");
        q.rounds.push_back(std::move(spec));
    }
    return q;
}

}   // namespace

ServerRoundsRequest parseServerRoundsRequest(const std::vector<std::string> &argv)
{
    return serverRoundsRequest(parseVerbArgsOrExit(*verbForm("rounds", {"--url"}), argv));
}

ServerRoundsRequest serverRoundsRequest(const ParsedArgs &args)
{
    const ServerRoundsArgs a = serverRoundsArgsFrom(args);
    ServerRoundsRequest r;
    r.query = queryFrom(a);
    if (a.noise)
        r.options.noiseK = parseNonNegative(*a.noise, "--noise");
    r.settings = connectionFromOptions(a.server);
    r.output = a.output;
    return r;
}

int runServerRounds(const ParsedArgs &args)
{
    const ServerRoundsRequest request = serverRoundsRequest(args);
    if (request.output == RoundsOutput::Window)   // qflame-gui's main opens the window before verbs run
        usageError("rounds --url: give --tsv, --csv, --markdown or --json");
    const ServerRoundsQuery &query = request.query;
    QrynClient client(request.settings);
    const ServerRounds fetched = fetchServerRounds(client, query);
    printRounds(compareServerRounds(fetched, request.options), request.output);
    // The tables have no room for them, and a source replaced is worth knowing (markdown prints them itself).
    if (request.output != RoundsOutput::Markdown && request.output != RoundsOutput::Json)
        for (const std::string &note : fetched.notes)
            std::cerr << "qflame: note: " << note << "\n";
    return 0;
}

}   // namespace qflame
