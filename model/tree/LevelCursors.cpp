// The level build's cursors (TreeByLevels.cpp): one per kept sample, at its stack's start.
//
// 48 bytes a sample, 36 MB on r64's 743,341 samples, written once: the time is the first writes to fresh pages,
// not the work (92 % of the loop's samples in perf on its three stores). So the array asks for huge pages, and
// a large profile's samples are split between two threads, the upper half into an array of its own that is
// appended (a copy of 18 MB at memory speed, against 9,000 page faults of 7-20 us each on one thread).
#include "tree/LevelCursor.h"

#include "io/BesideThread.h"
#include "io/Prefault.h"
#include "tree/ProfileFrames.h"

namespace qflame::detail {

namespace {

// Samples [from, to) of one profile, appended to `out`; progress and cancel only where `progress` is given.
void fill(std::vector<Cursor> &out, const Profile &p, const Profile &input, ProfileFrames &pf, size_t type,
          uint32_t pi, bool inverted, const BuildOptions &options, size_t from, size_t to, const ProgressFn *progress,
          size_t &done, size_t total, CursorTotals &totals)
{
    for (size_t s = from; s < to; ++s) {
        if (progress && *progress && (++done & 0x7fff) == 0 && !(*progress)(0.1 * double(done) / double(total)))
            throw Cancelled();
        const int64_t v = p.value(s, type);
        if (v == 0)   // pprof skips zero samples entirely: they add neither nodes nor edges
            continue;
        if (options.sampleFilter && !options.sampleFilter(input, s))   // the caller's profile
            continue;
        size_t begin, end;
        if (!pf.sampleRange(s, begin, end))
            continue;
        if (inverted)   // from the leaf: [begin, end) counted up
            out.push_back({v, uint32_t(begin), uint32_t(end), 0, 0, FrameTable::kRoot, pi, {}});
        else
            out.push_back({v, uint32_t(end), uint32_t(begin), 0, 0, FrameTable::kRoot, pi, {}});
        totals.steps += end - begin;
        totals.negative = totals.negative || v < 0;
        totals.rootTotal += uint64_t(v);
    }
}

}   // namespace

void appendCursors(std::vector<Cursor> &cursors, const Profile &p, const Profile &input, ProfileFrames &pf,
                   size_t type, uint32_t pi, bool inverted, const BuildOptions &options, size_t &done, size_t total,
                   CursorTotals &totals)
{
    const size_t n = p.sampleCount();
    // Two threads where nothing but the samples' own arrays is read (a filter keeps state of its own).
    if (n < 65536 || options.sampleFilter || pf.filter) {
        fill(cursors, p, input, pf, type, pi, inverted, options, 0, n, &options.progress, done, total, totals);
        return;
    }
    const size_t mid = n / 2;
    std::vector<Cursor> upper;
    upper.reserve(n - mid);
    adviseHugePages(upper.data(), upper.capacity() * sizeof(Cursor));
    CursorTotals upperTotals;
    size_t upperDone = 0;
    runBeside([&] { fill(upper, p, input, pf, type, pi, inverted, options, mid, n, nullptr, upperDone, total, upperTotals); },
              [&] { fill(cursors, p, input, pf, type, pi, inverted, options, 0, mid, &options.progress, done, total, totals); });
    cursors.insert(cursors.end(), upper.begin(), upper.end());
    done += n - mid;
    totals.steps += upperTotals.steps;
    totals.negative = totals.negative || upperTotals.negative;
    totals.rootTotal += upperTotals.rootTotal;
}

}   // namespace qflame::detail
