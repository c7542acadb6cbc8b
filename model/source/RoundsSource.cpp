#include "source/RoundsSource.h"

#include "io/ReadOptions.h"
#include "pprof/SampleTypes.h"
#include "source/FunctionSource.h"
#include "source/SourceListing.h"

#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>
#include <exception>
#include <map>
#include <numeric>
#include <utility>

namespace qflame {

namespace {

// A round's costs by (function, file), each a map of lines, for lookups while the union's lines are filled in.
using FileKey = std::pair<std::string, std::string>;
using CostIndex = std::map<FileKey, const FileLineCosts *>;

CostIndex indexCosts(const LineCosts &costs)
{
    CostIndex out;
    for (const FunctionLineCosts &fn : costs.functions)
        for (const FileLineCosts &f : fn.files)
            out[{fn.name, f.file}] = &f;
    return out;
}

LineCost lookup(const CostIndex &index, const FileKey &key, int64_t line)
{
    const auto f = index.find(key);
    if (f == index.end())
        return {};
    const auto l = f->second->lines.find(line);
    return l == f->second->lines.end() ? LineCost{} : l->second;
}

int typeOf(const Profile &p, const SampleTypeInfo &type, const std::string &round)
{
    const int t = findExactSampleType(p, type.type, type.unit);
    if (t < 0)
        throw ProfileError("round " + round + ": " + p.sourceName + " has no sample type " + type.type + "/" +
                           type.unit);
    return t;
}

// What one round brings to the listing: its merged costs, its files' own costs (for the spread), the samples
// behind a one-file round's lines (for Poisson) and the observations' durations.
struct RoundCosts {
    LineCosts merged;
    CostIndex mergedIndex;
    std::vector<LineCosts> perFile;        // two files or more
    std::vector<CostIndex> perFileIndex;
    std::vector<int64_t> durations;        // per file; one entry (the window) for a server's round
    LineCosts counts;                      // one file (or a window): samples/count, when the profile has it
    CostIndex countsIndex;
    bool countsKnown = false;
    std::string basis;
};

RoundCosts roundCosts(const RoundInput &round, const SampleTypeInfo &type, const Regex &re,
                      const SourceFinder &finder, int64_t givenDuration)
{
    RoundCosts rc;
    if (round.profiles.empty())
        throw ProfileError("round " + round.name + " has no profiles");
    const Profile &first = *round.profiles.front();
    rc.merged = lineCostsFor(round.profiles, size_t(typeOf(first, type, round.name)), re, finder);
    rc.mergedIndex = indexCosts(rc.merged);
    const bool given = !round.observations.empty();
    if (given) {
        int64_t d = 0;
        for (const Observation &o : round.observations)
            d = o.durationNanos > 0 && d >= 0 ? d + o.durationNanos : -1;
        rc.durations = {std::max<int64_t>(d, 0)};
    } else {
        for (const auto &p : round.profiles)
            rc.durations.push_back(p->durationNanos > 0 ? p->durationNanos : std::max<int64_t>(givenDuration, 0));
    }
    if (!given && round.profiles.size() >= 2) {
        rc.perFile.resize(round.profiles.size());
        std::vector<std::exception_ptr> errors(round.profiles.size());
        std::vector<size_t> indexes(round.profiles.size());
        std::iota(indexes.begin(), indexes.end(), size_t(0));
        // A round may hold a hundred files: the pool's threads share them (the finder is only read here).
        QtConcurrent::blockingMap(indexes, [&](size_t i) {
            try {
                const auto &p = round.profiles[i];
                rc.perFile[i] = lineCostsFor({p}, size_t(typeOf(*p, type, round.name)), re, finder);
            } catch (...) {
                errors[i] = std::current_exception();
            }
        });
        for (const std::exception_ptr &e : errors)
            if (e)
                std::rethrow_exception(e);
        for (const LineCosts &c : rc.perFile)
            rc.perFileIndex.push_back(indexCosts(c));
        rc.basis = "spread of " + std::to_string(round.profiles.size()) + " files";
        return rc;
    }
    const int counts = findExactSampleType(first, "samples", "count");
    if (counts >= 0) {
        rc.counts = lineCostsFor(round.profiles, size_t(counts), re, finder);
        rc.countsIndex = indexCosts(rc.counts);
        rc.countsKnown = true;
        rc.basis = "Poisson (samples/count)";
    } else {
        rc.basis = "unknown (one profile, no samples/count)";
    }
    return rc;
}

RateEstimate lineRate(const RoundCosts &rc, const FileKey &key, int64_t line, int64_t cum)
{
    std::vector<Observation> obs;
    if (!rc.perFileIndex.empty()) {
        for (size_t i = 0; i < rc.perFileIndex.size(); ++i)
            obs.push_back({lookup(rc.perFileIndex[i], key, line).cum, rc.durations[i], {}});
        return estimateRate(obs);
    }
    int64_t duration = 0;
    for (int64_t d : rc.durations)
        duration = d > 0 && duration >= 0 ? duration + d : -1;
    obs.push_back({cum, std::max<int64_t>(duration, 0), {}});
    const double samples = rc.countsKnown ? double(lookup(rc.countsIndex, key, line).cum) : 0;
    return estimateRate(obs, samples);
}

}   // namespace

RoundsSource listFunctionRounds(const std::vector<RoundInput> &rounds, const SampleTypeInfo &type,
                                const std::string &function, const SourcePaths &paths, double noiseK,
                                int64_t durationNanos)
{
    RoundsSource out;
    try {
        if (rounds.empty())
            throw ProfileError("no rounds to list");
        std::vector<std::shared_ptr<const Profile>> all;
        for (const RoundInput &r : rounds)
            all.insert(all.end(), r.profiles.begin(), r.profiles.end());
        if (all.empty())
            throw ProfileError("round " + rounds.front().name + " has no profiles");
        SourceFinder finder = sourceFinderFor(paths, all);
        const Regex re = exactFunction(function);

        std::vector<RoundCosts> costs;
        for (const RoundInput &r : rounds)
            costs.push_back(roundCosts(r, type, re, finder, durationNanos));
        // The lines shown are those of every round together (as a comparison shows both sides' lines), chosen
        // and read as `qflame list` does; each round's values are then looked up per line.
        const LineCosts together = lineCostsFor(all, size_t(typeOf(*all.front(), type, rounds.front().name)), re,
                                                finder);
        const SourceListing shown = listSource(together, finder);

        auto listing = std::make_shared<RoundsSourceListing>();
        listing->sampleType = type.type;
        listing->unit = type.unit;
        listing->noiseK = noiseK;
        for (size_t j = 0; j < rounds.size(); ++j) {
            listing->rounds.push_back(rounds[j].name);
            listing->errorBasis.push_back(costs[j].basis);
        }
        for (const ListedFile &lf : shown.files) {
            RoundsListedFile rf;
            rf.function = lf.function;
            rf.file = lf.file;
            rf.readFile = lf.readFile;
            rf.error = lf.error;
            rf.foundIn = lf.foundIn;
            rf.linesPastEnd = lf.linesPastEnd;
            const FileKey key{lf.function, lf.file};
            for (const RoundCosts &rc : costs) {
                const auto f = rc.mergedIndex.find(key);
                rf.totals.push_back(f == rc.mergedIndex.end() ? LineCost{} : LineCost{f->second->flat, f->second->cum});
            }
            for (const ListedLine &l : lf.lines) {
                RoundsListedLine rl;
                rl.line = l.line;
                rl.text = l.text;
                for (const RoundCosts &rc : costs) {
                    rl.cost.push_back(lookup(rc.mergedIndex, key, l.line));
                    rl.cumRate.push_back(lineRate(rc, key, l.line, rl.cost.back().cum));
                }
                for (size_t j = 0; j < costs.size(); ++j) {
                    RateChange c = compareRates(rl.cumRate.front(), rl.cumRate[j], noiseK);
                    if (j == 0)
                        c.verdict = RoundVerdict::Baseline;
                    rl.vsBaseline.push_back(c);
                }
                rf.lines.push_back(std::move(rl));
            }
            listing->files.push_back(std::move(rf));
        }
        out.listing = std::move(listing);
    } catch (const std::exception &e) {
        out.error = QString::fromUtf8(e.what());
    }
    return out;
}

}   // namespace qflame
