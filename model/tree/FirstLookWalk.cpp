// A first look's nodes (tree/StagedTree.h), found by walking each stack once through the nodes it will have.
//
// The whole tree's build sorts the cursors level by level (TreeByLevels.cpp): each level moves every cursor still
// on its way and reads its next location, about 45 MB a level on r64 (743,341 samples, 33 levels), and most of
// r64's cursors stay inside nodes a first look keeps down to level 20 or so. Its first look took 390 ms sorted,
// and as long counted level by level (FirstLookCount.cpp): the time is the passes, not the sorting. Here each
// stack is walked once, root first, through a small table of nodes: those a first look keeps are few (31,905 of
// r64's 1.9 million), and they are guessed first, from the first look (with two thirds of the cut) at a tenth of
// the stacks drawn with probability proportional to value, itself walked from a guess at a tenth of those, down to
// a sample small enough to count. A stack walks down through the guessed nodes, each one's two busiest children
// tried first, and stops at the first node that is not one of them ("escaped"); it adds to the last guessed node
// and to the escaped one (a guessed node's sums are then those of its subtree, added up after the walk). Then
// every node's sums are exact, and the only wrong guess that matters is a missed one: an escaped node at or above
// the cut below a kept node. Such a node joins the guesses, and its stacks (only those) go on one level; again
// until none is missed.
//
// The nodes are those the sorted build makes with the same cut, in the same order: breadth-first, the children
// of a node by label rank (tst_stagedtree compares them node by node with the whole tree's).
#include "tree/FirstLookParts.h"
#include "tree/StackLevels.h"

#include "io/BesideThread.h"
#include "io/Prefault.h"
#include "io/ReadOptions.h"

#include <algorithm>
#include <atomic>
#include <numeric>

namespace qflame::detail {

namespace {

// An array of one entry per stack (3 MB on r64), filled at once: on huge pages, as the cursors (LevelCursors.cpp);
// 4 KiB pages cost about 750 faults each here, 17-22 us apiece on this project's VM, in the first look's wait.
template <typename Vector>
void reserveHuge(Vector &v, size_t n)
{
    if (v.capacity() >= n)
        return;
    v.reserve(n);
    adviseHugePages(v.data(), v.capacity() * sizeof(typename Vector::value_type));
}

// The walk through the guessed nodes (see the top).
class Walk {
public:
    // `counts`: of stacks [0, counts.counted), their levels (StackLevels.h), in the array that becomes the walk's
    // escapes.
    Walk(const StackStarts &stacks, const std::vector<Source> &sources, const std::vector<uint32_t> &rank,
         bool collapse, Cut cut, const ProgressFn &progress, StackLevels::Counts counts = {})
        : m_stacks(stacks), m_sources(sources), m_rank(rank), m_collapse(collapse), m_cut(cut), m_progress(progress),
          m_counted(counts.levels.size() == stacks.size() ? counts.counted : 0), m_escapeOf(std::move(counts.levels))
    {
    }

