#include "io/HelperThread.h"
#include "tree/LabelFrames.h"
#include "tree/ProfileFrames.h"

#include <atomic>
#include <exception>
#include <memory>
#include <thread>

namespace qflame {

using namespace detail;

namespace {

// Where the frames of each location are, for the flat pass: most locations have one frame, held here itself, so
// that walking a sample reads one entry per location instead of a range and then the frames.
struct LocationFrames {
    uint32_t first;   // count 1: the frame; otherwise where its frames begin in ProfileFrames::locFrames
    uint32_t count;   // with kInlinedFrame set when its one frame is reached inlined somewhere (edges to note)
    static constexpr uint32_t kInlinedFrame = 0x80000000u;
};

std::vector<LocationFrames> locationFrames(const ProfileFrames &pf, const std::vector<uint8_t> &everInlined)
{
    std::vector<LocationFrames> out(pf.locBegin.size() - 1);
    for (size_t l = 0; l + 1 < pf.locBegin.size(); ++l) {
        const uint32_t begin = pf.locBegin[l], count = pf.locBegin[l + 1] - begin;
        out[l] = {count == 1 ? pf.locFrames[begin] : begin, count};
        if (count == 1 && everInlined[pf.locFrames[begin]])
            out[l].count |= LocationFrames::kInlinedFrame;
    }
    return out;
}

// The flat and cumulative sums over a range of samples. On large profiles without filters two passes run side
// by side on the two halves of the samples, then one is added to the other (the sums wrap, so order does not
// matter). Filters stay on one thread: their tag matchers are not made for concurrent use.
struct FlatPass {
    // What a sample's walk reads and writes of each frame, side by side: one cache line to load where three
    // separate arrays needed three (the walk was the largest part of `qflame top` on 23,000 functions).
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
    std::vector<uint32_t> callerBefore;   // by location: the caller frame its edges were last noted after
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

    // `input` is the caller's profile of p (p itself, or p before label frames were added): the one
    // options.sampleFilter knows.
    void run(const Profile &p, const Profile &input, ProfileFrames &pf, const std::vector<LocationFrames> &locations,
             size_t type, size_t from, size_t to, const BuildOptions &options, const std::atomic<bool> *stop)
    {
        callerBefore.assign(locations.size(), UINT32_MAX);   // no frame has that id
        p.sampleLocations.visit(
            [&](const auto *ids) { walk(ids, p, input, pf, locations, type, from, to, options, stop); });
    }

    // run's walk, for the locations' width (LocationIndexes.h).
    template <typename Id>
    void walk(const Id *const ids, const Profile &p, const Profile &input, ProfileFrames &pf,
              const std::vector<LocationFrames> &locations, size_t type, size_t from, size_t to,
              const BuildOptions &options, const std::atomic<bool> *stop)
    {
        // The walk's arrays and counters in locals: the stores into a frame's sums may alias any member of this
        // pass or of the profile, so with members the compiler reloaded the arrays' pointers and the sample's
        // number at every entry (r64: 21 million of them).
        const LocationFrames *const locs = locations.data();
        const SampleValues::View values = p.values.view();
        const size_t types = p.sampleTypes.size();
        FrameSums *const frameSums = sums.data();
        uint32_t no = sampleNo;
        int64_t passTotal = total, passSelf = self;
        uint64_t passSamples = samples;
        for (size_t s = from; s < to; ++s) {
            if ((s & 0x7fff) == 0 && s > from) {
                if (options.progress && !stop && !options.progress(0.9 * double(s - from) / double(to - from)))
                    throw Cancelled();
                if (stop && stop->load(std::memory_order_relaxed))
                    break;
            }
            const int64_t v = values[s * types + type];
            if (v == 0 || (options.sampleFilter && !options.sampleFilter(input, s)))
                continue;
            size_t begin, end;
            if (!pf.sampleRange(s, begin, end))
                continue;
            ++no;
            ++passSamples;
            passTotal = wrappingAdd(passTotal, v);
            const FrameId caller = walkStack(ids + begin, ids + end, locs, frameSums, no, v, pf);
            if (caller == FrameTable::kRoot)
                passSelf = wrappingAdd(passSelf, v);   // an empty stack: in the total only, as at the tree's root
            else
                flat[caller] = wrappingAdd(flat[caller], v);
        }
        sampleNo = no, total = passTotal, self = passSelf, samples = passSamples;
    }

