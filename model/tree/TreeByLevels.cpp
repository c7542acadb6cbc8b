// CallTreeBuilder::build: the samples' stacks sorted into a tree level by level.
//
// It is a most-significant-digit radix sort of the stacks. The samples that pass through a node are a contiguous
// range of cursors; each is moved on by one frame, the range is sorted by the label rank of that frame, and each
// run of one frame is a child, numbered as it comes: that is breadth-first order with sorted children, the
// CallTree's own. Every node is made once, where it stays, and nothing is looked up. (The tree was built through
// a hash map of (parent, frame) before, one lookup per frame of every stack: on the 1.9M-node r64 profile 14.7
// million lookups scattered over 64 MB, the map grown by doubling, the nodes renumbered and their children
// sorted afterwards. That was most of the window's time to its first flamegraph.) A staged build's first look
// is not sorted but walked (FirstLookWalk.cpp); its whole tree is then sorted here from the stacks' start. The
// sort of one level is LevelSort.cpp's.
#include "tree/CallTreeBuilder.h"
#include "tree/StagedTree.h"
#include "tree/LevelCursor.h"

#include "io/BesideThread.h"
#include "io/Prefault.h"
#include "tree/LabelFrames.h"
#include "tree/LevelSort.h"
#include "tree/ProfileFrames.h"
#include "tree/SampleCallEdges.h"
#include "tree/StackLevels.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <stdexcept>

namespace qflame {

using namespace detail;

namespace detail {

// One build: its frames and cursors, and between a staged build's two steps its first look.
class LevelBuild {
public:
    LevelBuild(const std::vector<std::shared_ptr<const Profile>> &inputs, size_t typeIndex,
               const BuildOptions &options, int64_t cullDivisor);
    std::shared_ptr<const CallTree> firstLook();
    std::shared_ptr<const CallTree> complete();

private:
    // Runs the level loop from `level` (nodes [firstNode, ...) of `nodes`) to the leaves.
    void runLevels(std::vector<Range> level, NodeId firstNode, Nodes &nodes);
    std::shared_ptr<CallTree> makeTree(Nodes nodes) const;
    // The widest level's sort buffers (and the cursors) faulted in on the other core.
    void prefaultSortBuffers(bool andCursors);
    // An inverted build's source of profile p: the cursors walk each stack forward, from its leaf (Source::forward),
    // and read the frames of every location innermost first from a reversed copy of them (one sequential pass over
    // the locations' frames; the samples' locations are read where they are: a reversed copy of them, 100 MB and
    // more on the largest profiles, cost a fifth of the build in page faults alone).
    Source reversedSource(const Profile &p, const ProfileFrames &pf);
    // Source::locLevels of one profile's locations (kept in m_locLevels), or null where one has 255 frames or more.
    const uint8_t *levelsPerLocation(const ProfileFrames &pf);
    // Source::locSingle of a source of `locations` locations (kept in m_locSingle).
    const FrameId *singleFrames(const Source &source, size_t locations);
    // A bottom-up build's call edges, from the cursors before they move (the whole tree's, not the first
    // look's: the first paint does not wait for them, the top table of the whole tree does).
    void walkEdges();
    // The cursors of every kept sample, at their stacks' start (appendCursors), and what they add up to
    // (m_totals); faulted in on the other core, with the widest level's sort buffers when `andSortBuffers`.
    void makeCursors(bool andSortBuffers);
    // Whether a first look reads the samples where they are (StackStarts): one large profile no filter
    // touches. Its cursors are made after it, for the whole tree (complete()).
    bool readsSamplesInPlace(int64_t cullDivisor) const;
    // What the cursors would add up to, from the samples where they are (a first look that reads them there).
    CursorTotals totalsInPlace() const;