    // The first look. The stacks are read only: a stack that goes on past where it escaped is made again there
    // (cursorAtEscape), and on r64 at the window's cut none does.
    Nodes run(const Nodes &guess)
    {
        takeGuesses(guess);
        walkAll();
        m_isOpen.assign(1, true);
        // The stacks that go on: first those of any missed node, then of the missed nodes below those, each with
        // its cursor where it is. Listed from the second round on (the first looks at every stack): a list of all
        // of them would be 3 MB on r64, about 750 page faults in the first look's wait.
        std::vector<uint32_t> goingOn;
        std::vector<Cursor> goingOnAt;
        for (size_t checked = 0, round = 0;; ++round) {
            markOpen();
            const size_t joined = promote(checked);
            checked = m_escaped.size();
            if (joined == 0)
                break;
            const auto joinedAs = [&](uint32_t i) {
                const uint32_t e = m_escapeOf[i];
                return e == kEmpty || e >= m_joinedAs.size() ? kEmpty : m_joinedAs[e];
            };
            if (round == 0) {
                for (uint32_t i = 0; i < m_stacks.size(); ++i) {
                    if (const uint32_t n = joinedAs(i); n != kEmpty) {
                        goingOn.push_back(i);
                        goingOnAt.push_back(cursorAtEscape(i));
                        walkOn(i, goingOnAt.back(), n);
                    }
                }
            } else {
                size_t kept = 0;
                for (size_t k = 0; k < goingOn.size(); ++k) {
                    const uint32_t i = goingOn[k];
                    if (const uint32_t n = joinedAs(i); n != kEmpty) {
                        walkOn(i, goingOnAt[k], n);
                        goingOn[kept] = i;
                        goingOnAt[kept++] = goingOnAt[k];
                    }
                }
                goingOn.resize(kept);
                goingOnAt.resize(kept);
            }
            if (m_progress && !m_progress(0.45))
                throw Cancelled();
        }
        belowAll();
        return assemble();
    }

private:
    void takeGuesses(const Nodes &guess)
    {
        // The guess's parents from its breadth-first child counts; its kept nodes (not culled) are the guesses.
        std::vector<NodeId> asOpen(guess.size(), kEmpty);
        asOpen[0] = 0;
        m_open.findOrAdd(kEmpty, FrameTable::kRoot);   // the root, id 0
        for (NodeId n = 0, next = 1; n < guess.size(); ++n) {
            for (uint32_t c = 0; c < guess.childCount[n]; ++c, ++next) {
                if (!guess.culled[next] && asOpen[n] != kEmpty)
                    asOpen[next] = m_open.findOrAdd(asOpen[n], guess.frame[next]);
            }
        }
        // Their children, for the walk: guessed nodes are numbered breadth-first, so the children of one are
        // contiguous, by label rank.
        m_depth.assign(m_open.size(), 0);
        for (NodeId n = 1; n < m_open.size(); ++n)
            m_depth[n] = m_depth[m_open.parent[n]] + 1;
        m_guessed.assign(m_open.size(), Guessed{0, 0, 0});
        m_kidRank.resize(m_open.size());
        for (NodeId n = 1; n < m_open.size(); ++n) {
            Guessed &parent = m_guessed[m_open.parent[n]];
            if (parent.count++ == 0)
                parent.first = n;
            m_guessed[n].frame = m_open.frame[n];
            m_kidRank[n] = m_rank[m_open.frame[n]];
        }
        // Each guessed node's two busiest children in the guess (most stacks through them): tried before the rest.
        std::vector<uint32_t> samplesOf(m_open.size(), 0);
        for (NodeId n = 0; n < guess.size(); ++n) {
            if (asOpen[n] != kEmpty)
                samplesOf[asOpen[n]] = guess.samples[n];
        }
        m_hot.assign(m_open.size(), Hot{kNoFrame, kEmpty, kNoFrame, kEmpty});
        for (NodeId n = 1; n < m_open.size(); ++n) {
            Hot &hot = m_hot[m_open.parent[n]];
            if (hot.child == kEmpty || samplesOf[n] > samplesOf[hot.child]) {
                hot.frame2 = hot.frame;
                hot.child2 = hot.child;
                hot.frame = m_open.frame[n];
                hot.child = n;
            } else if (hot.child2 == kEmpty || samplesOf[n] > samplesOf[hot.child2]) {
                hot.frame2 = m_open.frame[n];
                hot.child2 = n;
            }
        }
        makeHeavyPaths();
    }

    // The guessed nodes cut into heavy paths: from each node that is not its parent's busiest child, down through
    // the busiest children, one entry a node: the node, and the frame of the next one (kNoFrame at a path's end).
    // A walk on a path needs no load to know where the next step leads: at entry a it expects frame
    // m_pathFrame[a], and on that frame is at entry a + 1; through Hot, each step's node was loaded by the step
    // before. 83 % of r64's 11.3 million steps take the busiest child, 76 % of them in runs of four or more.
    // qflame-bench-firstlook r64 at 1/2048: 46.9 -> 44.0 ms (bottom-up 51.0 -> 50.3, r2048 15.7 -> 14.7).
    void makeHeavyPaths()
    {
        m_pathAt.assign(m_open.size(), 0);
        m_pathNode.clear();
        m_pathFrame.clear();
        for (NodeId head = 0; head < m_open.size(); ++head) {
            if (head != 0 && m_hot[m_open.parent[head]].child == head)
                continue;   // on its parent's path
            for (NodeId n = head;; n = m_hot[n].child) {
                m_pathAt[n] = uint32_t(m_pathNode.size());
                m_pathNode.push_back(n);
                m_pathFrame.push_back(m_hot[n].child == kEmpty ? kNoFrame : m_hot[n].frame);
                if (m_hot[n].child == kEmpty)
                    break;
            }
        }
    }

