// CallTreeBuilder::build: the samples' stacks sorted into a tree level by level.
//
// It is a most-significant-digit radix sort of the stacks. The samples that pass through a node are a contiguous
// range of cursors; each is moved on by one frame, the range is sorted by the label rank of that frame, and each
// run of one frame is a child, numbered as it comes: that is breadth-first order with sorted children, the
// CallTree's own. Every node is made once, where it stays, and nothing is looked up. (The tree was built through
// a hash map of (parent, frame) before, one lookup per frame of every stack: on the 1.9M-node r64 profile 14.7
// million lookups scattered over 64 MB, the map grown by doubling, the nodes renumbered and their children
// sorted afterwards. That was most of the window's time to its first flamegraph.)
#include "tree/CallTreeBuilder.h"
#include "tree/StagedTree.h"

#include "io/BesideThread.h"
#include "io/Prefault.h"
#include "tree/ProfileFrames.h"

#include <algorithm>
#include <memory>
#include <stdexcept>

namespace qflame {

using namespace detail;

namespace {

// One sample on its way down the tree: where its stack has got to, root first.
struct Cursor {
    int64_t value;
    uint32_t locPos;     // one past the next location of the stack (sampleLocations counts down to locStop)
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

struct Source {
    const uint32_t *sampleLocations;
    size_t size;   // of sampleLocations
    const uint32_t *locBegin;
    const FrameId *locFrames;
    const uint8_t *locKinds;
};

// Whether reading position q (= locPos - 1) needs its block: the block of q + 1 is the one held, except before
// the first read (frameEnd still 0; reading a block again then is harmless).
inline bool needsBlock(const Cursor &c, uint32_t q)
{
    return q % Cursor::kBlock == Cursor::kBlock - 1 || c.frameEnd == 0;
}

// Where a cursor will read its next block from, when it is about to, or null.
inline const uint32_t *blockToRead(const Cursor &c, const Source *sources)
{
    if (c.framePos != c.frameEnd || c.locPos == c.locStop || !needsBlock(c, c.locPos - 1))
        return nullptr;
    return sources[c.source].sampleLocations + ((c.locPos - 1) & ~(Cursor::kBlock - 1));
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
        const uint32_t q = --c.locPos;
        if (needsBlock(c, q)) {
            const uint32_t low = q & ~(Cursor::kBlock - 1);
            for (uint32_t j = 0; j < Cursor::kBlock && low + j < s.size; ++j)
                c.block[j] = s.sampleLocations[low + j];
        }
        const uint32_t loc = c.block[q % Cursor::kBlock];
        c.framePos = s.locBegin[loc];
        c.frameEnd = s.locBegin[loc + 1];
    }
}

// The offsets 0..m-1 of keys[0, m) in the order of their keys, equal keys in their order. Most ranges that
// branch have a few distinct frames among many samples, or few samples: counted, or sorted by insertion.
void stableOrder(const uint32_t *keys, uint32_t m, std::vector<uint32_t> &order, std::vector<uint32_t> &counts)
{
    order.resize(m);
    if (m <= 16) {
        for (uint32_t i = 0; i < m; ++i) {
            uint32_t j = i;
            for (; j > 0 && keys[order[j - 1]] > keys[i]; --j)
                order[j] = order[j - 1];
            order[j] = i;
        }
        return;
    }
    const auto [lo, hi] = std::minmax_element(keys, keys + m);
    const uint64_t span = uint64_t(*hi) - *lo + 1;
    if (span <= 4 * uint64_t(m) + 1024) {
        counts.assign(span + 1, 0);
        for (uint32_t i = 0; i < m; ++i)
            ++counts[keys[i] - *lo + 1];
        for (uint64_t k = 1; k <= span; ++k)
            counts[k] += counts[k - 1];
        for (uint32_t i = 0; i < m; ++i)
            order[counts[keys[i] - *lo]++] = i;
        return;
    }
    for (uint32_t i = 0; i < m; ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [keys](uint32_t x, uint32_t y) { return keys[x] < keys[y]; });
}

struct Range {
    uint32_t begin, end;   // the cursors of one node
};

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

// Children made but not yet run: those of a first look's culled nodes, in the order of their parents.
struct Waiting {
    std::vector<FrameId> frame;
    std::vector<uint8_t> kinds;
    std::vector<Range> ranges;
};

// One thread's part of a level: the children of its nodes, in order, and its sorting buffers.
struct LevelPart {
    std::vector<FrameId> frame;
    std::vector<uint8_t> kinds;
    std::vector<Range> ranges;
    std::vector<uint8_t> culled;   // whether each child is below the cut (when cutting)
    std::vector<int64_t> total;    // each child's total (when cutting)
    Waiting waiting;               // the children of the culled nodes
    std::vector<uint32_t> order, counts, sortedKey;
    std::vector<Cursor> sorted;
    std::vector<uint8_t> sortedKind;
    void clear()
    {
        frame.clear();
        kinds.clear();
        ranges.clear();
        culled.clear();
        total.clear();
        waiting.frame.clear();
        waiting.kinds.clear();
        waiting.ranges.clear();
    }
};

// Which nodes a first look leaves without descendants: those whose total times the divisor is below the root's.
// The values are checked to be non-negative first, so the sums are exact in 128 bits.
struct Cut {
    unsigned __int128 rootTotal = 0;
    uint64_t divisor = 0;   // 0: no cut
    bool below(unsigned __int128 sum) const { return divisor != 0 && sum * divisor < rootTotal; }
};

class LevelSort {
public:
    LevelSort(std::vector<Cursor> &cursors, const std::vector<Source> &sources, const std::vector<uint32_t> &rank,
              bool collapse, Cut cut)
        : m_cursors(cursors), m_sources(sources), m_rank(rank), m_collapse(collapse), m_cut(cut),
          m_key(cursors.size()), m_kind(cursors.size())
    {
        m_frameOfRank.resize(rank.size());
        for (FrameId f = 0; f < rank.size(); ++f)
            m_frameOfRank[rank[f]] = f;
    }
    void setNodes(Nodes *nodes, bool cutting)
    {
        m_nodes = nodes;
        m_cutting = cutting;
    }

