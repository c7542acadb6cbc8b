#include "pgo/PgoReadiness.h"

#include <cstdio>

namespace qflame {

namespace {

bool hasInlineFrames(const Profile &p)
{
    for (const Location &l : p.locations)
        if (l.lineCount > 1)
            return true;
    return false;
}

bool isCpuType(const Profile &p, const ValueType &t)
{
    return p.str(t.type) == "cpu" && p.str(t.unit) == "nanoseconds";
}

bool isCpuProfile(const Profile &p)
{
    if (isCpuType(p, p.periodType))
        return true;
    for (const ValueType &t : p.sampleTypes)
        if (isCpuType(p, t))
            return true;
    return false;
}

PgoReadinessLine density(const std::vector<std::shared_ptr<const Profile>> &profiles, const std::string &type)
{
    // Samples taken against samples the window could hold, summed over the files (a merge adds durations).
    double samples = 0, periods = 0;
    for (const auto &p : profiles) {
        if (p->period <= 0 || p->durationNanos <= 0)
            return {PgoLevel::Warning, "sample-density",
                    p->sourceName + " gives no period or duration_nanos: the sample density cannot be judged"};
        const int index = pgoSampleTypeIndex(*p);
        const double total = index < 0 ? 0 : double(p->total(size_t(index)));
        samples += type == "samples/count" ? total : total / double(p->period);
        periods += double(p->durationNanos) / double(p->period);
    }
    const std::string counts = std::to_string(int64_t(samples)) + " samples in " +
                               std::to_string(int64_t(periods)) + " periods of the window (" +
                               pgoShareText(samples / periods * 100) + " of one CPU)";
    if (samples * 100 < periods)
        return {PgoLevel::Warning, "sample-density",
                counts + ": fewer than 1 sample per 100 periods, the edges are mostly noise; profile longer or "
                         "under more load"};
    return {PgoLevel::Ok, "sample-density", counts};
}

}   // namespace

std::vector<PgoReadinessLine> pgoReadiness(const std::vector<std::shared_ptr<const Profile>> &profiles,
                                           const PgoEdges &edges, uint64_t inputBytes)
{
    std::vector<PgoReadinessLine> lines;
    lines.push_back({PgoLevel::Ok, "sample-type", "weights are " + edges.sampleType});

    size_t samples = 0;
    for (const auto &p : profiles)
        samples += p->sampleCount();
    if (edges.hasStartLines)
        lines.push_back({PgoLevel::Ok, "start-lines", "functions have Function.start_line"});
    else if (samples == 0)   // the compiler takes a profile without samples as empty before it looks for them
        lines.push_back({PgoLevel::Ok, "start-lines", "no samples, so no start lines needed: go build -pgo accepts "
                                                      "the profile and changes nothing"});
    else
        lines.push_back({PgoLevel::Error, "start-lines",
                         "no Function.start_line: go build -pgo rejects the profile (a Go runtime before 1.20, or a "
                         "re-symbolised profile); offsets below are absolute lines"});

    bool inlined = false;
    for (const auto &p : profiles)
        inlined = inlined || hasInlineFrames(*p);
    if (inlined)
        lines.push_back({PgoLevel::Ok, "inline-frames", "the profile records inline frames"});
    else
        lines.push_back({PgoLevel::Warning, "inline-frames",
                         "no inline frames: calls the profiled build inlined are invisible, so PGO's choices drift "
                         "from one round to the next"});

    if (edges.unnamedEdges == 0)
        lines.push_back({PgoLevel::Ok, "function-names", "every edge has named functions"});
    else
        lines.push_back({PgoLevel::Warning, "function-names",
                         std::to_string(edges.unnamedEdges) + " of " + std::to_string(edges.edges.size()) +
                             " edges (" + pgoShareText(pgoPercent(edges.unnamedWeight, edges.totalWeight)) +
                             " of the weight) have a frame without a function name: the compiler matches them to "
                             "no call"});

    lines.push_back(density(profiles, edges.sampleType));

    std::string notCpu;
    for (const auto &p : profiles)
        if (!isCpuProfile(*p) && notCpu.empty())
            notCpu = p->sourceName;
    if (notCpu.empty())
        lines.push_back({PgoLevel::Ok, "cpu-profile", "a CPU profile"});
    else
        lines.push_back({PgoLevel::Warning, "cpu-profile",
                         notCpu + " is not a CPU profile (no cpu/nanoseconds period or sample type): its counts "
                                  "weight the edges by something other than CPU time"});

    const std::string size = std::to_string(inputBytes) + " bytes";
    if (inputBytes == 0)
        lines.push_back({PgoLevel::Ok, "size", "the input's size is unknown (standard input)"});
    else if (inputBytes > kPgoLargeInputBytes)
        lines.push_back({PgoLevel::Warning, "size",
                         size + ", over 10 MiB: every package's compile parses the whole profile; a preprofile "
                                "(--preprofile) skips that"});
    else
        lines.push_back({PgoLevel::Ok, "size", size});
    return lines;
}

std::string formatReadinessLine(const PgoReadinessLine &line)
{
    const char *level = line.level == PgoLevel::Ok ? "ok" : line.level == PgoLevel::Warning ? "warning" : "error";
    return std::string(level) + ": " + line.check + ": " + line.message;
}

}   // namespace qflame