    // The guessed child of guessed node n through frame f, or kEmpty: its two busiest children first.
    uint32_t childOf(NodeId n, FrameId f) const
    {
        const Hot hot = m_hot[n];
        return hot.frame == f ? hot.child : hot.frame2 == f ? hot.child2 : guessedChild(n, f);
    }

    // The guessed child of guessed node n through frame f, or kEmpty.
    uint32_t guessedChild(NodeId n, FrameId f) const
    {
        const uint32_t first = m_guessed[n].first, count = m_guessed[n].count;
        if (count <= 8) {
            for (uint32_t k = first; k < first + count; ++k) {
                if (m_guessed[k].frame == f)
                    return k;
            }
            return kEmpty;
        }
        const uint32_t r = m_rank[f];
        const uint32_t *begin = m_kidRank.data() + first, *end = begin + count;
        const uint32_t *at = std::lower_bound(begin, end, r);
        return at != end && *at == r ? uint32_t(at - m_kidRank.data()) : kEmpty;
    }

    // Every stack from the root, through the guesses, to its end or its escape; on two threads.
    void walkAll()
    {
        const uint32_t n = m_stacks.size();
        // Each stack's entry is written as it is walked (its escape, or kEmpty), after its count is read there.
        if (m_escapeOf.size() != n) {
            m_escapeOf.clear();
            reserveHuge(m_escapeOf, n);
            m_escapeOf.resize(n);   // not initialised (NoInitAllocator)
        }
        for (Part &p : m_parts) {
            p.kinds.assign(m_open.size(), 0);
            p.last.assign(m_open.size(), Last());
            p.reached.assign(m_pathNode.size(), 0);
        }
        // In chunks that the two threads take as they come, not in halves: on r64 (34-40 ms a half) the helper's
        // half ended 1-16 ms after the caller's, whichever half it had, and in the window the caller's core may be
        // busy painting.
        const uint32_t chunks = (n + kChunk - 1) / kChunk;
        std::vector<uint8_t> walkedBy(chunks);   // the part that walked each chunk
        std::atomic<uint32_t> next = 0;
        std::atomic<bool> cancelled = false;
        const auto walkChunks = [&](uint8_t part) {
            for (;;) {
                const uint32_t chunk = next.fetch_add(1, std::memory_order_relaxed);
                if (chunk >= chunks || cancelled.load(std::memory_order_relaxed))
                    return;
                if (part == 0 && m_progress && !m_progress(0.1 + 0.3 * double(chunk) / double(chunks))) {
                    cancelled = true;   // (the progress is the caller's to report)
                    return;
                }
                walkedBy[chunk] = part;
                walkRange(m_parts[part], chunk * kChunk, std::min(n, (chunk + 1) * kChunk));
            }
        };
        runBeside([&] { walkChunks(1); }, [&] { walkChunks(0); });
        if (cancelled)
            throw Cancelled();
        for (Part &p : m_parts)
            enterRuns(p);
        // A stack added to the last guessed node it reached only: a node's sums are those of its subtree of
        // guessed nodes (numbered breadth-first: a child after its parent).
        m_tallies.resize(m_open.size());
        for (size_t k = 0; k < m_tallies.size(); ++k) {
            for (const Part &p : m_parts) {
                Tally t;
                t.lo = p.last[k].sum;
                t.samples = p.last[k].samples;
                t.kinds = p.kinds[k];
                t.self = p.last[k].self;
                t.ended = p.last[k].ended;
                m_tallies[k].add(t);
            }
        }
        for (size_t k = m_tallies.size(); k-- > 1;) {
            Tally &parent = m_tallies[m_open.parent[k]];
            parent.lo += m_tallies[k].lo;   // no sum overflows 64 bits (the caller checks the whole)
            parent.samples += m_tallies[k].samples;
        }
        // One table of escaped nodes; each cursor's escape renumbered into it.
        std::vector<uint32_t> global[2];
        for (int t = 0; t < 2; ++t) {
            Part &p = m_parts[t];
            global[t].resize(p.escaped.size());
            for (uint32_t e = 0; e < p.escaped.size(); ++e) {
                global[t][e] = m_escaped.findOrAdd(p.escaped.parent[e], p.escaped.frame[e]);
                m_escapedTallies.resize(m_escaped.size());
                m_escapedTallies[global[t][e]].add(p.escapedTallies[e]);
            }
            p = Part();
        }
        for (uint32_t chunk = 0; chunk < chunks; ++chunk) {
            const std::vector<uint32_t> &to = global[walkedBy[chunk]];
            for (uint32_t i = chunk * kChunk; i < std::min(n, (chunk + 1) * kChunk); ++i) {
                if (m_escapeOf[i] != kEmpty)
                    m_escapeOf[i] = to[m_escapeOf[i]];
            }
        }
    }

