#include "CallTreeBuilder.h"

#include <QRegularExpression>

#include <algorithm>
#include <atomic>
#include <numeric>
#include <optional>
#include <thread>

namespace qflame {

namespace {

// pprof strips argument lists before matching drop_frames: cut at the first '(' that does not start one of
// the reserved names that contain a bracket (profile.Prune).
std::string withoutArguments(std::string name)
{
    if (!name.empty() && name.front() == '.')   // leading '.' of the PPC ELF v1 ABI
        name.erase(0, 1);
    static const std::string_view reserved[] = {"(anonymous namespace)", "operator()"};
    for (size_t i = 0; i < name.size(); ++i) {
        bool skipped = false;
        for (std::string_view r : reserved)
            if (std::string_view(name).substr(i, r.size()) == r) {
                i += r.size() - 1;
                skipped = true;
                break;
            }
        if (!skipped && name[i] == '(')
            return name.substr(0, i);
    }
    return name;
}

// pprof's profile.Prune for drop_frames / keep_frames, as per-location and per-sample cuts.
struct Pruning {
    std::vector<uint32_t> skipLines;   // innermost lines removed from each location
    std::vector<uint8_t> prune, pruneBeneath;
    bool active = false;
};

Pruning computePruning(const Profile &p)
{
    Pruning r;
    if (p.dropFrames == 0 || p.str(p.dropFrames).empty())
        return r;
    const QRegularExpression drop(QStringLiteral("^(") + QString::fromStdString(p.str(p.dropFrames)) +
                                  QStringLiteral(")$"));
    if (!drop.isValid())
        throw ProfileError(p.sourceName + ": drop_frames is not a valid regular expression: " +
                           drop.errorString().toStdString());
    QRegularExpression keep;
    const bool hasKeep = p.keepFrames != 0 && !p.str(p.keepFrames).empty();
    if (hasKeep) {
        keep.setPattern(QStringLiteral("^(") + QString::fromStdString(p.str(p.keepFrames)) + QStringLiteral(")$"));
        if (!keep.isValid())
            throw ProfileError(p.sourceName + ": keep_frames is not a valid regular expression: " +
                               keep.errorString().toStdString());
    }
    r.active = true;
    std::vector<int8_t> fnDropped(p.functions.size(), -1);
    auto dropped = [&](uint32_t fn) {
        if (fnDropped[fn] < 0) {
            const std::string &name = p.str(p.functions[fn].name);
            bool d = false;
            if (!name.empty()) {
                const QString n = QString::fromStdString(withoutArguments(name));
                d = drop.match(n).hasMatch() && !(hasKeep && keep.match(n).hasMatch());
            }
            fnDropped[fn] = d;
        }
        return fnDropped[fn] == 1;
    };
    r.skipLines.assign(p.locations.size(), 0);
    r.prune.assign(p.locations.size(), 0);
    r.pruneBeneath.assign(p.locations.size(), 0);
    for (size_t l = 0; l < p.locations.size(); ++l) {
        const Location &loc = p.locations[l];
        // Scan from the outermost line (the caller) inwards, like pprof.
        for (int i = int(loc.lineCount) - 1; i >= 0; --i) {
            if (!dropped(p.lines[loc.firstLine + uint32_t(i)].function))
                continue;
            r.pruneBeneath[l] = 1;
            if (i == int(loc.lineCount) - 1)
                r.prune[l] = 1;
            else
                r.skipLines[l] = uint32_t(i + 1);
            break;
        }
    }
    return r;
}

// One profile made ready for walking its samples: the frames of every location, outermost (caller) first, with
// drop_frames and the filters applied. Shared by the tree and the flat-only builds, so both see the same stacks.
struct ProfileFrames {
    ProfileFrames(const Profile &profile, const CompiledFilters &filters, const BuildOptions &options,
                  FrameTable &frames)
        : p(profile), pruning(computePruning(profile))
    {
        if (filters.filtersSamples())
            filter.emplace(filters, p, pruning.skipLines);
        StringPool &pool = frames.strings();
        std::vector<StrId> strMap(p.strings.size(), 0);
        auto g = [&](uint32_t local) {
            if (local != 0 && strMap[local] == 0)
                strMap[local] = pool.intern(p.strings[local]);
            return strMap[local];
        };
        // Frames of every location once, outermost (caller) first, the order samples are walked in. A location
        // hidden by the filters has none, so walking a sample skips it.
        // The object file pprof names frames without a function after (none for remote-source placeholders).
        std::vector<StrId> objfiles(p.mappings.size(), 0);
        for (uint32_t m = 0; m < p.mappings.size(); ++m)
            if (!filterMappingFile(p, m).empty())
                objfiles[m] = g(p.mappings[m].file);
        locBegin.assign(p.locations.size() + 1, 0);
        locFrames.reserve(p.lines.size() + p.locations.size());
        for (size_t l = 0; l < p.locations.size(); ++l) {
            const Location &loc = p.locations[l];
            locBegin[l] = uint32_t(locFrames.size());
            if (filter && filter->locationHidden(uint32_t(l)))
                continue;
            const Mapping *m = loc.mapping == kNone ? nullptr : &p.mappings[loc.mapping];
            const StrId objfile = m ? objfiles[loc.mapping] : 0;
            Frame extras;
            extras.mappingFile = m ? g(m->file) : 0;
            extras.buildId = m ? g(m->buildId) : 0;
            const uint64_t address = options.granularity == Granularity::Addresses ? loc.address : 0;
            const uint32_t skip = pruning.active ? pruning.skipLines[l] : 0;
            if (loc.lineCount <= skip) {
                FrameKey key;
                key.address = address;
                key.objfile = objfile;
                locFrames.push_back(frames.intern(key, extras));
                locKinds.push_back(CallTree::kCalled);
                continue;
            }
            uint8_t kind = CallTree::kCalled;
            for (int i = int(loc.lineCount) - 1; i >= int(skip); --i) {
                if (filter && !filter->lineKept(loc.firstLine + uint32_t(i)))
                    continue;
                const Line &ln = p.lines[loc.firstLine + uint32_t(i)];
                const Function &fn = p.functions[ln.function];
                FrameKey key;
                key.address = address;
                key.name = g(fn.name);
                if (options.granularity != Granularity::Functions) {
                    key.line = ln.line;
                    if (fn.filename != 0 && !p.str(fn.filename).empty())
                        key.file = pool.intern(cleanPath(p.str(fn.filename)));
                }
                if (key.name == 0) {
                    key.objfile = objfile;
                    key.startLine = fn.startLine;
                }
                extras.sourceFile = g(fn.filename);
                extras.systemName = g(fn.systemName);
                locFrames.push_back(frames.intern(key, extras));
                locKinds.push_back(kind);
                kind = CallTree::kInlined;
            }
        }
        locBegin[p.locations.size()] = uint32_t(locFrames.size());
    }
    ProfileFrames(const ProfileFrames &) = delete;   // `filter` refers to `pruning`
    ProfileFrames &operator=(const ProfileFrames &) = delete;