    // Moves the cursors of nodes [first, first + count) (ranges[0, count)) on by one frame, sets those nodes'
    // self, samples and child count, and appends their children to `out` (a culled node's to out.waiting).
    void run(const Range *ranges, size_t count, NodeId first, LevelPart &out)
    {
        const uint32_t limit = count ? ranges[count - 1].end : 0;   // the other thread's cursors lie beyond
        for (size_t j = 0; j < count; ++j)
            finish(NodeId(first + j), ranges[j], moveOn(ranges[j].begin, ranges[j].end, limit), out);
    }

    // The same for one node of many cursors (the root, a long chain of single calls): its cursors are moved on
    // by two threads, which share nothing but the sums (wrapping sums: the order of adding does not matter).
    void runWide(NodeId n, Range r, LevelPart &out)
    {
        const uint32_t mid = r.begin + (r.end - r.begin) / 2;
        Moved low, high;
        runBeside([&] { high = moveOn(mid, r.end, r.end); }, [&] { low = moveOn(r.begin, mid, mid); });
        const Moved both{wrappingAdd(low.self, high.self), low.ended + high.ended,
                         low.oneKey && high.oneKey && m_key[mid] == m_key[r.begin]};
        finish(n, r, both, out);
    }

private:
    struct Moved {
        int64_t self = 0;      // of the stacks that end here
        uint32_t ended = 0;
        bool oneKey = true;    // all cursors go on to the same frame (or all end)
    };

    Moved moveOn(uint32_t a, uint32_t b, uint32_t limit)
    {
        constexpr uint32_t kAhead = 16;
        const Source *sources = m_sources.data();
        Moved m;
        for (uint32_t i = a; i < b; ++i) {
            if (i + kAhead < limit) {
                if (const uint32_t *ahead = blockToRead(m_cursors[i + kAhead], sources))
                    __builtin_prefetch(ahead);
            }
            Cursor &c = m_cursors[i];
            FrameId f;
            if (advance(c, sources, m_collapse, &f, &m_kind[i])) {
                m_key[i] = m_rank[f] + 1;
            } else {
                m_key[i] = 0;   // the stack ends here
                m.self = wrappingAdd(m.self, c.value);
                ++m.ended;
            }
            m.oneKey = m.oneKey && m_key[i] == m_key[a];
        }
        return m;
    }