    BuildOptions m_options;
    std::vector<std::shared_ptr<const Profile>> m_inputs;     // the caller's (options.sampleFilter reads them)
    std::vector<std::shared_ptr<const Profile>> m_profiles;   // the inputs, with label frames when asked
    bool m_inverted = false;
    struct Reversed {
        std::vector<FrameId> locFrames;
        std::vector<uint8_t> locKinds;
    };
    std::vector<std::unique_ptr<Reversed>> m_reversed;   // by profile, for an inverted build
    std::vector<std::vector<uint8_t>> m_locLevels;       // by profile: Source::locLevels
    std::vector<std::vector<FrameId>> m_locSingle;       // by profile: Source::locSingle
    SampleCallEdges m_edges;
    std::shared_ptr<CallTree> m_shell;   // sample type, granularity, counts
    std::shared_ptr<FrameTable> m_frames;
    std::vector<std::unique_ptr<ProfileFrames>> m_prepared;
    std::vector<Source> m_sources;
    Cursors m_cursors;
    CursorTotals m_totals;
    std::vector<uint32_t> m_rank;
    bool m_inPlace = false;   // the first look reads the samples where they are: no cursors until complete()
    size_t m_typeIndex = 0;
    bool m_staged = false;    // a first look was made: complete() sorts the whole tree
    std::unique_ptr<LevelSort> m_sort;
    LevelPart m_parts[2];   // one per thread, kept from level to level and from the first step to the second
    Prefaulter m_prefault, m_prefaultSort;
    Cut m_cut;
    std::shared_ptr<const CallTree> m_first;
    size_t m_steps = 0, m_walked = 0;   // cursor moves, for progress (about one per location of a stack)
    std::unique_ptr<StackLevels> m_stackLevels;   // last: its helper reads the arrays above until it is gone
};

// Prefaulter::unwritten for the cursors' array (its own allocator).
static Prefaulter::Range unwrittenCursors(const Cursors &v)
{
    return {v.data() + v.size(), (v.capacity() - v.size()) * sizeof(Cursor)};
}

LevelBuild::LevelBuild(const std::vector<std::shared_ptr<const Profile>> &inputs, size_t typeIndex,
                       const BuildOptions &options, int64_t cullDivisor)
    : m_options(options)
{
    checkInputs(inputs, typeIndex);
    m_inputs = inputs;
    m_profiles = withLabelFrames(inputs, options.filters);
    m_inverted = options.filters.inverted;
    const std::vector<std::shared_ptr<const Profile>> &profiles = m_profiles;
    const Profile &first = *profiles.front();
    const CompiledFilters filters(options.filters, profiles);   // a bad option fails before any work

    m_frames = std::make_shared<FrameTable>();
    m_shell = std::make_shared<CallTree>();
    m_shell->m_sampleType = {first.typeName(typeIndex), first.unitName(typeIndex)};
    m_shell->m_granularity = options.granularity;
    m_shell->m_profileCount = profiles.size();
    m_shell->m_inverted = m_inverted;

    // Every profile's frames first: the ranks that order children are of the whole frame table.
    for (const auto &p : profiles) {
        m_prepared.push_back(std::make_unique<ProfileFrames>(*p, filters, options, *m_frames));
        const ProfileFrames &pf = *m_prepared.back();
        // Positions are 32-bit: every input is read under 2 GiB, and each location of a sample is a byte or more.
        if (p->sampleLocations.size() >= UINT32_MAX || pf.locFrames.size() >= UINT32_MAX)
            throw ProfileError(p->sourceName + ": too many locations in the samples");
        if (m_inverted)
            m_sources.push_back(reversedSource(*p, pf));
        else
            m_sources.push_back({p->sampleLocations.view(), p->sampleLocations.size(), pf.locBegin.data(),
                                 pf.locFrames.data(), pf.locKinds.data()});
        m_sources.back().locLevels = levelsPerLocation(pf);
        m_sources.back().locSingle = singleFrames(m_sources.back(), pf.locBegin.size() - 1);
    }

    size_t totalSamples = 0;
    for (const auto &p : profiles) {
        totalSamples += p->sampleCount();
        m_shell->m_durationNanos = wrappingAdd(m_shell->m_durationNanos, p->durationNanos);
    }
    // The buffers that sort the widest level (the root's children: all cursors): reserved now, faulted in when
    // the cursors are made (makeCursors) or when the whole tree after a first look starts (complete()).
    LevelPart &widest = m_parts[0];
    widest.sorted.reserve(totalSamples);
    widest.order.reserve(totalSamples);
    widest.sortedKey.reserve(totalSamples);
    widest.sortedKind.reserve(totalSamples);
    if (m_inverted)   // a bottom-up tree's call edges, for pprof's inline markers: walked by walkEdges()
        for (const auto &pf : m_prepared)
            m_edges.addProfile(*pf, m_frames->size());
    m_typeIndex = typeIndex;
    m_inPlace = readsSamplesInPlace(cullDivisor);
    if (m_inPlace)   // the first look walks the samples: their levels counted meanwhile (tree/StackLevels.h)
        m_stackLevels = std::make_unique<StackLevels>(StackStarts(first, typeIndex, m_inverted), m_sources,
                                                      options.filters.collapseRecursion);
    CursorTotals totals;
    if (m_inPlace) {
        totals = totalsInPlace();
    } else {
        // A staged build's sort waits for its first look, which walks the stacks on both cores: its buffers are
        // faulted in when it starts (complete()).
        makeCursors(cullDivisor <= 0);
        totals = m_totals;
    }
    const bool negative = totals.negative;
    const unsigned __int128 rootTotal = totals.rootTotal;
    m_steps = totals.steps;
    m_shell->m_sampleCount = totals.kept;
    if (cullDivisor > 0 && !negative)
        m_cut = {rootTotal, uint64_t(cullDivisor)};
    m_rank = m_frames->labelRanks();
    // The sort (LevelSort) is made when a level is first sorted: its per-cursor arrays (4 MB on r64, a
    // thousand page faults) are not the first look's.
}

bool LevelBuild::readsSamplesInPlace(int64_t cullDivisor) const
{
    constexpr size_t kInPlaceFrom = 65536;   // a first look walks its stacks from here (FirstLookWalk.cpp)
    if (cullDivisor <= 0 || m_profiles.size() != 1 || m_options.sampleFilter)
        return false;
    const ProfileFrames &pf = *m_prepared.front();
    return !pf.filter && !pf.pruning.active && m_profiles.front()->sampleCount() >= kInPlaceFrom;
}

CursorTotals LevelBuild::totalsInPlace() const
{
    const Profile &p = *m_profiles.front();
    CursorTotals totals;
    const size_t stride = p.sampleTypes.size();
    const SampleValues::View values = p.values.view();
    for (size_t s = 0; s < p.sampleCount(); ++s) {
        const int64_t v = values[s * stride + m_typeIndex];
        if (v == 0)
            continue;
        ++totals.kept;
        totals.steps += p.sampleLocBegin[s + 1] - p.sampleLocBegin[s];
        totals.negative = totals.negative || v < 0;
        totals.rootTotal += uint64_t(v);
    }
    if (totals.kept >= UINT32_MAX)
        throw ProfileError(p.sourceName + ": too many samples");
    return totals;
}

void LevelBuild::makeCursors(bool andSortBuffers)
{
    const std::vector<std::shared_ptr<const Profile>> &profiles = m_profiles;
    const Profile &first = *profiles.front();
    size_t totalSamples = 0, doneSamples = 0;
    for (const auto &p : profiles)
        totalSamples += p->sampleCount();
    m_cursors.reserve(totalSamples);   // most samples are kept: no copies of a growing array
    // Huge pages: r64's 36 MB of cursors took 80-150 ms of 4 KiB page faults, the first look's wait (LevelCursors.cpp).
    adviseHugePages(m_cursors.data(), m_cursors.capacity() * sizeof(Cursor));
    // The cursors and the buffers that sort the widest level are faulted in on the other core: 80 MB on r64,
    // 20,000 page faults otherwise paid in the build (about 7 us each on this kind of virtual machine); the
    // cursors while this core makes them.
    if (andSortBuffers)
        prefaultSortBuffers(true);
    else
        m_prefault.start({unwrittenCursors(m_cursors)});
    // After a first look (read in place) the progress stays where the first look left it; cancel still stops.
    BuildOptions options = m_options;
    if (m_staged && options.progress)
        options.progress = [progress = m_options.progress](double) { return progress(0.45); };
    CursorTotals totals;
    for (size_t pi = 0; pi < profiles.size(); ++pi) {
        const Profile &p = *profiles[pi];
        const int type = mergedType(first, m_typeIndex, p);
        appendCursors(m_cursors, p, *m_inputs[pi], *m_prepared[pi], size_t(type), uint32_t(pi), m_inverted, options,
                      doneSamples, totalSamples, totals);
    }
    if (m_cursors.size() >= UINT32_MAX)
        throw ProfileError(first.sourceName + ": too many samples");
    totals.kept = m_cursors.size();
    m_totals = totals;
}

const uint8_t *LevelBuild::levelsPerLocation(const ProfileFrames &pf)
{
    std::vector<uint8_t> levels(pf.locBegin.empty() ? 0 : pf.locBegin.size() - 1);
    for (size_t l = 0; l < levels.size(); ++l) {
        const uint32_t frames = pf.locBegin[l + 1] - pf.locBegin[l];
        if (frames >= 255)
            return nullptr;
        levels[l] = uint8_t(frames);
    }
    m_locLevels.push_back(std::move(levels));   // the vector's buffer stays where it is
    return m_locLevels.back().data();
}

const FrameId *LevelBuild::singleFrames(const Source &source, size_t locations)
{
    std::vector<FrameId> single(locations, Source::kSeveralFrames);
    for (size_t l = 0; l < locations; ++l) {
        const uint32_t b = source.locBegin[l];
        if (source.locBegin[l + 1] - b == 1 && source.locKinds[b] == CallTree::kCalled)
            single[l] = source.locFrames[b];
    }
    m_locSingle.push_back(std::move(single));   // the vector's buffer stays where it is
    return m_locSingle.back().data();
}

Source LevelBuild::reversedSource(const Profile &p, const ProfileFrames &pf)
{
    auto r = std::make_unique<Reversed>();
    r->locFrames.resize(pf.locFrames.size());
    r->locKinds.resize(pf.locKinds.size());
    for (size_t l = 0; l + 1 < pf.locBegin.size(); ++l) {
        const uint32_t b = pf.locBegin[l], e = pf.locBegin[l + 1];
        std::reverse_copy(pf.locFrames.begin() + b, pf.locFrames.begin() + e, r->locFrames.begin() + b);
        std::reverse_copy(pf.locKinds.begin() + b, pf.locKinds.begin() + e, r->locKinds.begin() + b);
    }
    const Source source{p.sampleLocations.view(), p.sampleLocations.size(), pf.locBegin.data(), r->locFrames.data(),
                        r->locKinds.data(), true};
    m_reversed.push_back(std::move(r));
    return source;
}

void LevelBuild::prefaultSortBuffers(bool andCursors)
{
    LevelPart &widest = m_parts[0];
    std::vector<Prefaulter::Range> ranges{Prefaulter::unwritten(widest.sorted), Prefaulter::unwritten(widest.order),
                                          Prefaulter::unwritten(widest.sortedKey),
                                          Prefaulter::unwritten(widest.sortedKind)};
    if (andCursors)
        ranges.push_back(unwrittenCursors(m_cursors));
    m_prefaultSort.start(std::move(ranges));
}

void LevelBuild::runLevels(std::vector<Range> level, NodeId firstNode, Nodes &nodes)
{
    if (!m_sort)
        m_sort = std::make_unique<LevelSort>(m_cursors, m_sources, m_rank, m_options.filters.collapseRecursion);
    m_sort->setNodes(&nodes);
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
            for (size_t k = 0; k < part.frame.size(); ++k)
                nodes.add(part.frame[k], part.kinds[k]);
            level.insert(level.end(), part.ranges.begin(), part.ranges.end());
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

void LevelBuild::walkEdges()
{
    if (!m_inverted || !m_edges.any())
        return;
    // Bottom-up: [locPos, locStop) counted up from the leaf (a first look leaves the cursors where they start).
    for (const Cursor &c : m_cursors)
        m_edges.walk(*m_profiles[c.source], *m_prepared[c.source], c.locPos, c.locStop);
    m_shell->m_callEdges = m_edges.take();
}

std::shared_ptr<const CallTree> LevelBuild::firstLook()
{
    if (m_cut.divisor == 0) {   // the whole tree at once
        if (m_inPlace)   // (negative values: nothing is left out)
            makeCursors(true);
        walkEdges();
        Nodes nodes;
        nodes.add(FrameTable::kRoot, 0);
        runLevels({{0, uint32_t(m_cursors.size())}}, 0, nodes);
        m_first = makeTree(std::move(nodes));
        if (m_options.progress)
            m_options.progress(1.0);
        return m_first;
    }
    const StackStarts stacks = m_inPlace ? StackStarts(*m_profiles.front(), m_typeIndex, m_inverted)
                                         : StackStarts(m_cursors);
    std::shared_ptr<CallTree> first = makeTree(firstLookNodes(stacks, m_sources, m_rank,
                                                              m_options.filters.collapseRecursion, m_cut,
                                                              m_options.progress, m_stackLevels.get()));
    if (first->isComplete()) {   // the whole tree already: complete() returns it
        if (m_inPlace && m_inverted)   // its call edges are walked from the cursors
            makeCursors(false);
        walkEdges();
        first->m_callEdges = m_shell->m_callEdges;
    }
    m_first = std::move(first);
    m_staged = true;
    if (m_first->isComplete() && m_options.progress)
        m_options.progress(1.0);
    return m_first;
}

std::shared_ptr<const CallTree> LevelBuild::complete()
{
    if (!m_staged || m_first->isComplete())
        return m_first;
    // The cursors, made now when the first look read the samples where they are; the widest level's sort
    // buffers faulted in meanwhile.
    if (m_inPlace)
        makeCursors(true);
    else
        prefaultSortBuffers(false);
    walkEdges();
    Nodes all;
    all.add(FrameTable::kRoot, 0);
    runLevels({{0, uint32_t(m_cursors.size())}}, 0, all);
    auto tree = makeTree(std::move(all));
    if (m_options.progress)
        m_options.progress(1.0);
    return tree;
}

}   // namespace detail

StagedTreeBuild::StagedTreeBuild(const std::vector<std::shared_ptr<const Profile>> &profiles, size_t typeIndex,
                                 const BuildOptions &options, int64_t cullDivisor)
    : m_build(std::make_unique<detail::LevelBuild>(profiles, typeIndex, options, cullDivisor))
{
}

StagedTreeBuild::~StagedTreeBuild() = default;

namespace {
std::atomic<int64_t> g_viewCullDivisor{StagedTreeBuild::kCullDivisor};
}

void StagedTreeBuild::setViewCullDivisor(int64_t divisor)
{
    g_viewCullDivisor = divisor;
}

int64_t StagedTreeBuild::viewCullDivisor()
{
    return g_viewCullDivisor;
}

int64_t StagedTreeBuild::cullDivisorForWidth(int width)
{
    int64_t divisor = 2048;
    while (divisor < width && divisor < kCullDivisor)
        divisor *= 2;
    return divisor;
}

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
