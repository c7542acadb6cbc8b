#include "qryn/ServerRounds.h"

#include "io/ReadOptions.h"
#include "qryn/QrynClient.h"
#include "qryn/StacksToTree.h"

#include <QPromise>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace qflame::qryn {

namespace {

qint64 floorSeconds(qint64 ms)
{
    return ms >= 0 ? ms / 1000 : -((-ms + 999) / 1000);
}

[[noreturn]] void roundError(const std::string &name, const QString &message)
{
    throw ProfileError("round " + name + ": " + message.toStdString());
}

template <class T>
T valueOr(Result<T> r, const std::string &name)
{
    if (!r.ok())
        roundError(name, r.error.message);
    return std::move(r.value);
}

// The queries of one window's tree: the profile type's flamegraph and, for process_cpu, the samples/count one of
// the same samples first, so that a function's Poisson error is known (as `qflame diff --url` does).
struct TreeQueries {
    std::vector<ProfileQuery> queries;
    std::vector<ProfileType> types;
};

TreeQueries treeQueries(const ProfileQuery &query, const ProfileType &type)
{
    TreeQueries t{{query}, {type}};
    if (type.name == u"process_cpu" && type.sampleType != u"samples") {
        ProfileQuery counts = query;
        counts.profileTypeId = QStringLiteral("process_cpu:samples:count:%1:%2").arg(type.periodType, type.periodUnit);
        ProfileType countType;
        ProfileType::parse(counts.profileTypeId, &countType);
        t.queries.insert(t.queries.begin(), counts);
        t.types.insert(t.types.begin(), countType);
    }
    return t;
}

// A step or window [start, end) as SelectMergeStacktraces is asked it: it includes its end, the next one's start.
ProfileQuery mergeQuery(const QString &typeId, const QString &selector, const TimeRange &range)
{
    return {typeId, selector, {range.startMs, range.endMs - 1}};
}

struct Pending {
    std::vector<TimeRange> steps;
    qint64 seriesStep = 0;
    QFuture<Result<QList<Series>>> series;
    TreeQueries tree;
    std::vector<QFuture<Result<MergedFlamegraph>>> graphs;
};

}   // namespace

qint64 roundStepSeconds(const TimeRange &range, qint64 given)
{
    if (given > 0)
        return given;
    const qint64 seconds = floorSeconds(range.endMs) - floorSeconds(range.startMs);
    return std::max<qint64>(10, qint64(std::llround(double(seconds) / 60.0)));
}

std::vector<TimeRange> roundSteps(const TimeRange &range, qint64 stepSeconds)
{
    std::vector<TimeRange> steps;
    const qint64 from = floorSeconds(range.startMs), to = floorSeconds(range.endMs);
    if (stepSeconds <= 0)
        return steps;
    for (qint64 s = from; s < to; s += stepSeconds)
        steps.push_back({s * 1000, std::min(s + stepSeconds, to) * 1000});
    return steps;
}

qint64 seriesStepSeconds(const TimeRange &range, qint64 stepSeconds)
{
    const qint64 g = std::gcd(std::gcd(floorSeconds(range.startMs), floorSeconds(range.endMs)), stepSeconds);
    return std::max<qint64>(1, std::abs(g));
}

std::vector<Observation> observationsFromSeries(const QList<Series> &series, const std::vector<TimeRange> &steps,
                                                const std::string &name)
{
    std::vector<Observation> out;
    for (const TimeRange &s : steps)
        out.push_back({0, (s.endMs - s.startMs) * 1'000'000, name + " step " + std::to_string(s.startMs)});
    if (steps.empty())
        return out;
    const qint64 width = steps.front().endMs - steps.front().startMs;
    for (const Series &one : series)
        for (const SeriesPoint &p : one.points) {
            if (p.timestampMs < steps.front().startMs || p.timestampMs >= steps.back().endMs)
                continue;
            const size_t i = size_t((p.timestampMs - steps.front().startMs) / width);
            // Values are sums of int64 sent as doubles: exact below 2^53 (104 days of CPU in ns per bucket).
            out[std::min(i, out.size() - 1)].value += int64_t(std::llround(p.value));
        }
    return out;
}