    // What the walk adds to a guessed node, for the stacks whose walk stops there (they end there, or escape
    // below it): their sum and count, and of those that end there their self. Each stack adds to one node
    // only, and to the kinds of the nodes it enters (a byte each, most of them in the caches); the nodes'
    // sums come afterwards, from their subtrees (walkAll), as do the levels below them (belowAll).
    struct Last {
        uint64_t sum = 0;
        int64_t self = 0;
        uint32_t samples = 0, ended = 0;
    };

    struct Part {
        std::vector<uint8_t> kinds;   // by guessed node
        // By heavy-path entry: the furthest entry a run along the path from it reached (walkPlainFrom); the nodes
        // after it up to there were entered as calls (enterRuns).
        std::vector<uint32_t> reached;
        std::vector<Last> last;
        KeyedNodes escaped;
        std::vector<Tally> escapedTallies;
    };

    static constexpr uint32_t kChunk = 8192;   // stacks a thread takes at a time (and between progress reports)

    void walkRange(Part &p, uint32_t from, uint32_t to)
    {
        for (uint32_t i = from; i < to; ++i) {
            Cursor c;
            if (!m_stacks.at(i, c)) {
                m_escapeOf[i] = kEmpty;
                continue;
            }
            if (!m_collapse && c.framePos == c.frameEnd)
                walkPlain(p, i, c);
            else
                walkStack(p, i, c);
        }
    }

    // Stack i through the guesses, by advance() (collapsing recursion, or a cursor already inside a location).
    void walkStack(Part &p, uint32_t i, Cursor c)
    {
        NodeId node = 0;
        for (;;) {
            FrameId f;
            uint8_t kind;
            if (!advance(c, m_sources.data(), m_collapse, &f, &kind)) {
                m_escapeOf[i] = kEmpty;
                return ended(p.last[node], c.value);
            }
            const uint32_t child = childOf(node, f);
            if (child != kEmpty) {
                p.kinds[child] |= kind;
                node = child;
                continue;
            }
            return escaped(p, i, c, node, f, kind);
        }
    }

    // The same for a cursor at a location's end without collapsing (every cursor at its stack's start): the
    // locations read straight from the stack, each one's frames in turn, with none of the cursor's state kept
    // but where the stack escapes. Most of the first look's time is this loop, one pass over about 28 frames
    // per stack on r64, nearly all of them.
    void walkPlain(Part &p, uint32_t i, Cursor c)
    {
        if (!m_sources[c.source].locSingle)
            walkStack(p, i, c);
        else
            m_sources[c.source].sampleLocations.visit([&](const auto *locations) {
                if (m_sources[c.source].forward)
                    walkPlainFrom<true>(locations, p, i, c);
                else
                    walkPlainFrom<false>(locations, p, i, c);
            });
    }