    // The locations of sample s that remain after drop_frames, p.sampleLocations[begin, end) leaf first, or
    // false when the filters leave the sample out.
    bool sampleRange(size_t s, size_t &begin, size_t &end)
    {
        begin = p.sampleLocBegin[s];
        end = p.sampleLocBegin[s + 1];
        if (pruning.active) {
            // From the root towards the leaf; frames before the first kept one are never pruned.
            bool foundUser = false;
            for (size_t k = end; k-- > begin;) {
                const uint32_t loc = p.sampleLocations[k];
                if (!pruning.prune[loc] && !pruning.pruneBeneath[loc]) {
                    foundUser = true;
                    continue;
                }
                if (!foundUser)
                    continue;
                begin = pruning.prune[loc] ? k + 1 : k;
                break;
            }
        }
        return !filter || filter->keepSample(s, begin, end);
    }

    const Profile &p;
    const Pruning pruning;
    std::optional<ProfileFilter> filter;
    std::vector<uint32_t> locBegin;   // frames of location l: locFrames[locBegin[l], locBegin[l + 1])
    std::vector<FrameId> locFrames;
    std::vector<uint8_t> locKinds;    // how each frame is entered: the outermost line is a call, others inlined
};

// The sample type of `first` to read from p: the same name and unit.
int mergedType(const Profile &first, size_t typeIndex, const Profile &p)
{
    if (&p == &first)
        return int(typeIndex);
    const std::string name = first.typeName(typeIndex) + "/" + first.unitName(typeIndex);
    const int type = p.findSampleType(name);
    if (type < 0)
        throw ProfileError(p.sourceName + ": has no sample type " + name + " to merge with " + first.sourceName);
    return type;
}

void checkInputs(const std::vector<std::shared_ptr<const Profile>> &profiles, size_t typeIndex)
{
    if (profiles.empty())
        throw ProfileError("no profile to build a call tree from");
    const Profile &first = *profiles.front();
    if (typeIndex >= first.sampleTypes.size())
        throw ProfileError(first.sourceName + ": the profile has no sample type #" + std::to_string(typeIndex));
}

}   // namespace

std::shared_ptr<const CallTree> CallTreeBuilder::build(const std::vector<std::shared_ptr<const Profile>> &profiles,
                                                       size_t typeIndex, const BuildOptions &options)
{
    checkInputs(profiles, typeIndex);
    const Profile &first = *profiles.front();
    const CompiledFilters filters(options.filters, profiles);   // a bad option fails before any work
    const bool collapse = options.filters.collapseRecursion;

    auto frames = std::make_shared<FrameTable>();
    auto tree = emptyTree(profiles, typeIndex, options);

    CallTreeAccumulator b;
    size_t totalSamples = 0, doneSamples = 0;
    for (const auto &p : profiles)
        totalSamples += p->sampleCount();

    for (const auto &pp : profiles) {
        const Profile &p = *pp;
        const int type = mergedType(first, typeIndex, p);
        tree->m_durationNanos = wrappingAdd(tree->m_durationNanos, p.durationNanos);
        ProfileFrames pf(p, filters, options, *frames);
        const std::vector<uint32_t> &locBegin = pf.locBegin;
        const std::vector<FrameId> &locFrames = pf.locFrames;
        const std::vector<uint8_t> &locKinds = pf.locKinds;

        const size_t nSamples = p.sampleCount();
        std::vector<uint32_t> pathLocs;   // the previous sample's locations from the root, and the node after each
        std::vector<NodeId> pathNodes;
        struct Step {
            uint32_t hash;
            FrameId frame;
            uint8_t kind;
        };
        std::vector<Step> steps;
        std::vector<uint32_t> locEnds;
        for (size_t s = 0; s < nSamples; ++s) {
            if (options.progress && (++doneSamples & 0x7fff) == 0 &&
                !options.progress(0.8 * double(doneSamples) / double(totalSamples)))
                throw Cancelled();
            const int64_t v = p.value(s, size_t(type));
            if (v == 0)   // pprof skips zero samples entirely: they add neither nodes nor edges
                continue;
            if (options.sampleFilter && !options.sampleFilter(p, s))
                continue;
            size_t begin, end;
            if (!pf.sampleRange(s, begin, end))
                continue;
            // Walk from the root. The node reached after each location depends only on the locations above
            // it, so the part of the stack shared with the previous sample is taken from its path without a
            // single lookup (samples of one program share their outer frames, often most of them).
            const size_t depth = end - begin;
            size_t i = 0;
            NodeId node = CallTree::kRoot;
            for (const size_t shared = std::min(depth, pathLocs.size());
                 i < shared && p.sampleLocations[end - 1 - i] == pathLocs[i]; ++i)
                node = pathNodes[i];
            pathLocs.resize(i);
            pathNodes.resize(i);
            // The rest: first every frame and its node's hash, which need no lookup, then the lookups, each
            // slot prefetched a few steps ahead: the misses overlap instead of queueing one after another.
            steps.clear();
            locEnds.clear();
            uint32_t h = b.hash(node);
            FrameId last = b.frame(node);
            for (size_t k = i; k < depth; ++k) {
                const uint32_t loc = p.sampleLocations[end - 1 - k];
                for (uint32_t f = locBegin[loc]; f < locBegin[loc + 1]; ++f) {
                    if (collapse && locFrames[f] == last)   // collapsed: a direct self-call stays in its caller
                        continue;
                    h = CallTreeAccumulator::pathHash(h, locFrames[f]);
                    steps.push_back({h, locFrames[f], locKinds[f]});
                    last = locFrames[f];
                }
                locEnds.push_back(uint32_t(steps.size()));
                pathLocs.push_back(loc);
            }
            constexpr size_t kAhead = 8;
            for (size_t j = 0; j < std::min(kAhead, steps.size()); ++j)
                b.prefetch(steps[j].hash);
            size_t step = 0;
            for (const uint32_t stepsEnd : locEnds) {
                for (; step < stepsEnd; ++step) {
                    if (step + kAhead < steps.size())
                        b.prefetch(steps[step + kAhead].hash);
                    node = b.child(node, steps[step].frame, steps[step].kind, steps[step].hash);
                }
                pathNodes.push_back(node);
            }
            b.addSelf(node, v, 1);
            ++tree->m_sampleCount;
        }
    }

    freeze(b, *frames, *tree, options.progress);
    tree->m_frames = std::move(frames);
    if (options.progress)
        options.progress(1.0);
    return tree;
}

namespace {

// Where the frames of each location are, for the flat pass: most locations have one frame, held here itself, so
// that walking a sample reads one entry per location instead of a range and then the frames.
struct LocationFrames {
    uint32_t first;   // count 1: the frame; otherwise where its frames begin in ProfileFrames::locFrames
    uint32_t count;
};

std::vector<LocationFrames> locationFrames(const ProfileFrames &pf)
{
    std::vector<LocationFrames> out(pf.locBegin.size() - 1);
    for (size_t l = 0; l + 1 < pf.locBegin.size(); ++l) {
        const uint32_t begin = pf.locBegin[l], count = pf.locBegin[l + 1] - begin;
        out[l] = {count == 1 ? pf.locFrames[begin] : begin, count};
    }
    return out;
}

// The flat and cumulative sums over a range of samples. On large profiles without filters two passes run side
// by side on the two halves of the samples, then one is added to the other (the sums wrap, so order does not
// matter). Filters stay on one thread: their tag matchers are not made for concurrent use.
struct FlatPass {
    // What a sample's walk reads and writes of each frame, side by side: one cache line where three arrays
    // took three (the walk was the largest part of `qflame top` on 23,000 functions).
    struct FrameSums {
        int64_t cum = 0;
        uint32_t seenIn = 0;       // the last sample (numbered from 1) that counted the frame in cum
        uint32_t everInlined = 0;  // reached inlined somewhere in the profile walked
    };
    std::vector<int64_t> flat;
    std::vector<FrameSums> sums;
    uint32_t sampleNo = 0;
    // pprof's inline marker needs the call edges (caller frame -> frame) into frames reached inlined somewhere:
    // an edge is inlined when none of its occurrences was a call. No other frame can be marked.
    FlatHashMap edges{64};   // grows by doubling: a small profile should not clear a 128 KB table per tree
    std::vector<uint64_t> edgeKey;   // caller << 32 | frame
    std::vector<uint8_t> edgeCalled;
    int64_t total = 0, self = 0;
    uint64_t samples = 0;