    void finish(NodeId n, Range r, Moved moved, LevelPart &out)
    {
        Nodes &nodes = *m_nodes;
        const auto [a, b] = r;
        const bool culled = m_cutting && nodes.culled[n];
        nodes.self[n] = moved.self;
        nodes.samples[n] = b - a;
        if (culled) {
            nodes.hiddenSamples[n] = b - a - moved.ended;
            nodes.hiddenHeight[n] = heightBelow(a, b);
        }
        if (!moved.oneKey)
            sortRange(a, b, out);
        uint32_t children = 0;
        for (uint32_t i = a; i < b;) {
            uint32_t e = i + 1;
            uint8_t kinds = m_kind[i];
            while (e < b && m_key[e] == m_key[i])
                kinds |= m_kind[e++];
            if (m_key[i] != 0) {
                const FrameId f = m_frameOfRank[m_key[i] - 1];
                if (culled) {
                    out.waiting.frame.push_back(f);
                    out.waiting.kinds.push_back(kinds);
                    out.waiting.ranges.push_back({i, e});
                } else {
                    out.frame.push_back(f);
                    out.kinds.push_back(kinds);
                    out.ranges.push_back({i, e});
                    if (m_cutting)
                        addTotal(i, e, out);
                }
                ++children;
            }
            i = e;
        }
        if (culled)
            nodes.hiddenChildren[n] = children;
        else
            nodes.childCount[n] = children;
    }

    // The total of the stacks [a, e) (wrapping, as the tree sums), and whether it is below the cut.
    void addTotal(uint32_t a, uint32_t e, LevelPart &out) const
    {
        int64_t sum = 0;
        unsigned __int128 exact = 0;
        for (uint32_t i = a; i < e; ++i) {
            sum = wrappingAdd(sum, m_cursors[i].value);
            exact += uint64_t(m_cursors[i].value);   // non-negative when cutting
        }
        out.total.push_back(sum);
        out.culled.push_back(m_cut.below(exact));
    }

    // How many levels the stacks [a, b) reach below their node, their cursors having been moved on by one frame:
    // the first look's height of a node whose descendants wait, walked on copies of the cursors.
    uint32_t heightBelow(uint32_t a, uint32_t b) const
    {
        uint32_t height = 0;
        for (uint32_t i = a; i < b; ++i) {
            if (m_key[i] == 0)
                continue;
            const Cursor &c = m_cursors[i];
            const Source &s = m_sources[c.source];
            uint32_t rest = 1 + (c.frameEnd - c.framePos);
            if (!m_collapse) {   // every frame of the locations left is a level
                for (uint32_t q = c.locStop; q < c.locPos; ++q) {
                    const uint32_t loc = s.sampleLocations[q];
                    rest += s.locBegin[loc + 1] - s.locBegin[loc];
                }
            } else {
                Cursor copy = c;
                FrameId f;
                uint8_t k;
                rest = 1;
                while (advance(copy, m_sources.data(), true, &f, &k))
                    ++rest;
            }
            height = std::max(height, rest);
        }
        return height;
    }

    void sortRange(uint32_t a, uint32_t b, LevelPart &out)
    {
        const uint32_t m = b - a;
        stableOrder(m_key.data() + a, m, out.order, out.counts);
        out.sorted.resize(m);
        out.sortedKind.resize(m);
        out.sortedKey.resize(m);
        for (uint32_t k = 0; k < m; ++k) {
            const uint32_t from = a + out.order[k];
            out.sorted[k] = m_cursors[from];
            out.sortedKind[k] = m_kind[from];
            out.sortedKey[k] = m_key[from];
        }
        std::copy(out.sorted.begin(), out.sorted.begin() + m, m_cursors.begin() + a);
        std::copy(out.sortedKind.begin(), out.sortedKind.begin() + m, m_kind.begin() + a);
        std::copy(out.sortedKey.begin(), out.sortedKey.begin() + m, m_key.begin() + a);
    }