ServerRounds fetchServerRounds(QrynClient &client, const ServerRoundsQuery &query)
{
    ProfileType type;
    if (!ProfileType::parse(query.profileTypeId, &type))
        throw ProfileError("not a profile type ID (name:sample_type:sample_unit:period_type:period_unit): " +
                           query.profileTypeId.toStdString());
    if (query.rounds.empty())
        throw ProfileError("no rounds to compare");
    ServerRounds out;
    out.sample = (type.sampleType + u'/' + type.sampleUnit).toStdString();

    // Every round's requests at once: the server works on them while we wait for the first.
    std::vector<Pending> pending;
    for (const ServerRoundSpec &r : query.rounds) {
        const qint64 step = roundStepSeconds(r.range, query.stepSeconds);
        Pending p;
        p.steps = roundSteps(r.range, step);
        if (p.steps.empty())
            throw ProfileError("round " + r.name + ": its window is shorter than a second");
        const TimeRange window{p.steps.front().startMs, p.steps.back().endMs};
        p.seriesStep = seriesStepSeconds(window, step);
        SeriesOptions options;
        options.stepSeconds = double(p.seriesStep);
        p.series = client.selectSeries({query.profileTypeId, r.selector, window}, options);
        p.tree = treeQueries(mergeQuery(query.profileTypeId, r.selector, window), type);
        for (const ProfileQuery &q : p.tree.queries)
            p.graphs.push_back(client.selectMergeStacktraces(q));
        pending.push_back(std::move(p));
    }

    for (size_t j = 0; j < pending.size(); ++j) {
        const ServerRoundSpec &spec = query.rounds[j];
        Pending &p = pending[j];
        const TimeRange window{p.steps.front().startMs, p.steps.back().endMs};
        std::vector<Flamegraph> graphs;
        for (auto &f : p.graphs)
            graphs.push_back(valueOr(QrynClient::wait(f), spec.name).graph);
        const QList<Series> series = valueOr(QrynClient::wait(p.series), spec.name);
        if (graphs.back().total == 0)
            roundError(spec.name, noProfilesMessage({query.profileTypeId, spec.selector, window}));
        QString why;
        auto tree = flamegraphsToProfile(graphs, p.tree.types, window.lengthMs() * 1'000'000,
                                         "round " + spec.name, &why);
        if (!tree)
            roundError(spec.name, QStringLiteral("SelectMergeStacktraces: the flamegraph is inconsistent: %1").arg(why));

        std::vector<Observation> steps = observationsFromSeries(series, p.steps, spec.name);
        int64_t sum = 0;
        for (const Observation &o : steps)
            sum += o.value;
        if (sum != graphs.back().total) {
            // SelectSeries disagrees with the window's merge: each step merged on its own is the truth.
            std::vector<QFuture<Result<MergedFlamegraph>>> perStep;
            for (const TimeRange &s : p.steps)
                perStep.push_back(client.selectMergeStacktraces(mergeQuery(query.profileTypeId, spec.selector, s)));
            int64_t merged = 0;
            for (size_t i = 0; i < perStep.size(); ++i) {
                steps[i].value = valueOr(QrynClient::wait(perStep[i]), spec.name).graph.total;
                merged += steps[i].value;
            }
            out.notes.push_back("round " + spec.name + ": SelectSeries's steps sum to " + std::to_string(sum) +
                                " but the window's merge to " + std::to_string(graphs.back().total) +
                                ": each step's own merge is used" +
                                (merged == graphs.back().total ? std::string()
                                                               : " (they sum to " + std::to_string(merged) + ")"));
        }
        RoundInput input;
        input.name = spec.name;
        input.profiles = {std::move(tree)};
        input.observations = std::move(steps);
        out.rounds.push_back(std::move(input));
    }
    return out;
}

RoundsResult compareServerRounds(const ServerRounds &fetched, RoundsOptions options)
{
    options.sample = fetched.sample;
    RoundsResult result = compareRounds(fetched.rounds, options);
    result.notes.insert(result.notes.begin(), fetched.notes.begin(), fetched.notes.end());
    result.notes.push_back(fetched.functionNoise);
    return result;
}

ServerRounds fetchServerRounds(const ConnectionSettings &settings, const ServerRoundsQuery &query,
                               const std::function<bool()> &cancelled)
{
    QrynClient client(settings);
    QTimer poll;
    if (cancelled) {
        // The waits run this thread's event loop, so the timer fires between the network's events.
        QObject::connect(&poll, &QTimer::timeout, &client, [&client, &cancelled] {
            if (cancelled())
                client.cancelAll();
        });
        poll.start(50);
    }
    ServerRounds out = fetchServerRounds(client, query);
    if (cancelled && cancelled())
        throw ProfileError("the server's rounds were cancelled");
    return out;
}

QFuture<LoadedRounds> fetchServerRoundsAsync(const ConnectionSettings &settings, const ServerRoundsQuery &query,
                                             RoundsOptions options)
{
    return QtConcurrent::run([settings, query, options](QPromise<LoadedRounds> &promise) {
        LoadedRounds loaded;
        loaded.options = options;
        try {
            ServerRounds fetched = fetchServerRounds(settings, query, [&promise] { return promise.isCanceled(); });
            loaded.options.sample = fetched.sample;
            loaded.result = std::make_shared<RoundsResult>(compareServerRounds(fetched, loaded.options));
            loaded.inputs = std::move(fetched.rounds);
        } catch (const std::exception &e) {
            loaded = LoadedRounds{};
            loaded.error = QString::fromStdString(e.what());
        }
        promise.addResult(std::move(loaded));
    });
}

}   // namespace qflame::qryn