    // Its loop: the arrays it reads held in locals, so that the byte it writes to a node's kinds (which may alias
    // anything) makes the compiler reload none of them; where it is (its entry on a heavy path) stays in a register.
    //
    // A location of one frame is one compare on the heavy path it is on (makeHeavyPaths), with the next entry
    // known before the compare; any other location, or a frame off the path, takes the node's children.
    template <bool Forward, typename Id>
    void walkPlainFrom(const Id *const locations, Part &p, uint32_t i, Cursor c)
    {
        const Source &s = m_sources[c.source];
        const uint32_t *const locBegin = s.locBegin;
        const FrameId *const frames = s.locFrames, *const single = s.locSingle;
        const uint8_t *const kinds = s.locKinds;
        const Hot *const hot = m_hot.data();
        const FrameId *const pathFrame = m_pathFrame.data();
        const NodeId *const pathNode = m_pathNode.data();
        const uint32_t *const pathAt = m_pathAt.data();
        uint8_t *const entered = p.kinds.data();
        const uint32_t stop = c.locStop;
        uint32_t pos = c.locPos;
        uint32_t *const reached = p.reached.data();
        uint32_t at = 0;   // the root's entry: the first of the first path
        while (pos != stop) {
            // Along the path while the locations are its frames; the nodes entered are marked once per run.
            const uint32_t from = at;
            while (pos != stop && single[locations[Forward ? pos : pos - 1]] == pathFrame[at]) {
                Forward ? ++pos : --pos;
                ++at;
            }
            if (at != from)
                reached[from] = std::max(reached[from], at);
            if (pos == stop)
                break;
            const uint32_t q = Forward ? pos++ : --pos;
            const uint32_t loc = locations[q];
            NodeId node = pathNode[at];
            const uint32_t end = locBegin[loc + 1];
            for (uint32_t fp = locBegin[loc]; fp < end; ++fp) {
                const FrameId f = frames[fp];
                const Hot h = hot[node];
                if (h.frame == f || h.frame2 == f) {
                    node = h.frame == f ? h.child : h.child2;
                    entered[node] |= kinds[fp];
                    continue;
                }
                if (const uint32_t child = guessedChild(node, f); child != kEmpty) {
                    node = child;
                    entered[node] |= kinds[fp];
                    continue;
                }
                // The cursor as advance() leaves it after taking frame fp: its block the one holding q.
                c.locPos = pos;
                c.framePos = fp + 1;
                c.frameEnd = end;
                c.last = f;
                const uint32_t low = q & ~(Cursor::kBlock - 1);
                for (uint32_t j = 0; j < Cursor::kBlock && low + j < s.size; ++j)
                    c.block[j] = locations[low + j];
                return escaped(p, i, c, node, f, kinds[fp]);
            }
            at = pathAt[node];
        }
        m_escapeOf[i] = kEmpty;
        ended(p.last[pathNode[at]], c.value);
    }

    // The nodes the runs along heavy paths entered, as calls: entry e was entered when a run from an entry before
    // it on its path reached e or further. A run never passes its path's end, so the furthest reach of the entries
    // before e is of e's path once e's path has begun.
    void enterRuns(Part &p) const
    {
        uint32_t upTo = 0;
        for (uint32_t e = 0; e < p.reached.size(); ++e) {
            if (upTo >= e && e != 0)
                p.kinds[m_pathNode[e]] |= CallTree::kCalled;
            upTo = std::max(upTo, p.reached[e]);
        }
        p.reached = {};
    }

    // A stack ended in guessed node l.
    static void ended(Last &l, int64_t value)
    {
        l.sum += uint64_t(value);
        ++l.samples;
        l.self = wrappingAdd(l.self, value);
        ++l.ended;
    }

    // Stack i, at cursor c, escaped from guessed node `node` to its child through frame f. How many levels of it
    // are left below that child: of a counted stack, its count less the frames taken, which are the child's depth
    // (a stack is only counted where no frame is collapsed: each frame is a level); of another, the rest read.
    void escaped(Part &p, uint32_t i, const Cursor &c, NodeId node, FrameId f, uint8_t kind)
    {
        const uint32_t below =
            i < m_counted ? m_escapeOf[i] - m_depth[node] - 1 : levelsLeft(c, m_sources, m_collapse);
        Last &l = p.last[node];
        l.sum += uint64_t(c.value);
        ++l.samples;
        const uint32_t e = p.escaped.findOrAdd(node, f);
        p.escapedTallies.resize(p.escaped.size());
        escape(p.escapedTallies[e], i, e, below, c.value, kind);
    }