    // Sized for the frames known so far, with the inlined marks of the profile about to be walked.
    void prepare(const std::vector<uint8_t> &everInlined)
    {
        flat.resize(everInlined.size(), 0);
        sums.resize(everInlined.size());
        for (size_t f = 0; f < sums.size(); ++f)
            sums[f].everInlined = everInlined[f];
    }

    void run(const Profile &p, ProfileFrames &pf, const std::vector<LocationFrames> &locations, size_t type,
             size_t from, size_t to, const BuildOptions &options, const std::atomic<bool> *stop)
    {
        for (size_t s = from; s < to; ++s) {
            if ((s & 0x7fff) == 0 && s > from) {
                if (options.progress && !stop && !options.progress(0.9 * double(s - from) / double(to - from)))
                    throw Cancelled();
                if (stop && stop->load(std::memory_order_relaxed))
                    return;
            }
            const int64_t v = p.value(s, type);
            if (v == 0 || (options.sampleFilter && !options.sampleFilter(p, s)))
                continue;
            size_t begin, end;
            if (!pf.sampleRange(s, begin, end))
                continue;
            ++sampleNo;
            ++samples;
            total = wrappingAdd(total, v);
            FrameId caller = FrameTable::kRoot;
            auto visit = [&](FrameId f, bool called) {
                FrameSums &sum = sums[f];
                if (sum.seenIn != sampleNo) {
                    sum.seenIn = sampleNo;
                    sum.cum = wrappingAdd(sum.cum, v);
                }
                if (sum.everInlined && caller != FrameTable::kRoot && caller != f)
                    edge((uint64_t(caller) << 32) | f, called);
                caller = f;
            };
            for (size_t k = end; k-- > begin;) {
                const LocationFrames lf = locations[p.sampleLocations[k]];
                if (lf.count == 1) {
                    visit(lf.first, true);   // a location's outermost frame is a call
                    continue;
                }
                for (uint32_t i = lf.first; i < lf.first + lf.count; ++i)
                    visit(pf.locFrames[i], pf.locKinds[i] & CallTree::kCalled);
            }
            if (caller == FrameTable::kRoot)
                self = wrappingAdd(self, v);   // an empty stack: in the total only, as at the tree's root
            else
                flat[caller] = wrappingAdd(flat[caller], v);
        }
    }

