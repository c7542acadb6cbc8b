#include "tree/FlatTable.h"

#include "tree/CallTreeBuilder.h"
#include "tree/FlatHashMap.h"
#include "tree/InlineEdges.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <numeric>
#include <utility>

namespace qflame {

std::shared_ptr<const FlatTable> FlatTable::compute(std::shared_ptr<const CallTree> treePtr)
{
    const CallTree &tree = *treePtr;
    const size_t nFrames = tree.frames().size();
    std::vector<int64_t> flat(nFrames, 0), cum(nFrames, 0);
    std::vector<uint32_t> onPath(nFrames, 0);
    const bool inverted = tree.isInverted();

    // cum: a sample is a root-to-leaf path, so counting each function once per sample is counting the total of
    // every node that has no ancestor of the same frame. Iterative DFS: stacks reach thousands of frames.
    struct Item { NodeId node; uint32_t next; };
    std::vector<Item> stack;
    stack.push_back({CallTree::kRoot, 0});
    while (!stack.empty()) {
        Item &top = stack.back();
        if (top.next < tree.childCount(top.node)) {
            const NodeId child = tree.firstChild(top.node) + top.next++;
            const FrameId f = tree.frame(child);
            if (onPath[f]++ == 0)
                cum[f] = wrappingAdd(cum[f], tree.total(child));
            if (!inverted)
                flat[f] = wrappingAdd(flat[f], tree.self(child));
            else if (top.node == CallTree::kRoot)   // bottom-up: the stacks that end in f are f's root node
                flat[f] = wrappingAdd(flat[f], tree.total(child));
            stack.push_back({child, 0});
        } else {
            if (top.node != CallTree::kRoot)
                --onPath[tree.frame(top.node)];
            stack.pop_back();
        }
    }

    // A bottom-up tree's node says how its own frame was entered, mixed over all its callers: its edges are
    // kept beside the nodes.
    const InlineEdges marks = inverted ? inlineEdgesOf(tree.callEdges(), nFrames) : inlineEdgesOf(tree, nFrames);
    return finish(std::move(treePtr), flat, cum, marks.inlineIn, marks.calledIn);
}

std::shared_ptr<const FlatTable> FlatTable::compute(const std::vector<std::shared_ptr<const Profile>> &profiles,
                                                    size_t typeIndex, const BuildOptions &options)
{
    CallTreeBuilder::FlatSums sums = CallTreeBuilder::flatSums(profiles, typeIndex, options);
    return finish(std::move(sums.rootOnly), sums.flat, sums.cum, sums.inlineIn, sums.calledIn);
}

namespace {

// The distinct (flat, cum) pairs of the rows, numbered in order of first appearance and ranked in the table's
// order (flat descending, then cum descending). Rows are sorted on their pair's rank, one small number where
// the two values took 16 bytes: there are few pairs (57 among pprof__large.cpu's 23,038 rows).
struct ValueGroups {
    std::vector<int64_t> flat, cum;   // by group
    std::vector<uint32_t> rank;       // by group

    uint32_t groupOf(int64_t f, int64_t c)
    {
        // The map is keyed by a 64-bit mix of the pair; two pairs with the same key move on to another key,
        // the same sequence for the same pair, so every pair still finds its own group.
        uint64_t key = FlatHashMap::mix(uint64_t(f)) ^ uint64_t(c);
        for (;;) {
            if (key == FlatHashMap::kEmpty)
                key = 0;
            bool inserted = false;
            const uint32_t g = m_ids.findOrInsert(key, uint32_t(flat.size()), &inserted);
            if (inserted) {
                flat.push_back(f);
                cum.push_back(c);
                return g;
            }
            if (flat[g] == f && cum[g] == c)
                return g;
            key = FlatHashMap::mix(key + 1);
        }
    }

