// What the level-by-level tree build (TreeByLevels.cpp) and its first look (FirstLookLevels.cpp) share: the
// cursor that walks one sample's stack root first, the nodes a level makes, and the cut of a first look.
// Private to model/tree.
#pragma once

#include "io/ReadOptions.h"
#include "pprof/Profile.h"
#include "tree/CallTreeBuilder.h"
#include "tree/FrameTable.h"

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace qflame::detail {

// One sample on its way down the tree: where its stack has got to, root first (or, in a bottom-up build, leaf
// first: Source::forward).
struct Cursor {
    int64_t value;
    uint32_t locPos;     // one past the next location of the stack (sampleLocations counts down to locStop);
                         // forward: the next location (counting up to locStop)
    uint32_t locStop;
    uint32_t framePos;   // the frames of the location being walked: locFrames[framePos, frameEnd)
    uint32_t frameEnd;
    FrameId last;        // the frame taken last (collapsing recursion skips a frame equal to it)
    uint32_t source;     // which profile
    // The aligned block of sampleLocations that holds the next location, read at once: the stacks lie
    // scattered over the profile, so reading a cursor's next location nearly always misses the caches, and one
    // miss brings the next three as well.
    static constexpr uint32_t kBlock = 4;
    uint32_t block[kBlock];
};

// The cursors' array: resized without initialising its elements (each cursor is written once by the thread that
// makes it, appendCursors), so that its pages are first written by the two threads that fill it.
template <typename T>
struct NoInitAllocator : std::allocator<T> {
    template <typename U>
    struct rebind {
        using other = NoInitAllocator<U>;
    };
    NoInitAllocator() = default;
    template <typename U>
    NoInitAllocator(const NoInitAllocator<U> &) noexcept
    {
    }
    template <typename U>
    void construct(U *p) noexcept
    {
        ::new (static_cast<void *>(p)) U;
    }
    template <typename U, typename... Args>
    void construct(U *p, Args &&...args)
    {
        ::new (static_cast<void *>(p)) U(std::forward<Args>(args)...);
    }
};
using Cursors = std::vector<Cursor, NoInitAllocator<Cursor>>;

struct Source {
    LocationIndexes::View sampleLocations;
    size_t size;   // of sampleLocations
    const uint32_t *locBegin;
    const FrameId *locFrames;
    const uint8_t *locKinds;
    // A bottom-up build's: the stacks are walked from the leaf (sampleLocations counted up), and locFrames holds
    // each location's frames innermost first. Asked once per location, the same for every cursor of a build.
    bool forward = false;
    // Each location's number of frames, a byte each, where every location has fewer than 255 (else null): what a
    // first look counts of a stack's levels below where it leaves the nodes kept (FirstLookParts.h's levelsLeft,
    // for every stack of the walk) then reads a byte a location instead of two offsets.
    const uint8_t *locLevels = nullptr;
    // Each location's frame where it has exactly one, reached as a call (CallTree::kCalled), else kSeveralFrames:
    // a first look's walk steps through such a location with one compare against the frame it expects next
    // (FirstLookWalk.cpp, "heavy paths"). Null: not made (the walk then takes every location frame by frame).
    const FrameId *locSingle = nullptr;
    static constexpr FrameId kSeveralFrames = UINT32_MAX - 1;   // no frame has this id
};

// Whether reading position q (= locPos - 1; forward: locPos) needs its block: the block of the position read
// before is the one held, except before the first read (frameEnd still 0; reading a block again then is harmless).
inline bool needsBlock(const Cursor &c, uint32_t q, bool forward)
{
    return q % Cursor::kBlock == (forward ? 0 : Cursor::kBlock - 1) || c.frameEnd == 0;
}

// Where a cursor will read its next block from, when it is about to, or null.
inline const void *blockToRead(const Cursor &c, const Source *sources)
{
    const Source &s = sources[c.source];
    const uint32_t q = s.forward ? c.locPos : c.locPos - 1;
    if (c.framePos != c.frameEnd || c.locPos == c.locStop || !needsBlock(c, q, s.forward))
        return nullptr;
    return s.sampleLocations.address(q & ~(Cursor::kBlock - 1));
}

// The next frame of c's stack and how it is entered (CallTree::kCalled / kInlined); false at its end.
inline bool advance(Cursor &c, const Source *sources, bool collapse, FrameId *frame, uint8_t *kind)
{
    const Source &s = sources[c.source];
    for (;;) {
        while (c.framePos < c.frameEnd) {
            const FrameId f = s.locFrames[c.framePos];
            const uint8_t k = s.locKinds[c.framePos++];
            if (collapse && f == c.last)   // collapsed: a direct self-call stays in its caller
                continue;
            c.last = f;
            *frame = f;
            *kind = k;
            return true;
        }
        if (c.locPos == c.locStop)
            return false;
        const uint32_t q = s.forward ? c.locPos++ : --c.locPos;
        if (needsBlock(c, q, s.forward)) {
            const uint32_t low = q & ~(Cursor::kBlock - 1);
            s.sampleLocations.visit([&](const auto *entries) {
                for (uint32_t j = 0; j < Cursor::kBlock && low + j < s.size; ++j)
                    c.block[j] = entries[low + j];
            });
        }
        const uint32_t loc = c.block[q % Cursor::kBlock];
        c.framePos = s.locBegin[loc];
        c.frameEnd = s.locBegin[loc + 1];
    }
}

struct Range {
    uint32_t begin, end;   // the cursors of one node
};

struct ProfileFrames;

// What making the cursors of a build learns of its samples.
struct CursorTotals {
    bool negative = false;
    unsigned __int128 rootTotal = 0;
    size_t steps = 0;   // locations of the kept stacks
    size_t kept = 0;    // samples kept (set by the build, not by appendCursors)
};

// The cursors of profile `pi`'s kept samples (value `type` not zero, kept by the filters), at their stacks'
// start, appended to `cursors` in sample order (LevelCursors.cpp). `input` is the caller's profile for
// options.sampleFilter; `done` counts samples for progress out of `total`.
void appendCursors(Cursors &cursors, const Profile &p, const Profile &input, ProfileFrames &pf,
                   size_t type, uint32_t pi, bool inverted, const BuildOptions &options, size_t &done, size_t total,
                   CursorTotals &totals);

// What the level loop knows of every node, in breadth-first order; parents, first children, depths and totals
// follow from it once all nodes are made, so the tree's arrays are allocated once, at their size. A first look
// also keeps, per node, whether it waits for its descendants (`culled`) and what the tree needs of them.
struct Nodes {
    std::vector<FrameId> frame;
    std::vector<uint8_t> kinds;
    std::vector<uint32_t> childCount;   // of a culled node: 0 (its children wait in `hiddenChildren`)
    std::vector<int64_t> self;
    std::vector<uint32_t> samples;   // that pass through the node
    // A first look's only:
    std::vector<uint8_t> culled;
    std::vector<int64_t> total;   // of a culled node: the sum of its stacks
    std::vector<uint32_t> hiddenChildren, hiddenSamples, hiddenHeight;
    void add(FrameId f, uint8_t k)
    {
        frame.push_back(f);
        kinds.push_back(k);
        childCount.push_back(0);
        self.push_back(0);
        samples.push_back(0);
    }
    void addCullable(FrameId f, uint8_t k, bool isCulled, int64_t sum)
    {
        add(f, k);
        culled.push_back(isCulled);
        total.push_back(sum);
        hiddenChildren.push_back(0);
        hiddenSamples.push_back(0);
        hiddenHeight.push_back(0);
    }
    size_t size() const { return frame.size(); }
};

// Which nodes a first look leaves without descendants: those whose total times the divisor is below the root's.
// The values are checked to be non-negative first, so the sums are exact in 128 bits.
struct Cut {
    unsigned __int128 rootTotal = 0;
    uint64_t divisor = 0;   // 0: no cut
    bool below(unsigned __int128 sum) const { return divisor != 0 && sum * divisor < rootTotal; }
};

// The stacks a first look walks, each at its start: the build's cursors, or the samples of one profile that no
// filter touches, read where they are. The first look of such a profile then needs no cursors: they are made
// after it, for the whole tree (r64: 36 MB, 7-9 ms before its first paint; TreeByLevels.cpp).
class StackStarts {
public:
    explicit StackStarts(const Cursors &cursors) : m_cursors(&cursors), m_size(uint32_t(cursors.size())) {}
    // Samples of profile `p` (source 0), value `type`: every sample is a stack but those whose value is zero.
    StackStarts(const Profile &p, size_t type, bool inverted)
        : m_size(uint32_t(p.sampleCount())), m_values(p.values.view()), m_type(type), m_stride(p.sampleTypes.size()),
          m_locBegin(p.sampleLocBegin.data()), m_inverted(inverted)
    {
    }

    uint32_t size() const { return m_size; }
    // The samples' own positions (Profile::sampleLocBegin) where the stacks are a profile's samples read where
    // they are, else null: stack i is then sample i, its locations [locBegin()[i], locBegin()[i + 1]).
    const uint32_t *locBegin() const { return m_cursors ? nullptr : m_locBegin; }
    // The value of stack i (zero: none), without making its cursor.
    int64_t valueOf(uint32_t i) const
    {
        return m_cursors ? (*m_cursors)[i].value : m_values[size_t(i) * m_stride + m_type];
    }
    // Stack i at its start, as appendCursors makes its cursor; false when sample i is none (value zero).
    bool at(uint32_t i, Cursor &c) const
    {
        if (m_cursors) {
            c = (*m_cursors)[i];
            return true;
        }
        const int64_t v = m_values[size_t(i) * m_stride + m_type];
        const uint32_t begin = m_locBegin[i], end = m_locBegin[i + 1];
        c.value = v;
        c.locPos = m_inverted ? begin : end;
        c.locStop = m_inverted ? end : begin;
        c.framePos = c.frameEnd = 0;
        c.last = FrameTable::kRoot;
        c.source = 0;
        c.block[0] = c.block[1] = c.block[2] = c.block[3] = 0;
        return v != 0;
    }

private:
    const Cursors *m_cursors = nullptr;
    uint32_t m_size = 0;
    SampleValues::View m_values;
    size_t m_type = 0, m_stride = 0;
    const uint32_t *m_locBegin = nullptr;
    bool m_inverted = false;
};

class StackLevels;

// A first look's nodes (FirstLookWalk.cpp); the stacks are left as they are. `levels`, when not null, counts the
// stacks' levels (StackLevels.h) until the walk begins.
Nodes firstLookNodes(const StackStarts &stacks, const std::vector<Source> &sources,
                     const std::vector<uint32_t> &rank, bool collapse, Cut cut, const ProgressFn &progress,
                     StackLevels *levels = nullptr);

}   // namespace qflame::detail
