#include "Exercise.h"

#include "formats/ChromeCpuProfileFormat.h"
#include "formats/FlamebearerFormat.h"
#include "formats/SpeedscopeFormat.h"
#include "formats/FoldedFormat.h"
#include "formats/LegacyPprofFormat.h"
#include "formats/PerfScriptFormat.h"
#include "formats/ProfileInput.h"
#include "names/Demangle.h"
#include "time/Heatmap.h"
#include "time/RangeDiff.h"
#include "time/TimeRange.h"
#include "time/Timeline.h"
#include "tree/CallTreeBuilder.h"
#include "tree/FlatTable.h"
#include "tree/PprofRegex.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace qflame::fuzz {

namespace {

[[noreturn]] void fail(const char *what)
{
    std::fprintf(stderr, "qflame fuzz: invariant broken: %s\n", what);
    std::abort();
}

// The sum of one sample type over a profile's samples, wrapping as the model's sums do.
int64_t totalOf(const Profile &p, size_t type)
{
    uint64_t sum = 0;
    for (size_t s = 0; s < p.sampleCount(); ++s)
        sum += uint64_t(p.value(s, type));
    return int64_t(sum);
}

// What the Time tab and `heatmap`/`--from/--to` compute from a timeline (model/time, issue #35), with its
// invariants: events in time order on known samples and threads, ending at spanNanos; a heatmap's cells sum to
// the whole range's total, and the two halves of the recording sum to it too; the halves' diff builds.
void exerciseTimeline(const std::shared_ptr<const Profile> &profile)
{
    const Timeline &t = *profile->timeline;
    if (t.delta.size() != t.size() || (!t.weight.empty() && t.weight.size() != t.size()) || t.threadNames.empty())
        fail("timeline arrays differ in length");
    int64_t last = 0;
    size_t events = 0;
    t.forEach([&](size_t, int64_t nanos, uint32_t s, int64_t) {
        if (s >= profile->sampleCount() || t.threadOf(s) >= t.threadNames.size())
            fail("timeline event on an unknown sample or thread");
        if (nanos < last)
            fail("timeline events out of time order");
        last = nanos, ++events;
    });
    if (events != t.size() || last != t.spanNanos)
        fail("timeline span is not its last event's time");
    const int64_t mid = t.spanNanos / 2;
    const auto whole = profileInRange(profile, TimeRange{});
    const auto first = profileInRange(profile, TimeRange{std::numeric_limits<int64_t>::min(), mid});
    const auto second = profileInRange(profile, TimeRange{mid, std::numeric_limits<int64_t>::max()});
    HeatmapOptions o;
    o.columnNanos = t.spanNanos / 64 + 1;   // at most 65 columns
    o.rows = 7;
    for (size_t type = 0; type < std::min<size_t>(profile->sampleTypes.size(), 4); ++type) {
        o.type = type;
        const Heatmap h = computeHeatmap(*profile, o);
        uint64_t cells = 0;
        for (int64_t v : h.cells)
            cells += uint64_t(v);
        const int64_t total = totalOf(*whole, type);
        if (int64_t(cells) != total)
            fail("heatmap cells do not sum to the timeline's total");
        if (int64_t(uint64_t(totalOf(*first, type)) + uint64_t(totalOf(*second, type))) != total)
            fail("two halves of a timeline do not sum to the whole");
    }
    if (!profile->sampleTypes.empty())
        diffTimeRanges(profile, TimeRange{std::numeric_limits<int64_t>::min(), mid},
                       TimeRange{mid, std::numeric_limits<int64_t>::max()}, 0);
}

}   // namespace

// A tree the window can draw: ids are breadth-first (a parent below its children), every total is its self plus
// its children's totals, and the flat table holds frames the tree knows.
void checkTree(const CallTree &tree, const FlatTable &flat)
{
    if (tree.size() == 0)
        fail("empty tree");
    for (NodeId n = 1; n < tree.size(); ++n) {
        if (tree.parent(n) >= n)
            fail("parent id not below child id");
        if (tree.depth(n) != tree.depth(tree.parent(n)) + 1)
            fail("depth is not parent depth + 1");
    }
    std::vector<int64_t> sum(tree.size(), 0);
    // Wrapping sums: hostile values may overflow int64, which the builder must not turn into UB either.
    for (NodeId n = NodeId(tree.size()); n-- > 0;) {
        const uint64_t total = uint64_t(sum[n]) + uint64_t(tree.self(n));
        if (int64_t(total) != tree.total(n))
            fail("total != self + children's totals");
        if (n > 0)
            sum[tree.parent(n)] = int64_t(uint64_t(sum[tree.parent(n)]) + total);
    }
    for (const FlatRow &row : flat.rows())
        if (row.frame >= tree.frames().size())
            fail("flat row names an unknown frame");
}

Outcome exerciseProfile(std::string_view bytes, std::string *message, Reader reader)
{
    ReadOptions options;
    options.maxDecompressedBytes = kMaxDecompressed;
    try {
        std::shared_ptr<const Profile> profile;
        switch (reader) {
        case Reader::Any: profile = readProfile(bytes, "fuzz", options); break;
        case Reader::Pprof: profile = readPprof(bytes, "fuzz", options); break;
        case Reader::Folded: profile = readFolded(bytes, "fuzz"); break;
        case Reader::Flamebearer: profile = readFlamebearer(bytes, "fuzz"); break;
        case Reader::PerfScript:
            // Names from perf script --no-demangle are what the demangler gets in practice: its simple mode
            // (which also rewrites template arguments by hand) runs on every fuzzed name, then the collapse of
            // template arguments (--collapse-templates) on what it leaves.
            profile = collapseTemplates(demangleProfile(readPerfScript(bytes, "fuzz", options), DemangleMode::Simple));
            break;
        case Reader::Speedscope: profile = readSpeedscope(bytes, "fuzz", options); break;
        case Reader::ChromeCpuProfile: profile = readChromeCpuProfile(bytes, "fuzz", options); break;
        case Reader::LegacyPprof: profile = readLegacyPprof(bytes, "fuzz", options); break;
        }
        const size_t types = std::min<size_t>(profile->sampleTypes.size(), 4);
        for (size_t t = 0; t < types; ++t) {
            auto tree = CallTreeBuilder::build({profile}, t);
            auto flat = FlatTable::compute(tree);
            checkTree(*tree, *flat);
        }
        if (profile->timeline)
            exerciseTimeline(profile);
        return Outcome::Tree;
    } catch (const ProfileError &e) {
        if (message)
            *message = e.what();
        return Outcome::ProfileError;
    } catch (const FilterError &e) {   // a profile's own drop_frames/keep_frames regex that does not compile
        if (message)
            *message = e.what();
        return Outcome::FilterError;
    }
}

}   // namespace qflame::fuzz