    // Stack i as it was when it escaped, just after taking the frame of the node it escaped to: made again from
    // its start, one level a node from the root down to that one.
    Cursor cursorAtEscape(uint32_t i) const
    {
        Cursor c;
        m_stacks.at(i, c);
        uint32_t depth = 1;   // of the escaped node, below its guessed parent
        for (NodeId n = m_escaped.parent[m_escapeOf[i]]; n != 0; n = m_open.parent[n])
            ++depth;
        FrameId f;
        uint8_t kind;
        for (uint32_t taken = 0; taken < depth; ++taken)
            advance(c, m_sources.data(), m_collapse, &f, &kind);
        return c;
    }

    // Stack i escaped to node e, with `below` levels of it left below that.
    void escape(Tally &t, uint32_t i, uint32_t e, uint32_t below, int64_t value, uint8_t kind)
    {
        t.enter(value, kind, below);
        if (below == 0)   // the stack ends in the node it escaped to
            t.end(value);
        m_escapeOf[i] = e;
    }

    // A stack that escaped to a node now joined, one level further (c: where it is): it ended there, or escapes
    // below it.
    void walkOn(uint32_t i, Cursor &c, NodeId joined)
    {
        FrameId f;
        uint8_t kind;
        m_escapeOf[i] = kEmpty;
        if (!advance(c, m_sources.data(), m_collapse, &f, &kind))
            return;   // counted as ending there when it escaped
        const uint32_t e = m_escaped.findOrAdd(joined, f);
        m_escapedTallies.resize(m_escaped.size());
        escape(m_escapedTallies[e], i, e, levelsLeft(c, m_sources, m_collapse), c.value, kind);
    }

    // The levels below each guessed node: its deepest child's plus one (a stack that ends in it adds none).
    // Escaped nodes know theirs from their stacks, and so do those that joined.
    void belowAll()
    {
        for (uint32_t e = 0; e < m_escaped.size(); ++e) {
            if (e < m_joinedAs.size() && m_joinedAs[e] != kEmpty)
                continue;
            uint32_t &below = m_tallies[m_escaped.parent[e]].below;
            below = std::max(below, m_escapedTallies[e].below + 1);
        }
        for (NodeId n = NodeId(m_open.size()); n-- > 1;) {
            uint32_t &below = m_tallies[m_open.parent[n]].below;
            below = std::max(below, m_tallies[n].below + 1);
        }
    }

    // Which guessed nodes a first look keeps with their children: at or above the cut, as all their ancestors.
    void markOpen()
    {
        for (NodeId n = NodeId(m_isOpen.size()); n < m_open.size(); ++n)
            m_isOpen.push_back(m_isOpen[m_open.parent[n]] && !m_cut.below(m_tallies[n].exact()));
    }

    // The escaped nodes from `checked` on that are missed: at or above the cut below a node that is too. They
    // join the guesses (their tallies are exact: every stack through them escaped to them).
    size_t promote(size_t checked)
    {
        size_t joined = 0;
        m_joinedAs.resize(m_escaped.size(), kEmpty);
        for (uint32_t e = uint32_t(checked); e < m_escaped.size(); ++e) {
            const NodeId parent = m_escaped.parent[e];
            if (!m_isOpen[parent] || m_cut.below(m_escapedTallies[e].exact()))
                continue;
            const NodeId n = m_open.findOrAdd(parent, m_escaped.frame[e]);
            m_tallies.push_back(m_escapedTallies[e]);
            m_joinedAs[e] = n;
            ++joined;
        }
        return joined;
    }