    std::vector<Cursor> &m_cursors;
    const std::vector<Source> &m_sources;
    const std::vector<uint32_t> &m_rank;
    std::vector<FrameId> m_frameOfRank;
    const bool m_collapse;
    const Cut m_cut;
    Nodes *m_nodes = nullptr;
    bool m_cutting = false;
    // By cursor: the rank of its next frame plus one (0: its stack ended at this node), and how it enters it.
    std::vector<uint32_t> m_key;
    std::vector<uint8_t> m_kind;
};

}   // namespace

namespace detail {

// The state of one build between its two steps.
class LevelBuild {
public:
    LevelBuild(const std::vector<std::shared_ptr<const Profile>> &profiles, size_t typeIndex,
               const BuildOptions &options, int64_t cullDivisor);
    std::shared_ptr<const CallTree> firstLook();
    std::shared_ptr<const CallTree> complete();

private:
    // Runs the level loop from `level` (nodes [firstNode, ...) of `nodes`) to the leaves.
    void runLevels(std::vector<Range> level, NodeId firstNode, Nodes &nodes, bool cutting);
    // The whole tree's nodes, breadth-first, from the first look's and those of the subtrees that waited.
    Nodes merged(Nodes &&below);
    std::shared_ptr<CallTree> makeTree(Nodes nodes) const;

