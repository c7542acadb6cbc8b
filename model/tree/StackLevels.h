// How many levels each stack of a first look has (the frames of all its locations, root to leaf), counted on a
// helper thread from the build's start (TreeByLevels.cpp) while the caller guesses the first look's nodes
// (FirstLookWalk.cpp). A stack that leaves the guessed nodes must say how far it goes on below (a hidden node keeps
// the height of what it hides): with its count, that is the count less the depth where it left, instead of a read
// of the rest of the stack, about half of it (levelsLeft, FirstLookParts.h). Until the walk, which runs on both
// cores, the build runs on one while the window waits: a core mostly idle (r64: 20-35 ms), and counting every
// stack takes 10-17 ms there. The helper runs at the idle priority (SCHED_IDLE), so that it takes that core only
// where nothing else wants it, and the walk takes whatever it has counted by then.
//
// The counts are written into the array the walk keeps each stack's escape in (one entry a stack), which the walk
// reads before it writes there: the helper faults in memory the walk needs anyway, on the idle core. Counted into
// an array of their own, they cost 14 ms more than they saved where the heap gave fresh 4 KiB pages (glibc's usual
// heap: a view rebuilt after the first files are open).
//
// Measured on r64 (medians, taking turns with the build before; bench/floor-notes.md, session 44): the first look
// in qflame-bench-firstlook 45.1 -> 42.1 ms top-down (faster in 13 of 16), 57.1 -> 50.6 ms bottom-up (14 of 16);
// on glibc's usual heap 53.9 -> 48.2 (11 of 12) and 61.0 -> 53.0 ms (10 of 12). In the window, from the read to the
// first look, 47.8 -> 44.2 ms (24 of 30) and 54.5 -> 50.9 ms (21 of 30).
#pragma once

#include "tree/LevelCursor.h"

#include <atomic>
#include <thread>
#include <vector>

namespace qflame::detail {

class StackLevels {
public:
    using Array = std::vector<uint32_t, NoInitAllocator<uint32_t>>;

    // Starts counting the levels of `stacks` from the first one on, where they are one profile's samples read
    // where they are (StackStarts::locBegin) through the one source, whose locations' levels are known
    // (Source::locLevels), and recursion is not collapsed (then a stack's levels depend on its frames' order).
    // Counts none otherwise, or without a thread to be had.
    //
    // QFLAME_STACK_LEVELS=N in the environment (tests, measurements) counts the first N stacks exactly, at the
    // usual priority, and finish() waits until they are: which stacks were counted no longer depends on the timing.
    StackLevels(const StackStarts &stacks, const std::vector<Source> &sources, bool collapse);
    ~StackLevels();
    StackLevels(const StackLevels &) = delete;
    StackLevels &operator=(const StackLevels &) = delete;

    // Ends the count (the walk needs both cores) and hands over the array: of stacks [0, counted) their levels, of
    // the others nothing yet; empty when nothing was counted. Call once.
    struct Counts {
        Array levels;
        uint32_t counted = 0;
    };
    Counts finish();

private:
    void count(uint32_t upTo);

    const StackStarts m_stacks;   // the samples' arrays, which outlive this
    Source m_source{};
    Array m_levels;               // the helper's until finish()
    std::atomic<uint32_t> m_counted{0};
    std::atomic<bool> m_stop{false};
    bool m_exactly = false;       // QFLAME_STACK_LEVELS
    std::thread m_thread;
};

}   // namespace qflame::detail