    // The nodes breadth-first: each kept node's children (guessed and escaped) by label rank.
    Nodes assemble() const
    {
        struct Child {
            NodeId parent;
            uint32_t rank;
            uint32_t id;   // a guessed node, or (bit 31) an escaped one
        };
        constexpr uint32_t kEscaped = 1u << 31;
        std::vector<Child> children;
        for (NodeId n = 1; n < m_open.size(); ++n) {
            if (m_isOpen[m_open.parent[n]])
                children.push_back({m_open.parent[n], m_rank[m_open.frame[n]], n});
        }
        for (uint32_t e = 0; e < m_escaped.size(); ++e) {
            const bool joined = e < m_joinedAs.size() && m_joinedAs[e] != kEmpty;
            if (!joined && m_isOpen[m_escaped.parent[e]])
                children.push_back({m_escaped.parent[e], m_rank[m_escaped.frame[e]], e | kEscaped});
        }
        std::sort(children.begin(), children.end(), [](const Child &x, const Child &y) {
            return x.parent != y.parent ? x.parent < y.parent : x.rank < y.rank;
        });
        std::vector<uint32_t> firstOf(m_open.size() + 1, 0);   // children of guessed node n: [firstOf[n], firstOf[n+1])
        for (const Child &c : children)
            ++firstOf[c.parent + 1];
        std::partial_sum(firstOf.begin(), firstOf.end(), firstOf.begin());

        Nodes nodes;
        addNode(nodes, FrameTable::kRoot, m_tallies[0], false);
        struct Kept {
            NodeId guessed, node;
        };
        std::vector<Kept> queue{{0, 0}};   // the kept nodes, breadth-first
        for (size_t q = 0; q < queue.size(); ++q) {
            const auto [guessed, node] = queue[q];
            nodes.childCount[node] = firstOf[guessed + 1] - firstOf[guessed];
            for (uint32_t k = firstOf[guessed]; k < firstOf[guessed + 1]; ++k) {
                const Child &c = children[k];
                if (c.id & kEscaped) {
                    const uint32_t e = c.id & ~kEscaped;
                    addNode(nodes, m_escaped.frame[e], m_escapedTallies[e], true);
                    continue;
                }
                const bool kept = m_isOpen[c.id];
                if (kept)
                    queue.push_back({c.id, NodeId(nodes.size())});
                addNode(nodes, m_open.frame[c.id], m_tallies[c.id], !kept);
            }
        }
        return nodes;
    }