    BuildOptions m_options;
    std::shared_ptr<CallTree> m_shell;   // sample type, granularity, counts
    std::shared_ptr<FrameTable> m_frames;
    std::vector<std::unique_ptr<ProfileFrames>> m_prepared;
    std::vector<Source> m_sources;
    std::vector<Cursor> m_cursors;
    std::vector<uint32_t> m_rank;
    std::unique_ptr<LevelSort> m_sort;
    LevelPart m_parts[2];   // one per thread, kept from level to level and from the first step to the second
    Prefaulter m_prefault;
    Cut m_cut;
    Nodes m_nodes;       // the first look's
    Waiting m_waiting;   // the children of its culled nodes
    std::shared_ptr<const CallTree> m_first;
    size_t m_steps = 0, m_walked = 0;   // cursor moves, for progress (about one per location of a stack)
};

LevelBuild::LevelBuild(const std::vector<std::shared_ptr<const Profile>> &profiles, size_t typeIndex,
                       const BuildOptions &options, int64_t cullDivisor)
    : m_options(options)
{
    checkInputs(profiles, typeIndex);
    const Profile &first = *profiles.front();
    const CompiledFilters filters(options.filters, profiles);   // a bad option fails before any work

    m_frames = std::make_shared<FrameTable>();
    m_shell = std::make_shared<CallTree>();
    m_shell->m_sampleType = {first.typeName(typeIndex), first.unitName(typeIndex)};
    m_shell->m_granularity = options.granularity;
    m_shell->m_profileCount = profiles.size();

    // Every profile's frames first: the ranks that order children are of the whole frame table.
    for (const auto &p : profiles) {
        m_prepared.push_back(std::make_unique<ProfileFrames>(*p, filters, options, *m_frames));
        const ProfileFrames &pf = *m_prepared.back();
        // Positions are 32-bit: every input is read under 2 GiB, and each location of a sample is a byte or more.
        if (p->sampleLocations.size() >= UINT32_MAX || pf.locFrames.size() >= UINT32_MAX)
            throw ProfileError(p->sourceName + ": too many locations in the samples");
        m_sources.push_back({p->sampleLocations.data(), p->sampleLocations.size(), pf.locBegin.data(),
                             pf.locFrames.data(), pf.locKinds.data()});
    }

    size_t totalSamples = 0, doneSamples = 0;
    for (const auto &p : profiles)
        totalSamples += p->sampleCount();
    m_cursors.reserve(totalSamples);   // most samples are kept: no copies of a growing array
    // The cursors and the buffers that sort the widest level (the root's children: all cursors) are faulted in
    // on the other core while this one makes the cursors: 80 MB on r64, 20,000 page faults otherwise paid in
    // the build (about 7 us each on this kind of virtual machine).
    LevelPart &widest = m_parts[0];
    widest.sorted.reserve(totalSamples);
    widest.order.reserve(totalSamples);
    widest.sortedKey.reserve(totalSamples);
    widest.sortedKind.reserve(totalSamples);
    m_prefault.start({Prefaulter::unwritten(m_cursors), Prefaulter::unwritten(widest.sorted),
                      Prefaulter::unwritten(widest.order), Prefaulter::unwritten(widest.sortedKey),
                      Prefaulter::unwritten(widest.sortedKind)});
    bool negative = false;
    unsigned __int128 rootTotal = 0;
    for (size_t pi = 0; pi < profiles.size(); ++pi) {
        const Profile &p = *profiles[pi];
        ProfileFrames &pf = *m_prepared[pi];
        const int type = mergedType(first, typeIndex, p);
        m_shell->m_durationNanos = wrappingAdd(m_shell->m_durationNanos, p.durationNanos);
        for (size_t s = 0; s < p.sampleCount(); ++s) {
            if (options.progress && (++doneSamples & 0x7fff) == 0 &&
                !options.progress(0.1 * double(doneSamples) / double(totalSamples)))
                throw Cancelled();
            const int64_t v = p.value(s, size_t(type));
            if (v == 0)   // pprof skips zero samples entirely: they add neither nodes nor edges
                continue;
            if (options.sampleFilter && !options.sampleFilter(p, s))
                continue;
            size_t begin, end;
            if (!pf.sampleRange(s, begin, end))
                continue;
            m_cursors.push_back({v, uint32_t(end), uint32_t(begin), 0, 0, FrameTable::kRoot, uint32_t(pi), {}});
            m_steps += end - begin;
            negative = negative || v < 0;
            rootTotal += uint64_t(v);
        }
    }
    if (m_cursors.size() >= UINT32_MAX)
        throw ProfileError(first.sourceName + ": too many samples");
    m_shell->m_sampleCount = m_cursors.size();
    if (cullDivisor > 0 && !negative)
        m_cut = {rootTotal, uint64_t(cullDivisor)};
    m_rank = m_frames->labelRanks();
    m_sort = std::make_unique<LevelSort>(m_cursors, m_sources, m_rank, options.filters.collapseRecursion, m_cut);
}

void LevelBuild::runLevels(std::vector<Range> level, NodeId firstNode, Nodes &nodes, bool cutting)
{
    m_sort->setNodes(&nodes, cutting);
    LevelPart *parts = m_parts;
    while (!level.empty()) {
        for (LevelPart &part : m_parts)
            part.clear();
        // A wide level is shared with a second thread: the first half of its nodes here, the rest there, their
        // children in that order, which keeps them breadth-first.
        const uint64_t active = uint64_t(level.back().end) - level.front().begin;
        size_t split = level.size();
        if (active >= 65536 && level.size() >= 2) {
            split = 1;
            while (split + 1 < level.size() && level[split].begin - level.front().begin < active / 2)
                ++split;
        }
        if (level.size() == 1 && active >= 65536) {
            m_sort->runWide(firstNode, level.front(), parts[0]);
        } else if (split < level.size()) {
            runBeside([&] { m_sort->run(level.data() + split, level.size() - split, NodeId(firstNode + split), parts[1]); },
                      [&] { m_sort->run(level.data(), split, firstNode, parts[0]); });
        } else {
            m_sort->run(level.data(), level.size(), firstNode, parts[0]);
        }
        m_walked += active;
        if (m_options.progress &&
            !m_options.progress(0.1 + 0.8 * std::min(1.0, double(m_walked) / double(m_steps + 1))))
            throw Cancelled();
        firstNode = NodeId(nodes.size());
        level.clear();
        for (const LevelPart &part : m_parts) {
            for (size_t k = 0; k < part.frame.size(); ++k) {
                if (cutting)
                    nodes.addCullable(part.frame[k], part.kinds[k], part.culled[k], part.total[k]);
                else
                    nodes.add(part.frame[k], part.kinds[k]);
            }
            level.insert(level.end(), part.ranges.begin(), part.ranges.end());
            const Waiting &w = part.waiting;
            m_waiting.frame.insert(m_waiting.frame.end(), w.frame.begin(), w.frame.end());
            m_waiting.kinds.insert(m_waiting.kinds.end(), w.kinds.begin(), w.kinds.end());
            m_waiting.ranges.insert(m_waiting.ranges.end(), w.ranges.begin(), w.ranges.end());
        }
    }
}

// The tree's arrays from the nodes: the children of node n follow those of n - 1 (breadth-first).
std::shared_ptr<CallTree> LevelBuild::makeTree(Nodes nodes) const
{
    auto tree = std::make_shared<CallTree>(*m_shell);
    CallTree &t = *tree;
    const size_t n = nodes.size();
    t.m_frame = std::move(nodes.frame);
    t.m_callKinds = std::move(nodes.kinds);
    t.m_childCount = std::move(nodes.childCount);
    t.m_self = std::move(nodes.self);
    t.m_samples.assign(nodes.samples.begin(), nodes.samples.end());
    std::vector<uint32_t>().swap(nodes.samples);
    // Not shrunk to fit: that would copy them, and the capacity beyond their size was never written, so it
    // takes address space but no memory.
    t.m_parent.resize(n);
    t.m_firstChild.resize(n);
    t.m_depth.resize(n);
    t.m_total = t.m_self;
    bool hides = false;
    for (size_t i = 0; i < nodes.culled.size(); ++i)
        hides = hides || nodes.hiddenChildren[i] != 0;
    if (hides) {   // a first look: a culled node's total is its stacks', its descendants' rows its own
        t.m_hiddenHeight = std::move(nodes.hiddenHeight);
        t.m_hiddenSamples = std::move(nodes.hiddenSamples);
        for (size_t i = 0; i < n; ++i) {
            if (nodes.culled[i])
                t.m_total[i] = nodes.total[i];
        }
    }
    NodeId next = 1;
    uint32_t maxDepth = 0;
    for (NodeId i = 0; i < n; ++i) {
        t.m_firstChild[i] = next;
        for (uint32_t c = 0; c < t.m_childCount[i]; ++c, ++next) {
            t.m_parent[next] = i;
            t.m_depth[next] = t.m_depth[i] + 1;
        }
        maxDepth = std::max(maxDepth, t.m_depth[i] + (hides ? t.m_hiddenHeight[i] : 0));
    }
    for (size_t i = n; i-- > 1;)
        t.m_total[t.m_parent[i]] = wrappingAdd(t.m_total[t.m_parent[i]], t.m_total[i]);
    t.m_maxDepth = maxDepth;
    t.m_frames = m_frames;
    return tree;
}

std::shared_ptr<const CallTree> LevelBuild::firstLook()
{
    const bool cutting = m_cut.divisor != 0;
    if (cutting)
        m_nodes.addCullable(FrameTable::kRoot, 0, false, 0);
    else
        m_nodes.add(FrameTable::kRoot, 0);
    runLevels({{0, uint32_t(m_cursors.size())}}, 0, m_nodes, cutting);
    if (m_waiting.ranges.empty()) {   // nothing left out: this is the whole tree
        m_first = makeTree(std::move(m_nodes));
        m_nodes = Nodes();
        if (m_options.progress)
            m_options.progress(1.0);
    } else {
        m_first = makeTree(m_nodes);   // a copy: the whole tree is merged from these nodes later
    }
    return m_first;
}

std::shared_ptr<const CallTree> LevelBuild::complete()
{
    if (m_waiting.ranges.empty())
        return m_first;
    // The subtrees that waited, sorted as one forest: its first level is the culled nodes' children, then each
    // level the children of the one before (a forest node's children follow those of the node before it).
    Nodes below;
    for (size_t k = 0; k < m_waiting.frame.size(); ++k)
        below.add(m_waiting.frame[k], m_waiting.kinds[k]);
    std::vector<Range> level = std::move(m_waiting.ranges);
    m_waiting = Waiting();
    runLevels(std::move(level), 0, below, false);
    auto tree = makeTree(merged(std::move(below)));
    if (m_options.progress)
        m_options.progress(1.0);
    return tree;
}

Nodes LevelBuild::merged(Nodes &&below)
{
    Nodes &first = m_nodes;
    const size_t nFirst = first.size(), nBelow = below.size();
    // Where each node's children start: in the first look, or (for a culled node, and in the forest) below.
    std::vector<uint32_t> firstChildAbove(nFirst), firstChildBelow(nFirst + nBelow);
    uint32_t above = 1, under = 0;
    for (size_t i = 0; i < nFirst; ++i) {
        firstChildAbove[i] = above;
        above += first.childCount[i];
        firstChildBelow[i] = under;
        under += first.culled[i] ? first.hiddenChildren[i] : 0;
    }
    for (size_t j = 0; j < nBelow; ++j) {
        firstChildBelow[nFirst + j] = under;
        under += below.childCount[j];
    }
    // Breadth-first over both: a queue of references, bit 32 marking a forest node. The order is the one
    // CallTreeBuilder::build numbers in: each node's children, in label order, after those of the node before.
    constexpr uint64_t kBelow = uint64_t(1) << 32;
    std::vector<uint64_t> queue;
    queue.reserve(nFirst + nBelow);
    queue.push_back(0);
    Nodes all;
    all.frame.reserve(nFirst + nBelow);
    all.kinds.reserve(nFirst + nBelow);
    all.childCount.reserve(nFirst + nBelow);
    all.self.reserve(nFirst + nBelow);
    all.samples.reserve(nFirst + nBelow);
    for (size_t q = 0; q < queue.size(); ++q) {
        const uint64_t ref = queue[q];
        const uint32_t i = uint32_t(ref);
        if (!(ref & kBelow)) {
            all.frame.push_back(first.frame[i]);
            all.kinds.push_back(first.kinds[i]);
            all.self.push_back(first.self[i]);
            all.samples.push_back(first.samples[i]);
            if (first.culled[i]) {
                const uint32_t count = first.hiddenChildren[i];
                all.childCount.push_back(count);
                for (uint32_t c = 0; c < count; ++c)
                    queue.push_back(kBelow | (firstChildBelow[i] + c));
            } else {
                const uint32_t count = first.childCount[i];
                all.childCount.push_back(count);
                for (uint32_t c = 0; c < count; ++c)
                    queue.push_back(firstChildAbove[i] + c);
            }
        } else {
            all.frame.push_back(below.frame[i]);
            all.kinds.push_back(below.kinds[i]);
            all.self.push_back(below.self[i]);
            all.samples.push_back(below.samples[i]);
            const uint32_t count = below.childCount[i];
            all.childCount.push_back(count);
            for (uint32_t c = 0; c < count; ++c)
                queue.push_back(kBelow | (firstChildBelow[nFirst + i] + c));
        }
    }
    m_nodes = Nodes();
    return all;
}

}   // namespace detail

StagedTreeBuild::StagedTreeBuild(const std::vector<std::shared_ptr<const Profile>> &profiles, size_t typeIndex,
                                 const BuildOptions &options, int64_t cullDivisor)
    : m_build(std::make_unique<detail::LevelBuild>(profiles, typeIndex, options, cullDivisor))
{
}

StagedTreeBuild::~StagedTreeBuild() = default;

std::shared_ptr<const CallTree> StagedTreeBuild::firstLook()
{
    return m_build->firstLook();
}

std::shared_ptr<const CallTree> StagedTreeBuild::complete()
{
    return m_build->complete();
}

std::shared_ptr<const CallTree> CallTreeBuilder::build(const std::vector<std::shared_ptr<const Profile>> &profiles,
                                                       size_t typeIndex, const BuildOptions &options)
{
    return StagedTreeBuild(profiles, typeIndex, options, 0).firstLook();
}

std::vector<NodeId> nodesInComplete(const CallTree &firstLook, const CallTree &complete)
{
    std::vector<NodeId> map(firstLook.size(), CallTree::kRoot);
    for (NodeId n = 0; n < firstLook.size(); ++n) {
        const NodeId to = map[n];
        const uint32_t count = firstLook.childCount(n);
        if (count != 0 && count != complete.childCount(to))
            throw std::logic_error("nodesInComplete: not a first look of this tree");
        for (uint32_t c = 0; c < count; ++c)
            map[firstLook.firstChild(n) + c] = complete.firstChild(to) + c;
    }
    return map;
}

}   // namespace qflame
