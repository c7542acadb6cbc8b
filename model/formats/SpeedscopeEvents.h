// An evented speedscope profile's time per distinct stack, for formats/SpeedscopeFormat.cpp, which reads the
// events: the stacks open form a tree (a trie of frames), each event moves along it, and the time between two
// events goes to the node of the stack open then. The tree has at most one node per open event, and each
// distinct stack is emitted once. The profiles of one file (one per thread, speedscope's meaning) each have a
// root of their own, so their stacks stay apart and keep their thread.
#pragma once

#include "formats/StackProfile.h"
#include "io/ReadOptions.h"
#include "time/Timeline.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace qflame {

class SpeedscopeEventTree {
public:
    // `errorPrefix` starts every ProfileError ("FILE: speedscope: "); `timed`: the events' intervals are kept
    // for the timeline (a profile in time units).
    SpeedscopeEventTree(std::string errorPrefix, bool timed) : m_prefix(std::move(errorPrefix)), m_timed(timed) {}
    // A profile's events start: nothing open, its own root, on the thread named `thread`.
    void beginProfile(std::string_view thread);
    // One event at `time`: type 'O' opens `frame` (its location `location`), 'C' closes it (the innermost open
    // frame); another type is an error naming `typeText`. `where` names the event in errors.
    void event(char type, std::string_view typeText, int64_t frame, uint64_t location, int64_t time,
               const std::function<std::string()> &where);
    // The frames still open last until `time` (the profile's endValue).
    void closeAt(int64_t time) { account(time); }
    // The stacks with time into `builder` (one sample each), then the timeline of the intervals when timed.
    void finish(StackProfileBuilder &builder);
    // What it holds, counted as grown when the next node or interval would grow it (the readers' budgets).
    uint64_t bytes() const;
    // Whether the next new node or interval grows an array: the reader counts its memory first.
    bool full() const { return m_nodes.size() == m_nodes.capacity() || m_events.grownBytes() != m_events.bytes(); }

private:
    struct Node {
        uint32_t location;   // a root's: its thread
        uint32_t frame;      // to match closes; kRoot for a profile's root
        uint32_t parent;
        int64_t self;
    };
    static constexpr uint32_t kRoot = UINT32_MAX;
    [[noreturn]] void fail(const std::string &what) const { throw ProfileError(m_prefix + what); }
    void account(int64_t time);
    void interval(uint32_t node, int64_t start, int64_t length);

    std::string m_prefix;
    bool m_timed;
    std::vector<Node> m_nodes;
    StackProfileBuilder::HashSlots m_childOf;   // (parent, frame) -> node
    uint32_t m_root = 0, m_at = 0;              // the profile's root, and the node of the stack open now
    int64_t m_last = 0;
    TimelineBuilder m_events;                   // per interval: its node, start and length
    uint32_t m_lastNode = 0;                    // the last interval's node and end
    int64_t m_lastEnd = -1;
};

}   // namespace qflame
