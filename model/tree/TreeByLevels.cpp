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

#include "io/BesideThread.h"
#include "tree/ProfileFrames.h"

#include <algorithm>
#include <memory>

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
// follow from it once all nodes are made, so the tree's arrays are allocated once, at their size.
struct Nodes {
    std::vector<FrameId> frame;
    std::vector<uint8_t> kinds;
    std::vector<uint32_t> childCount;
    std::vector<int64_t> self;
    std::vector<uint32_t> samples;   // that pass through the node
    void add(FrameId f, uint8_t k)
    {
        frame.push_back(f);
        kinds.push_back(k);
        childCount.push_back(0);
        self.push_back(0);
        samples.push_back(0);
    }
};

// One thread's part of a level: the children of its nodes, in order, and its sorting buffers.
struct LevelPart {
    std::vector<FrameId> frame;
    std::vector<uint8_t> kinds;
    std::vector<Range> ranges;
    std::vector<uint32_t> order, counts, sortedKey;
    std::vector<Cursor> sorted;
    std::vector<uint8_t> sortedKind;
};

class LevelSort {
public:
    LevelSort(std::vector<Cursor> &cursors, const std::vector<Source> &sources, const std::vector<uint32_t> &rank,
              bool collapse, Nodes &nodes)
        : m_cursors(cursors), m_sources(sources), m_rank(rank), m_collapse(collapse), m_nodes(nodes),
          m_key(cursors.size()), m_kind(cursors.size())
    {
        m_frameOfRank.resize(rank.size());
        for (FrameId f = 0; f < rank.size(); ++f)
            m_frameOfRank[rank[f]] = f;
    }

    // Moves the cursors of nodes [first, first + count) (ranges[0, count)) on by one frame, sets those nodes'
    // self, samples and child count, and appends their children to `out`.
    void run(const Range *ranges, size_t count, NodeId first, LevelPart &out)
    {
        constexpr uint32_t kAhead = 16;
        const Source *sources = m_sources.data();
        const uint32_t limit = count ? ranges[count - 1].end : 0;   // the other thread's cursors lie beyond
        for (size_t j = 0; j < count; ++j) {
            const NodeId n = NodeId(first + j);
            const auto [a, b] = ranges[j];
            int64_t self = 0;
            bool oneKey = true;
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
                    self = wrappingAdd(self, c.value);
                }
                oneKey = oneKey && m_key[i] == m_key[a];
            }
            m_nodes.self[n] = self;
            m_nodes.samples[n] = b - a;
            if (!oneKey)
                sortRange(a, b, out);
            uint32_t children = 0;
            for (uint32_t i = a; i < b;) {
                uint32_t e = i + 1;
                uint8_t kinds = m_kind[i];
                while (e < b && m_key[e] == m_key[i])
                    kinds |= m_kind[e++];
                if (m_key[i] != 0) {
                    out.frame.push_back(m_frameOfRank[m_key[i] - 1]);
                    out.kinds.push_back(kinds);
                    out.ranges.push_back({i, e});
                    ++children;
                }
                i = e;
            }
            m_nodes.childCount[n] = children;
        }
    }

private:
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
    Nodes &m_nodes;
    // By cursor: the rank of its next frame plus one (0: its stack ended at this node), and how it enters it.
    std::vector<uint32_t> m_key;
    std::vector<uint8_t> m_kind;
};

}   // namespace

