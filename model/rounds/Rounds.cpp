#include "rounds/Rounds.h"

#include "diff/DiffSide.h"
#include "graph/CallGraph.h"
#include "pprof/SampleTypes.h"
#include "tree/CallTreeBuilder.h"
#include "tree/FlatTable.h"

#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>
#include <exception>
#include <numeric>
#include <cmath>
#include <map>
#include <unordered_map>

namespace qflame {

namespace {

int exactType(const Profile &p, const SampleTypeInfo &type)
{
    return findExactSampleType(p, type.type, type.unit);
}

// Per function (by the name top shows), the sum of its rows: two frames may show the same name (a function
// name in two files), and a round's observations are matched by name.
struct FunctionSums {
    int64_t flat = 0, cum = 0;
};
using ByName = std::unordered_map<std::string, FunctionSums>;

ByName sumsByName(const FlatTable &table)
{
    ByName out;
    out.reserve(table.rows().size());
    for (const FlatRow &r : table.rows()) {
        FunctionSums &s = out[table.displayName(r)];
        s.flat = wrappingAdd(s.flat, r.flat);
        s.cum = wrappingAdd(s.cum, r.cum);
    }
    return out;
}

// What one round contributes: its merged table, its per-file tables and, for a round of one file, the
// number of samples behind each function's cum (for the Poisson error).
struct RoundData {
    ByName merged;
    std::vector<ByName> perFile;   // per file; for given observations one: the merged tree
    // Per file, its call edges' weights (rounds of several files only: one file has no spread to measure).
    std::vector<std::vector<NamedEdgeWeight>> edgesPerFile;
    std::vector<int64_t> durations;
    std::vector<std::string> sources;
    double roundSamples = 0;       // k = 1 only
    ByName countByName;            // k = 1 only, when a samples/count type gives the counts
    double valuePerSample = 0;     // k = 1 only, when each sample has the same value
};

RoundData readRound(const RoundInput &round, const SampleTypeInfo &type, const RoundsOptions &options,
                    RoundSummary *summary, std::vector<std::string> *notes)
{
    RoundData data;
    BuildOptions build;
    build.granularity = options.granularity;
    bool noted = false;
    const bool given = !round.observations.empty();
    for (const auto &p : round.profiles) {
        const int t = exactType(*p, type);
        if (t < 0)
            throw ProfileError("round " + round.name + ": " + p->sourceName + " has no sample type " + type.type +
                               "/" + type.unit + " (it has: " + sampleTypeList(*p) + ")");
        if (given)
            continue;   // the profiles are the round's tree only
        int64_t duration = p->durationNanos > 0 ? p->durationNanos : options.durationNanos;
        if (p->durationNanos <= 0 && !noted) {
            notes->push_back("round " + round.name + ": " + p->sourceName + " has no duration_nanos" +
                             (options.durationNanos > 0 ? ": the duration given (--duration) is used"
                                                        : ": its rate is unknown (give one with --duration)"));
            noted = true;
        }
        summary->observations.push_back({p->total(size_t(t)), std::max<int64_t>(duration, 0), p->sourceName});
        data.durations.push_back(std::max<int64_t>(duration, 0));
        data.sources.push_back(p->sourceName);
    }
    const int firstType = exactType(*round.profiles.front(), type);
    if (given) {
        // A server's window: the steps are the observations, and the window's one tree is the only unit a
        // function's values are known for (its duration the steps' sum, unknown when any step's is).
        summary->observations = round.observations;
        int64_t duration = 0;
        for (const Observation &o : round.observations)
            duration = o.durationNanos > 0 && duration >= 0 ? wrappingAdd(duration, o.durationNanos) : -1;
        data.durations = {std::max<int64_t>(duration, 0)};
        data.sources = {round.name};
        data.merged = sumsByName(*FlatTable::compute(round.profiles, size_t(firstType), build));
        data.perFile = {data.merged};
    }
    // Each file's table on its own, for the spread of each function's values: a round may hold hundreds of
    // files, which the pool's threads share.
    data.perFile.resize(given ? 1 : round.profiles.size());
    const bool spread = options.edgeNoise && !given && round.profiles.size() >= 2;
    data.edgesPerFile.resize(spread ? round.profiles.size() : 0);
    std::vector<std::exception_ptr> errors(round.profiles.size());
    std::vector<size_t> indexes(round.profiles.size());
    std::iota(indexes.begin(), indexes.end(), size_t(0));
    QtConcurrent::blockingMap(indexes, [&](size_t i) {
        if (given)
            return;
        try {
            const auto &p = round.profiles[i];
            data.perFile[i] = sumsByName(*FlatTable::compute({p}, size_t(exactType(*p, type)), build));
            if (spread)
                data.edgesPerFile[i] = CallGraph::edgeWeights({p}, size_t(exactType(*p, type)), build);
        } catch (...) {
            errors[i] = std::current_exception();
        }
    });
    for (const std::exception_ptr &e : errors)
        if (e)
            std::rethrow_exception(e);
    if (!given)
        data.merged = sumsByName(*FlatTable::compute(round.profiles, size_t(firstType), build));
    if (data.perFile.size() == 1) {
        // The samples behind the values, as the diff counts them (DiffSide: a samples/count type of the same
        // samples, or the period when it is the value of every sample).
        const DiffSide side = DiffSide::fromProfiles(round.profiles, size_t(firstType), build);
        if (side.countTree) {
            data.roundSamples = double(side.countTree->total(CallTree::kRoot));
            data.countByName = sumsByName(*FlatTable::compute(side.countTree));
        } else if (side.valuePerSample > 0) {
            data.valuePerSample = side.valuePerSample;
            double value = 0;   // the round's whole value: one file's, or all steps' of a window
            for (const Observation &o : summary->observations)
                value += double(o.value);
            data.roundSamples = value / side.valuePerSample;
        } else {
            notes->push_back("round " + round.name + (given ? ": no sample counts: its functions' noise is unknown"
                                                            : ": one profile and no sample counts: its noise is unknown"));
        }
    }
    return data;
}

double functionSamples(const RoundData &d, const std::string &name, int64_t cum)
{
    if (d.valuePerSample > 0)
        return double(cum) / d.valuePerSample;
    const auto it = d.countByName.find(name);
    return it == d.countByName.end() ? 0 : double(it->second.cum);
}

// Per edge and round, the spread's standard error of its weight rate: the per-file weights (0 in a file without
// the edge) as observations, as a function's cum. Only the rounds of several files contribute.
std::vector<EdgeRounds> edgeRounds(const std::vector<RoundData> &data)
{
    std::map<std::pair<std::string, std::string>, size_t> index;
    for (const RoundData &d : data)
        for (const auto &file : d.edgesPerFile)
            for (const NamedEdgeWeight &e : file)
                index.emplace(std::pair{e.caller, e.callee}, 0);
    std::vector<EdgeRounds> out;
    out.reserve(index.size());
    for (auto &[key, slot] : index) {
        slot = out.size();
        out.push_back({key.first, key.second, std::vector<double>(data.size(), std::nan(""))});
    }
    for (size_t j = 0; j < data.size(); ++j) {
        const RoundData &d = data[j];
        if (d.edgesPerFile.empty())
            continue;
        std::vector<std::vector<int64_t>> weights(out.size());   // per edge, per file
        for (size_t i = 0; i < d.edgesPerFile.size(); ++i)
            for (const NamedEdgeWeight &e : d.edgesPerFile[i]) {
                std::vector<int64_t> &w = weights[index.at({e.caller, e.callee})];
                w.resize(d.edgesPerFile.size(), 0);
                w[i] = e.weight;
            }
        for (size_t e = 0; e < out.size(); ++e) {
            std::vector<Observation> perFile;
            for (size_t i = 0; i < d.edgesPerFile.size(); ++i)
                perFile.push_back({weights[e].empty() ? 0 : weights[e][i], d.durations[i], d.sources[i]});
            const RateEstimate r = estimateRate(perFile);
            if (r.basis == ErrorBasis::Spread && r.errorKnown())
                out[e].weightError[j] = r.standardError;
        }
    }
    return out;
}

}   // namespace

std::string RoundsResult::noiseRule() const
{
    if (noiseK == 0)
        return "noise test off: every change is called faster or slower by its sign";
    char k[32];
    snprintf(k, sizeof k, "%g", noiseK);
    return std::string("a change is faster or slower when |delta| > ") + k +
           " x SE_delta, else noise; SE_delta = sqrt(SE_base^2 + SE_round^2), each SE the ratio estimator's "
           "from the spread of the round's observations (Poisson for a round of one profile)";
}

RoundsResult compareRounds(const std::vector<RoundInput> &rounds, const RoundsOptions &options)
{
    if (rounds.empty())
        throw ProfileError("no rounds to compare");
    if (!std::isfinite(options.noiseK) || options.noiseK < 0)
        throw ProfileError("the noise setting must be a number of standard errors >= 0 (0 turns it off)");
    for (const RoundInput &r : rounds)
        if (r.profiles.empty())
            throw ProfileError("round " + r.name + (r.observations.empty() ? " has no profiles" : " has no tree"));

    const Profile &first = *rounds.front().profiles.front();
    const int typeIndex = options.sample.empty() ? first.effectiveDefaultType() : first.findSampleType(options.sample);
    if (typeIndex < 0)
        throw ProfileError("round " + rounds.front().name + ": " + first.sourceName + " has no sample type " +
                           (options.sample.empty() ? std::string() : "'" + options.sample + "' ") + "(it has: " +
                           sampleTypeList(first) + ")");
    RoundsResult result;
    result.sampleType = {first.typeName(size_t(typeIndex)), first.unitName(size_t(typeIndex))};
    result.granularity = options.granularity;
    result.noiseK = options.noiseK;

    std::vector<RoundData> data;
    for (const RoundInput &r : rounds) {
        RoundSummary s;
        s.name = r.name;
        data.push_back(readRound(r, result.sampleType, options, &s, &result.notes));
        s.estimate = estimateRate(s.observations, data.back().roundSamples);
        result.rounds.push_back(std::move(s));
    }
    for (size_t j = 0; j < result.rounds.size(); ++j) {
        RoundSummary &s = result.rounds[j];
        if (j == 0) {
            s.vsBaseline = s.vsPrevious = compareRates(s.estimate, s.estimate, options.noiseK);
            s.vsBaseline.verdict = s.vsPrevious.verdict = RoundVerdict::Baseline;
            continue;
        }
        s.vsBaseline = compareRates(result.rounds.front().estimate, s.estimate, options.noiseK);
        s.vsPrevious = compareRates(result.rounds[j - 1].estimate, s.estimate, options.noiseK);
    }

    // Every function any round has, in name order first so that the final sort's ties are settled by name.
    std::map<std::string, size_t> index;
    for (const RoundData &d : data)
        for (const auto &[name, sums] : d.merged)
            index.emplace(name, 0);
    const size_t n = rounds.size();
    result.functions.reserve(index.size());
    for (auto &[name, slot] : index) {
        slot = result.functions.size();
        FunctionRounds f;
        f.name = name;
        f.flat.assign(n, 0);
        f.cum.assign(n, 0);
        for (size_t j = 0; j < n; ++j) {
            if (const auto it = data[j].merged.find(name); it != data[j].merged.end()) {
                f.flat[j] = it->second.flat;
                f.cum[j] = it->second.cum;
            }
            std::vector<Observation> perFile;
            for (size_t i = 0; i < data[j].perFile.size(); ++i) {
                const auto it = data[j].perFile[i].find(name);
                perFile.push_back({it == data[j].perFile[i].end() ? 0 : it->second.cum, data[j].durations[i],
                                   data[j].sources[i]});
            }
            f.cumRate.push_back(estimateRate(perFile, perFile.size() == 1 ? functionSamples(data[j], name, f.cum[j])
                                                                          : 0));
        }
        for (size_t j = 0; j < n; ++j) {
            RateChange c = compareRates(f.cumRate.front(), f.cumRate[j], options.noiseK);
            if (j == 0)
                c.verdict = RoundVerdict::Baseline;
            f.vsBaseline.push_back(c);
        }
        result.functions.push_back(std::move(f));
    }
    result.edges = edgeRounds(data);
    std::stable_sort(result.functions.begin(), result.functions.end(),
                     [](const FunctionRounds &a, const FunctionRounds &b) {
                         const auto change = [](const FunctionRounds &f) {
                             const int64_t d = int64_t(uint64_t(f.cum.back()) - uint64_t(f.cum.front()));
                             return d < 0 ? uint64_t(0) - uint64_t(d) : uint64_t(d);
                         };
                         return change(a) > change(b);
                     });
    return result;
}

MeasuredNoise measuredNoiseBetween(const RoundsResult &result, size_t a, size_t b)
{
    MeasuredNoise noise;
    noise.normalization = Normalization::PerSecond;   // rates per second, as the per-second diff shows them
    auto measured = [](const RateEstimate &e) { return e.basis == ErrorBasis::Spread && e.errorKnown(); };
    auto combined = [](const RateEstimate &x, const RateEstimate &y) {
        return std::sqrt(x.standardError * x.standardError + y.standardError * y.standardError);
    };
    if (a >= result.rounds.size() || b >= result.rounds.size())
        return noise;
    const RateEstimate &ra = result.rounds[a].estimate, &rb = result.rounds[b].estimate;
    if (measured(ra) && measured(rb))
        noise.totalStandardError = combined(ra, rb);
    for (const FunctionRounds &f : result.functions)
        if (a < f.cumRate.size() && b < f.cumRate.size() && measured(f.cumRate[a]) && measured(f.cumRate[b]))
            noise.cumStandardError[f.name] = combined(f.cumRate[a], f.cumRate[b]);
    for (const EdgeRounds &e : result.edges)
        if (a < e.weightError.size() && b < e.weightError.size() && std::isfinite(e.weightError[a]) &&
            std::isfinite(e.weightError[b]))
            noise.edgeStandardError[{e.caller, e.callee}] =
                std::sqrt(e.weightError[a] * e.weightError[a] + e.weightError[b] * e.weightError[b]);
    noise.source = "the spread of the rounds " + result.rounds[a].name + " (" + std::to_string(ra.k) +
                   " observations) and " + result.rounds[b].name + " (" + std::to_string(rb.k) + ")";
    return noise;
}

}   // namespace qflame