    void edge(uint64_t key, bool called)
    {
        bool inserted = false;
        const uint32_t e = edges.findOrInsert(key, uint32_t(edgeKey.size()), &inserted);
        if (inserted) {
            edgeKey.push_back(key);
            edgeCalled.push_back(0);
        }
        if (called)
            edgeCalled[e] = 1;
    }

    void add(const FlatPass &other)
    {
        for (size_t f = 0; f < other.flat.size(); ++f) {
            flat[f] = wrappingAdd(flat[f], other.flat[f]);
            sums[f].cum = wrappingAdd(sums[f].cum, other.sums[f].cum);
        }
        total = wrappingAdd(total, other.total);
        self = wrappingAdd(self, other.self);
        samples += other.samples;
        for (size_t e = 0; e < other.edgeKey.size(); ++e)
            edge(other.edgeKey[e], other.edgeCalled[e]);
    }
};

// Below this many samples a second thread costs more than it saves.
constexpr size_t kParallelFlatSamples = 50000;

}   // namespace

CallTreeBuilder::FlatSums CallTreeBuilder::flatSums(const std::vector<std::shared_ptr<const Profile>> &profiles,
                                                    size_t typeIndex, const BuildOptions &options)
{
    checkInputs(profiles, typeIndex);
    const Profile &first = *profiles.front();
    const CompiledFilters filters(options.filters, profiles);
    auto frames = std::make_shared<FrameTable>();
    auto tree = emptyTree(profiles, typeIndex, options);
    FlatPass pass;
    for (const auto &pp : profiles) {
        const Profile &p = *pp;
        const size_t type = size_t(mergedType(first, typeIndex, p));
        tree->m_durationNanos = wrappingAdd(tree->m_durationNanos, p.durationNanos);
        ProfileFrames pf(p, filters, options, *frames);
        std::vector<uint8_t> everInlined(frames->size(), 0);
        for (size_t f = 0; f < pf.locFrames.size(); ++f)
            if (pf.locKinds[f] == CallTree::kInlined)
                everInlined[pf.locFrames[f]] = 1;
        pass.prepare(everInlined);
        const std::vector<LocationFrames> locations = locationFrames(pf);
        const size_t n = p.sampleCount();
        if (n < kParallelFlatSamples || pf.filter || options.sampleFilter || std::thread::hardware_concurrency() < 2) {
            pass.run(p, pf, locations, type, 0, n, options, nullptr);
            continue;
        }
        FlatPass second;
        second.prepare(everInlined);
        std::atomic<bool> stop{false};
        std::exception_ptr secondError;
        std::thread helper([&] {
            try {
                second.run(p, pf, locations, type, n / 2, n, options, &stop);
            } catch (...) {
                secondError = std::current_exception();
            }
        });
        try {
            pass.run(p, pf, locations, type, 0, n / 2, options, nullptr);
        } catch (...) {
            stop = true;
            helper.join();
            throw;
        }
        helper.join();
        if (secondError)
            std::rethrow_exception(secondError);
        pass.add(second);
    }
    FlatSums sums;
    sums.flat = std::move(pass.flat);
    sums.cum.reserve(frames->size());
    for (const FlatPass::FrameSums &f : pass.sums)
        sums.cum.push_back(f.cum);
    sums.flat.resize(frames->size(), 0);
    sums.cum.resize(frames->size(), 0);
    sums.inlineIn.assign(frames->size(), 0);
    sums.calledIn.assign(frames->size(), 0);
    for (size_t e = 0; e < pass.edgeKey.size(); ++e)
        (pass.edgeCalled[e] ? sums.calledIn : sums.inlineIn)[uint32_t(pass.edgeKey[e])] = 1;
    // The tree of a flat-only build is its root: the totals, the frames and the sample type.
    tree->m_sampleCount = pass.samples;
    tree->m_parent = {CallTree::kRoot};
    tree->m_frame = {FrameTable::kRoot};
    tree->m_firstChild = {1};
    tree->m_childCount = {0};
    tree->m_depth = {0};
    tree->m_self = {pass.self};
    tree->m_total = {pass.total};
    tree->m_samples = {pass.samples};
    tree->m_callKinds = {0};
    tree->m_frames = std::move(frames);
    sums.rootOnly = std::move(tree);
    if (options.progress)
        options.progress(1.0);
    return sums;
}

std::shared_ptr<CallTree> CallTreeBuilder::emptyTree(const std::vector<std::shared_ptr<const Profile>> &profiles,
                                                     size_t typeIndex, const BuildOptions &options)
{
    const Profile &first = *profiles.front();
    auto tree = std::make_shared<CallTree>();
    tree->m_sampleType = {first.typeName(typeIndex), first.unitName(typeIndex)};
    tree->m_granularity = options.granularity;
    tree->m_profileCount = profiles.size();
    return tree;
}

std::shared_ptr<const CallTree> CallTreeBuilder::derive(CallTreeAccumulator &&nodes, const CallTree &like)
{
    auto tree = std::make_shared<CallTree>();
    tree->m_sampleType = like.m_sampleType;
    tree->m_granularity = like.m_granularity;
    tree->m_durationNanos = like.m_durationNanos;
    tree->m_profileCount = like.m_profileCount;
    tree->m_sampleCount = like.m_sampleCount;
    freeze(nodes, *like.m_frames, *tree, {});
    tree->m_frames = like.m_frames;
    return tree;
}

// Renumbers breadth-first with each node's children contiguous and sorted by label, and sums totals.
void CallTreeBuilder::freeze(CallTreeAccumulator &b, const FrameTable &frames, CallTree &tree,
                             const ProgressFn &progress)
{
    const size_t n = b.size();
    // The lookup structures are done with: freed before the tree's arrays are allocated, which lowers the peak.
    b.m_children = FlatHashMap(16);
    std::vector<uint32_t>().swap(b.m_hash);
    const std::vector<uint32_t> rank = frames.labelRanks();
    std::vector<uint32_t> childBegin(n + 1, 0);
    for (size_t i = 1; i < n; ++i)
        ++childBegin[b.m_parent[i] + 1];
    std::partial_sum(childBegin.begin(), childBegin.end(), childBegin.begin());
    std::vector<NodeId> childList(n > 0 ? n - 1 : 0);
    {
        std::vector<uint32_t> fill(childBegin.begin(), childBegin.end() - 1);
        for (size_t i = 1; i < n; ++i)
            childList[fill[b.m_parent[i]]++] = NodeId(i);
    }
    if (progress && !progress(0.85))
        throw Cancelled();

    tree.m_parent.resize(n);
    tree.m_frame.resize(n);
    tree.m_firstChild.resize(n);
    tree.m_childCount.resize(n);
    tree.m_depth.resize(n);
    tree.m_self.resize(n);
    tree.m_total.resize(n);
    tree.m_callKinds.resize(n);
    tree.m_samples.resize(n);
    std::vector<NodeId> order;   // order[newId] = oldId
    order.reserve(n);
    order.push_back(CallTree::kRoot);
    tree.m_parent[0] = CallTree::kRoot;
    tree.m_depth[0] = 0;
    for (size_t newId = 0; newId < n; ++newId) {
        const NodeId old = order[newId];
        auto first = childList.begin() + childBegin[old];
        auto last = childList.begin() + childBegin[old + 1];
        std::sort(first, last, [&](NodeId a, NodeId c) { return rank[b.m_frame[a]] < rank[b.m_frame[c]]; });
        tree.m_firstChild[newId] = NodeId(order.size());
        tree.m_childCount[newId] = uint32_t(last - first);
        for (auto it = first; it != last; ++it) {
            tree.m_parent[order.size()] = NodeId(newId);
            tree.m_depth[order.size()] = tree.m_depth[newId] + 1;
            order.push_back(*it);
        }
        tree.m_frame[newId] = b.m_frame[old];
        tree.m_self[newId] = b.m_self[old];
        tree.m_total[newId] = b.m_self[old];
        tree.m_callKinds[newId] = b.m_kinds[old];
        tree.m_samples[newId] = b.m_samples[old];
        tree.m_maxDepth = std::max(tree.m_maxDepth, tree.m_depth[newId]);
    }
    for (size_t i = n; i-- > 1;) {
        tree.m_total[tree.m_parent[i]] = wrappingAdd(tree.m_total[tree.m_parent[i]], tree.m_total[i]);
        tree.m_samples[tree.m_parent[i]] += tree.m_samples[i];
    }
}

std::vector<NodeId> CallTree::pathTo(NodeId n) const
{
    std::vector<NodeId> path;
    for (; n != kRoot; n = m_parent[n])
        path.push_back(n);
    std::reverse(path.begin(), path.end());
    return path;
}

}   // namespace qflame