std::shared_ptr<const CallTree> CallTreeBuilder::build(const std::vector<std::shared_ptr<const Profile>> &profiles,
                                                       size_t typeIndex, const BuildOptions &options)
{
    checkInputs(profiles, typeIndex);
    const Profile &first = *profiles.front();
    const CompiledFilters filters(options.filters, profiles);   // a bad option fails before any work

    auto frames = std::make_shared<FrameTable>();
    auto tree = emptyTree(profiles, typeIndex, options);

    // Every profile's frames first: the ranks that order children are of the whole frame table.
    std::vector<std::unique_ptr<ProfileFrames>> prepared;
    std::vector<Source> sources;
    for (const auto &p : profiles) {
        prepared.push_back(std::make_unique<ProfileFrames>(*p, filters, options, *frames));
        const ProfileFrames &pf = *prepared.back();
        // Positions are 32-bit: every input is read under 2 GiB, and each location of a sample is a byte or more.
        if (p->sampleLocations.size() >= UINT32_MAX || pf.locFrames.size() >= UINT32_MAX)
            throw ProfileError(p->sourceName + ": too many locations in the samples");
        sources.push_back({p->sampleLocations.data(), p->sampleLocations.size(), pf.locBegin.data(),
                           pf.locFrames.data(), pf.locKinds.data()});
    }

    size_t totalSamples = 0, doneSamples = 0, steps = 0;
    for (const auto &p : profiles)
        totalSamples += p->sampleCount();
    std::vector<Cursor> cursors;
    cursors.reserve(totalSamples);   // most samples are kept: no copies of a growing array
    for (size_t pi = 0; pi < profiles.size(); ++pi) {
        const Profile &p = *profiles[pi];
        ProfileFrames &pf = *prepared[pi];
        const int type = mergedType(first, typeIndex, p);
        tree->m_durationNanos = wrappingAdd(tree->m_durationNanos, p.durationNanos);
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
            cursors.push_back({v, uint32_t(end), uint32_t(begin), 0, 0, FrameTable::kRoot, uint32_t(pi), {}});
            steps += end - begin;
        }
    }
    if (cursors.size() >= UINT32_MAX)
        throw ProfileError(first.sourceName + ": too many samples");
    tree->m_sampleCount = cursors.size();

    Nodes nodes;
    nodes.add(FrameTable::kRoot, 0);
    const std::vector<uint32_t> rank = frames->labelRanks();
    LevelSort sort(cursors, sources, rank, options.filters.collapseRecursion, nodes);
    std::vector<Range> level{{0, uint32_t(cursors.size())}};
    std::vector<NodeId> levelFirst{0};   // the first node of each depth
    LevelPart parts[2];
    size_t walked = 0;   // cursor moves, for progress (about one per location of a stack)
    while (!level.empty()) {
        const NodeId firstNode = levelFirst.back();
        for (LevelPart &part : parts) {
            part.frame.clear();
            part.kinds.clear();
            part.ranges.clear();
        }
        // A wide level is shared with a second thread: the first half of its nodes here, the rest there, their
        // children in that order, which keeps them breadth-first.
        const uint64_t active = uint64_t(level.back().end) - level.front().begin;
        size_t split = level.size();
        if (active >= 65536 && level.size() >= 2) {
            split = 1;
            while (split + 1 < level.size() && level[split].begin - level.front().begin < active / 2)
                ++split;
        }
        if (split < level.size()) {
            runBeside([&] { sort.run(level.data() + split, level.size() - split, NodeId(firstNode + split), parts[1]); },
                      [&] { sort.run(level.data(), split, firstNode, parts[0]); });
        } else {
            sort.run(level.data(), level.size(), firstNode, parts[0]);
        }
        walked += active;
        if (options.progress && !options.progress(0.1 + 0.8 * std::min(1.0, double(walked) / double(steps + 1))))
            throw Cancelled();
        levelFirst.push_back(NodeId(nodes.frame.size()));
        level.clear();
        for (const LevelPart &part : parts) {
            for (size_t k = 0; k < part.frame.size(); ++k)
                nodes.add(part.frame[k], part.kinds[k]);
            level.insert(level.end(), part.ranges.begin(), part.ranges.end());
        }
    }

    // The tree's arrays from the nodes: the children of node n follow those of n - 1 (breadth-first).
    CallTree &t = *tree;
    const size_t n = nodes.frame.size();
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
    NodeId next = 1;
    for (NodeId i = 0; i < n; ++i) {
        t.m_firstChild[i] = next;
        for (uint32_t c = 0; c < t.m_childCount[i]; ++c, ++next) {
            t.m_parent[next] = i;
            t.m_depth[next] = t.m_depth[i] + 1;
        }
    }
    for (size_t i = n; i-- > 1;)
        t.m_total[t.m_parent[i]] = wrappingAdd(t.m_total[t.m_parent[i]], t.m_total[i]);
    t.m_maxDepth = uint32_t(levelFirst.size() - 2);
    tree->m_frames = std::move(frames);
    if (options.progress)
        options.progress(1.0);
    return tree;
}

}   // namespace qflame