    void rankAll()
    {
        std::vector<uint32_t> order(flat.size());
        std::iota(order.begin(), order.end(), 0u);
        std::sort(order.begin(), order.end(), [this](uint32_t a, uint32_t b) {
            return flat[a] != flat[b] ? flat[a] > flat[b] : cum[a] > cum[b];
        });
        rank.resize(flat.size());
        for (uint32_t i = 0; i < order.size(); ++i)
            rank[order[i]] = i;
    }

private:
    FlatHashMap m_ids{64};
};

// The length of the beginning a and b share, from `from` on (both are known to agree before it), at most limit.
size_t commonLength(std::string_view a, std::string_view b, size_t from, size_t limit)
{
    limit = std::min({limit, a.size(), b.size()});
    size_t c = from;
    for (; c + 8 <= limit; c += 8) {   // 8 bytes a step: the labels of a group share 20 and more
        uint64_t x, y;
        std::memcpy(&x, a.data() + c, 8);
        std::memcpy(&y, b.data() + c, 8);
        if (x != y)
            return c + size_t((std::endian::native == std::endian::little ? std::countr_zero(x ^ y)
                                                                          : std::countl_zero(x ^ y)) / 8);
    }
    while (c < limit && a[c] == b[c])
        ++c;
    return c;
}

// A sort key: a group's rank and 8 label bytes (96 bits, what is sorted on), then the row it stands for.
struct Key {
    uint64_t high, low;   // rank << 32 | prefix >> 32, prefix << 32 | row
    bool operator<(const Key &o) const { return high != o.high ? high < o.high : low < o.low; }
    bool tiesWith(const Key &o) const { return high == o.high && low >> 32 == o.low >> 32; }
    unsigned digit(int d) const   // byte d of the 96 sorted bits, least significant first
    {
        return unsigned(d < 4 ? low >> (32 + 8 * d) : high >> (8 * (d - 4))) & 0xff;
    }
};

// Sorts keys on their 96 bits, stably, by bytes from the least significant, skipping bytes that every key
// shares. A comparison sort mispredicts about every other comparison: std::sort of 23,038 such keys took 2 ms
// here, the whole table of pprof__large.cpu (rows, groups, sort, ties) now takes about 1.8. Short ranges use
// std::sort (which orders ties by row; either order is right, the callers sort ties again).
void radixSort(Key *keys, size_t n, std::vector<Key> &scratch)
{
    if (n < 256) {
        std::sort(keys, keys + n);
        return;
    }
    constexpr int kDigits = 12;
    std::vector<uint32_t> counts(kDigits * 256, 0);
    for (size_t i = 0; i < n; ++i)
        for (int d = 0; d < kDigits; ++d)
            ++counts[size_t(d) * 256 + keys[i].digit(d)];
    scratch.resize(std::max(scratch.size(), n));
    Key *from = keys, *to = scratch.data();
    for (int d = 0; d < kDigits; ++d) {
        uint32_t *count = &counts[size_t(d) * 256];
        if (count[keys[0].digit(d)] == n)
            continue;   // one value for all: nothing to order
        uint32_t start = 0;
        for (int v = 0; v < 256; ++v)
            start += std::exchange(count[v], start);
        for (size_t i = 0; i < n; ++i)
            to[count[from[i].digit(d)]++] = from[i];
        std::swap(from, to);
    }
    if (from != keys)
        std::copy(from, from + n, keys);
}

}   // namespace

std::shared_ptr<const FlatTable> FlatTable::finish(std::shared_ptr<const CallTree> treePtr,
                                                   const std::vector<int64_t> &flat, const std::vector<int64_t> &cum,
                                                   const std::vector<uint8_t> &inlineIn,
                                                   const std::vector<uint8_t> &calledIn)
{
    const CallTree &tree = *treePtr;
    const size_t nFrames = tree.frames().size();
    const FrameTable &frames = tree.frames();
    struct Row {
        std::string_view label;
        FrameId frame;
        uint32_t group;
    };
    std::vector<Row> rows;
    rows.reserve(nFrames);
    ValueGroups groups;
    for (FrameId f = 1; f < nFrames; ++f) {
        if (flat[f] == 0 && cum[f] == 0)
            continue;
        rows.push_back({frames.label(f), f, groups.groupOf(flat[f], cum[f])});
    }
    groups.rankAll();
    // Labels are compared only within a group, and those often share a long beginning (23,000 of
    // pprof__large.cpu's rows are "main.setFunctions.funcN" with flat 0 and a few cums): the 8 label bytes of
    // the sort key are taken after what all labels of the group have in common, so that they decide.
    std::vector<uint32_t> groupFirst(groups.flat.size(), UINT32_MAX), groupCommon(groups.flat.size(), 0);
    for (uint32_t i = 0; i < rows.size(); ++i) {
        const uint32_t g = rows[i].group;
        const std::string_view l = rows[i].label;
        if (groupFirst[g] == UINT32_MAX) {
            groupFirst[g] = i;
            groupCommon[g] = uint32_t(std::min<size_t>(l.size(), UINT32_MAX));
            continue;
        }
        groupCommon[g] = uint32_t(commonLength(rows[groupFirst[g]].label, l, 0, groupCommon[g]));
    }
    // Sorted on 16-byte keys held in place: the group's rank, 8 label bytes, the row. Comparing labels through the
    // frame table chases three pointers, which dominated this function on profiles with a million distinct
    // functions.
    std::vector<Key> keys(rows.size());
    auto setPrefix = [&rows](Key &k, uint32_t rank, uint32_t row, size_t offset) {
        const std::string_view l = rows[row].label;
        const uint64_t prefix = sortPrefix(l.substr(std::min(offset, l.size())));
        k = {uint64_t(rank) << 32 | prefix >> 32, prefix << 32 | row};
    };
    for (uint32_t i = 0; i < rows.size(); ++i)
        setPrefix(keys[i], groups.rank[rows[i].group], i, groupCommon[rows[i].group]);
    std::vector<Key> scratch;
    radixSort(keys.data(), keys.size(), scratch);
    // Rows that still tie (a group where a few labels like "main.setup" cut the common beginning short of
    // thousands of "main.setFunctions.funcN") are sorted again on the 8 bytes after what they have in common,
    // as often as needed. A run that cannot be split that way (labels equal but for trailing zero bytes, or
    // equal) is ordered by the labels themselves, then by frame: a total order.
    struct Run {
        size_t begin, end, offset;   // keys[begin, end) tie, and their labels share [0, offset)
    };
    std::vector<Run> ties;
    auto findTies = [&](size_t from, size_t to, size_t offset) {
        for (size_t b = from; b < to;) {
            size_t e = b + 1;
            while (e < to && keys[e].tiesWith(keys[b]))
                ++e;
            if (e - b > 1)
                ties.push_back({b, e, offset});
            b = e;
        }
    };
    findTies(0, keys.size(), 0);   // (tied labels share more, but finding how much from 0 costs next to nothing)
    while (!ties.empty()) {
        const Run run = ties.back();
        ties.pop_back();
        const auto first = keys.begin() + std::ptrdiff_t(run.begin), last = keys.begin() + std::ptrdiff_t(run.end);
        const std::string_view l0 = rows[uint32_t(first->low)].label;
        size_t common = std::max(run.offset, l0.size());
        for (auto k = first + 1; k != last; ++k)
            common = std::max(run.offset, commonLength(l0, rows[uint32_t(k->low)].label, run.offset, common));
        const uint32_t rank = uint32_t(first->high >> 32);
        for (auto k = first; k != last; ++k)
            setPrefix(*k, rank, uint32_t(k->low), common);
        radixSort(&*first, run.end - run.begin, scratch);
        if (!first->tiesWith(*(last - 1))) {
            findTies(run.begin, run.end, common + 8);
            continue;
        }
        std::sort(first, last, [&rows](const Key &x, const Key &y) {
            const Row &a = rows[uint32_t(x.low)], &b = rows[uint32_t(y.low)];
            const int c = a.label.compare(b.label);
            return c != 0 ? c < 0 : a.frame < b.frame;
        });
    }
    auto table = std::make_shared<FlatTable>();
    table->m_rows.reserve(keys.size());
    table->m_labels.reserve(keys.size());
    for (const Key &k : keys) {
        const Row &r = rows[uint32_t(k.low)];
        table->m_labels.push_back(r.label);
        FlatRow row;
        row.frame = r.frame;
        row.flat = flat[r.frame];
        row.cum = cum[r.frame];
        if (inlineIn[r.frame])
            row.inlined = calledIn[r.frame] ? FlatRow::Inline::Partly : FlatRow::Inline::Always;
        table->m_rows.push_back(row);
    }
    table->m_rowOfFrame.assign(nFrames, -1);
    for (size_t i = 0; i < table->m_rows.size(); ++i)
        table->m_rowOfFrame[table->m_rows[i].frame] = int(i);
    table->m_tree = std::move(treePtr);
    return table;
}

std::string FlatTable::displayName(const FlatRow &row) const
{
    return m_tree->frames().label(row.frame) + inlineSuffix(row.inlined);
}

const char *FlatTable::inlineSuffix(FlatRow::Inline inlined)
{
    switch (inlined) {
    case FlatRow::Inline::Always: return " (inline)";
    case FlatRow::Inline::Partly: return " (partial-inline)";
    case FlatRow::Inline::No: break;
    }
    return "";
}

int FlatTable::rowOf(FrameId frame) const
{
    return frame < m_rowOfFrame.size() ? m_rowOfFrame[frame] : -1;
}

}   // namespace qflame