    // One stack, root first: its frames' cumulative sums, and the frame it ends in (kRoot: none). Apart from the
    // walk over the samples, with only what it needs at hand: inside it, the arrays' pointers were kept on the
    // stack and loaded again at every entry.
    template <typename Id>
    FrameId walkStack(const Id *const first, const Id *last, const LocationFrames *const locs,
                      FrameSums *const frameSums, const uint32_t no, const int64_t v, ProfileFrames &pf)
    {
        FrameId caller = FrameTable::kRoot;
        while (last != first) {
            const LocationFrames lf = locs[*--last];
            if (lf.count == 1) {
                // Most entries: one frame, reached by calls only, so no edge to note. Without a branch on
                // whether the sample has counted the frame yet: recursion makes it unpredictable (6 million
                // of r64's 20 million visits are repeats).
                FrameSums &sum = frameSums[lf.first];
                const int64_t add = sum.seenIn != no ? v : 0;
                sum.seenIn = no;
                sum.cum = wrappingAdd(sum.cum, add);
                caller = lf.first;
                continue;
            }
            caller = inlinedOrMany(*last, lf, caller, frameSums, no, v, pf);
        }
        return caller;
    }

    // An entry whose location has several frames, or one reached inlined somewhere: each frame counted once per
    // sample, and the edges from its caller noted. Out of line, as the hash table it may add to: the walk keeps
    // its registers.
    __attribute__((noinline)) FrameId inlinedOrMany(const uint32_t loc, const LocationFrames lf, FrameId caller,
                                                    FrameSums *const frameSums, const uint32_t no, const int64_t v,
                                                    const ProfileFrames &pf)
    {
        // A location's edges are those of its frames and of the frame before it: noted once for each caller it
        // follows in turn. The same location after the same caller is most visits (r64: the edges' hash table
        // was 3 % of `qflame top`).
        uint32_t &seenAfter = callerBefore[loc];
        const bool noted = seenAfter == caller;
        seenAfter = caller;
        const auto visit = [&](FrameId f, bool called) {
            FrameSums &sum = frameSums[f];
            const int64_t add = sum.seenIn != no ? v : 0;
            sum.seenIn = no;
            sum.cum = wrappingAdd(sum.cum, add);
            if (!noted && sum.everInlined && caller != FrameTable::kRoot && caller != f)
                edge((uint64_t(caller) << 32) | f, called);
            caller = f;
        };
        if (lf.count == (1 | LocationFrames::kInlinedFrame)) {
            visit(lf.first, true);   // a location's outermost frame is a call
            return caller;
        }
        for (uint32_t i = lf.first; i < lf.first + lf.count; ++i)
            visit(pf.locFrames[i], pf.locKinds[i] & CallTree::kCalled);
        return caller;
    }

    // Out of line: inlined (its hash table with it) it left the walk too few registers, and kept the walk's
    // counters on the stack.
    __attribute__((noinline)) void edge(uint64_t key, bool called)
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

CallTreeBuilder::FlatSums CallTreeBuilder::flatSums(const std::vector<std::shared_ptr<const Profile>> &inputs,
                                                    size_t typeIndex, const BuildOptions &options)
{
    checkInputs(inputs, typeIndex);
    const std::vector<std::shared_ptr<const Profile>> profiles = withLabelFrames(inputs, options.filters);
    const Profile &first = *profiles.front();
    const CompiledFilters filters(options.filters, profiles);
    auto frames = std::make_shared<FrameTable>();
    auto tree = emptyTree(profiles, typeIndex, options);
    FlatPass pass;
    // Every profile's frames first: a frame inlined in one profile and called in another has edges of both kinds,
    // so the walk of each profile looks at the edges into the frames any of them reaches inlined.
    std::vector<std::unique_ptr<ProfileFrames>> prepared;
    for (const auto &p : profiles)
        prepared.push_back(std::make_unique<ProfileFrames>(*p, filters, options, *frames));
    std::vector<uint8_t> everInlined(frames->size(), 0);
    for (const auto &pf : prepared)
        for (size_t f = 0; f < pf->locFrames.size(); ++f)
            if (pf->locKinds[f] == CallTree::kInlined)
                everInlined[pf->locFrames[f]] = 1;
    for (size_t pi = 0; pi < profiles.size(); ++pi) {
        const Profile &p = *profiles[pi], &input = *inputs[pi];
        const size_t type = size_t(mergedType(first, typeIndex, p));
        tree->m_durationNanos = wrappingAdd(tree->m_durationNanos, p.durationNanos);
        ProfileFrames &pf = *prepared[pi];
        pass.prepare(everInlined);
        const std::vector<LocationFrames> locations = locationFrames(pf, everInlined);
        const size_t n = p.sampleCount();
        if (n < kParallelFlatSamples || pf.filter || options.sampleFilter || std::thread::hardware_concurrency() < 2) {
            pass.run(p, input, pf, locations, type, 0, n, options, nullptr);
            continue;
        }
        FlatPass second;
        second.prepare(everInlined);
        std::atomic<bool> stop{false};
        std::exception_ptr secondError;
        std::thread helper = startHelperThread([&] {
            try {
                second.run(p, input, pf, locations, type, n / 2, n, options, &stop);
            } catch (...) {
                secondError = std::current_exception();
            }
        });
        try {
            pass.run(p, input, pf, locations, type, 0, n / 2, options, nullptr);
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

}   // namespace qflame
