// The level build's cursors (TreeByLevels.cpp): one per kept sample, at its stack's start.
//
// 48 bytes a sample, 36 MB on r64's 743,341 samples, written once: the time is the first writes to fresh pages,
// not the work (92 % of the loop's samples in perf on its three stores). So the array asks for huge pages, and
// a large profile's samples are split between two threads, each writing its half in place (the array is sized
// first without being initialised), so that every page is first written once, by the thread that fills it.
#include "tree/LevelCursor.h"

#include "io/BesideThread.h"
#include "tree/ProfileFrames.h"

#include <cstring>

namespace qflame::detail {

namespace {

// Samples [from, to) of one profile, written from `out` on; returns how many were kept. Progress and cancel only
// where `progress` is given.
size_t fill(Cursor *out, const Profile &p, const Profile &input, ProfileFrames &pf, size_t type, uint32_t pi,
            bool inverted, const BuildOptions &options, size_t from, size_t to, const ProgressFn *progress,
            size_t &done, size_t total, CursorTotals &totals)
{
    size_t kept = 0;
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
            out[kept++] = {v, uint32_t(begin), uint32_t(end), 0, 0, FrameTable::kRoot, pi, {}};
        else
            out[kept++] = {v, uint32_t(end), uint32_t(begin), 0, 0, FrameTable::kRoot, pi, {}};
        totals.steps += end - begin;
        totals.negative = totals.negative || v < 0;
        totals.rootTotal += uint64_t(v);
    }
    return kept;
}

}   // namespace

void appendCursors(Cursors &cursors, const Profile &p, const Profile &input, ProfileFrames &pf, size_t type,
                   uint32_t pi, bool inverted, const BuildOptions &options, size_t &done, size_t total,
                   CursorTotals &totals)
{
    const size_t n = p.sampleCount();
    // Room for every sample, not initialised (Cursors): each cursor is written once, where it stays.
    const size_t base = cursors.size();
    cursors.resize(base + n);
    Cursor *out = cursors.data() + base;
    // Two threads where nothing but the samples' own arrays is read (a filter keeps state of its own).
    if (n < 65536 || options.sampleFilter || pf.filter) {
        cursors.resize(base + fill(out, p, input, pf, type, pi, inverted, options, 0, n, &options.progress, done,
                                   total, totals));
        return;
    }
    // The upper half written from the middle on; moved down after the lower half if that kept fewer than all
    // (zero samples): before, it went to an array of its own and was copied, 18 MB more of fresh memory on r64.
    const size_t mid = n / 2;
    CursorTotals upperTotals;
    size_t upperDone = 0, low = 0, high = 0;
    runBeside([&] { high = fill(out + mid, p, input, pf, type, pi, inverted, options, mid, n, nullptr, upperDone, total, upperTotals); },
              [&] { low = fill(out, p, input, pf, type, pi, inverted, options, 0, mid, &options.progress, done, total, totals); });
    if (low < mid)
        std::memmove(static_cast<void *>(out + low), out + mid, high * sizeof(Cursor));
    cursors.resize(base + low + high);
    done += n - mid;
    totals.steps += upperTotals.steps;
    totals.negative = totals.negative || upperTotals.negative;
    totals.rootTotal += upperTotals.rootTotal;
}

}   // namespace qflame::detail