    const StackStarts &m_stacks;
    const std::vector<Source> &m_sources;
    const std::vector<uint32_t> &m_rank;
    const bool m_collapse;
    const Cut m_cut;
    const ProgressFn &m_progress;
    // (m_counted before m_escapeOf: the constructor reads the counts' size before it takes their array.)
    const uint32_t m_counted;           // stacks whose m_escapeOf holds their levels until they are walked
    std::vector<uint32_t> m_depth;      // of each guessed node (not of those that joined)
    KeyedNodes m_open;                  // the guessed nodes (and the missed ones that joined them); the root is 0
    // A guessed node as the walk reads it: its frame and its children [first, first + count), in 12 bytes, so
    // that most of them stay in the caches with the walk's tallies.
    struct Guessed {
        FrameId frame;
        uint32_t first, count;
    };
    std::vector<Guessed> m_guessed;     // (not of those that joined)
    std::vector<uint32_t> m_kidRank;    // of each guessed node, its frame's label rank
    // Of each guessed node, its busiest child and that child's frame, then the next busiest (kNoFrame: none), in
    // 16 bytes: the walk's usual step is one load from here and two compares (r64: 81 % of the steps take the
    // busiest child; trying the second too, 51.3 -> 49.0 ms in all).
    static constexpr FrameId kNoFrame = UINT32_MAX;   // no frame has this id
    struct Hot {
        FrameId frame;
        uint32_t child;
        FrameId frame2;
        uint32_t child2;
    };
    std::vector<Hot> m_hot;
    // The heavy paths (makeHeavyPaths): by entry its node and the frame to the next entry; by guessed node its entry.
    std::vector<NodeId> m_pathNode;
    std::vector<FrameId> m_pathFrame;
    std::vector<uint32_t> m_pathAt;
    std::vector<Tally> m_tallies;       // of each guessed node
    std::vector<bool> m_isOpen;         // whether a first look keeps its children
    KeyedNodes m_escaped;               // the nodes stacks escaped to, below a guessed node
    std::vector<Tally> m_escapedTallies;
    std::vector<uint32_t> m_joinedAs;   // of an escaped node that joined the guesses: its guessed id
    // By stack: the node it escaped to, or kEmpty; before the stack is walked, its levels if StackLevels counted
    // them. (Its levels below that were kept too, 3 MB more on r64 for the few stacks of the nodes that join:
    // counted again for those, from where they are.)
    StackLevels::Array m_escapeOf;
    Part m_parts[2];
};

// A sample of about `size` of the stacks, drawn with probability proportional to value (each at most 1), each
// with its value over its probability: then every node's sum is estimated without bias, and a stack heavy
// enough to make a node alone is always in. The draw is a hash of the stack's index: the same every time.
Cursors sampleOf(const StackStarts &stacks, unsigned __int128 total, size_t size, unsigned __int128 *sampleTotal)
{
    const unsigned __int128 bar = std::max<unsigned __int128>(1, total / size);   // values from here are always in
    Cursors sample;
    reserveHuge(sample, size + size / 4);
    *sampleTotal = 0;
    // The draw reads each stack's value only: a cursor is made for the few drawn (r64: 21,826 of 743,343). (Two
    // threads, each drawing half: no faster, 40.8 against 40.7 ms for r64's first look.)
    for (uint32_t i = 0; i < stacks.size(); ++i) {
        const uint64_t v = uint64_t(stacks.valueOf(i));
        if (v == 0)
            continue;
        if (v < bar) {
            const uint32_t draw = i * 2654435761u;   // spread evenly over [0, 2^32) whatever the samples' order
            if (((unsigned __int128)draw * bar >> 32) >= v)
                continue;
        }
        Cursor c;
        stacks.at(i, c);
        if (v < bar)
            c.value = int64_t(std::min<unsigned __int128>(bar, INT64_MAX));
        *sampleTotal += uint64_t(c.value);
        sample.push_back(c);
    }
    return sample;
}

constexpr unsigned __int128 kWalkable = (unsigned __int128)1 << 64;   // totals below which the walk's sums fit

// A guess at the nodes a first look at `stacks` (whose values add up to `total`) keeps: the first look, with
// two thirds of the cut, at a tenth of them (sampleOf). That first look is itself walked from a guess, down to a
// sample small enough to count.
Nodes guessNodes(const StackStarts &stacks, unsigned __int128 total, const std::vector<Source> &sources,
                 const std::vector<uint32_t> &rank, bool collapse, Cut cut)
{
    constexpr size_t kCountUpTo = 8192;   // cursors up to which counting is quicker than guessing and walking
    unsigned __int128 sampleTotal = 0;
    Cursors sample = sampleOf(stacks, total, std::max<size_t>(kCountUpTo / 2, stacks.size() / 10), &sampleTotal);
    // The same values: the sample's sums estimate the whole's. A stack walks through the guesses until it leaves
    // them, so guesses below the cut cost steps, and a node the guess misses costs a round of the stacks through
    // it (Walk::run). Two thirds of the cut missed few: r64's first look at 1/2048 took 51-52 ms against 53-54 at
    // half the cut, r2048's 16-18 against 18-19; at four fifths r2048's took 18-19 again, and pprof__large.cpu's
    // took 5.5-7 ms at each (docs/benchmarks.md, "The first look's walk").
    const Cut finer{cut.rootTotal, std::max<uint64_t>(1, cut.divisor * 3 / 2)};
    if (sample.size() > kCountUpTo && sample.size() < stacks.size() / 2 && sampleTotal < kWalkable) {
        const StackStarts sampled(sample);
        const Nodes guess = guessNodes(sampled, sampleTotal, sources, rank, collapse, finer);
        return Walk(sampled, sources, rank, collapse, finer, ProgressFn()).run(guess);
    }
    return countFirstLook(sample, sources, rank, collapse, finer);   // moves the sample's cursors on
}

}   // namespace

Nodes firstLookNodes(const StackStarts &stacks, const std::vector<Source> &sources,
                     const std::vector<uint32_t> &rank, bool collapse, Cut cut, const ProgressFn &progress,
                     StackLevels *levels)
{
    constexpr size_t kWalkFrom = 65536;   // stacks from which guessing and walking is quicker than counting
    if (stacks.size() >= kWalkFrom && cut.rootTotal < kWalkable) {
        const Nodes guess = guessNodes(stacks, cut.rootTotal, sources, rank, collapse, cut);
        return Walk(stacks, sources, rank, collapse, cut, progress, levels ? levels->finish() : StackLevels::Counts())
            .run(guess);
    }
    if (levels)
        levels->finish();
    // Counting moves cursors on: a copy of them (a small profile's, or one whose values add up past 2^64).
    Cursors cursors;
    cursors.reserve(stacks.size());
    for (uint32_t i = 0; i < stacks.size(); ++i) {
        Cursor c;
        if (stacks.at(i, c))
            cursors.push_back(c);
    }
    return countFirstLook(cursors, sources, rank, collapse, cut);
}

}   // namespace qflame::detail
