// The parts qflame-bench-bound times (bound_main.cpp): a Sample message's ids and values decoded by the
// program's own varint readers (SampleWire.h, ShortVarints.h), nothing checked, and each sample's flat and cum
// added by function as pprof -top adds them, with what its inline marks need. Shared by the passes on one thread
// (Pass) and the three-thread prototype (BoundPipeline.h).
#pragma once

#include "pprof/SampleWire.h"
#include "pprof/ShortVarints.h"
#include "tree/FlatTable.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bound {

using namespace qflame;

constexpr size_t kMaxIds = 8192, kMaxValues = 64, kMaxFunctions = 1u << 24;

// A location's function ids, by its index: its one function id, or where its function ids begin in `functions`.
struct LocationFunctions {
    uint32_t first, count;
};

// The locations read so far: Go numbers them 1, 2, 3... in the order it writes them.
struct Locations {
    std::vector<LocationFunctions> locs;
    std::vector<uint32_t> functions;   // of the locations with several
    uint32_t largestFunction = 0;
    uint64_t nextId = 1;   // the id the next location must have (a batch of the pipeline starts further on)

    // One Location message: false when it is not numbered next, has no function, or is not of the shapes read here.
    bool add(const uint8_t *p, const uint8_t *end)
    {
        uint64_t id = 0;
        const size_t first = functions.size();
        while (p < end) {
            uint64_t tag, v;
            if (!(p = wire::varint(p, end, tag)))
                return false;
            if ((tag & 7) == 0) {
                if (!(p = wire::varint(p, end, v)))
                    return false;
                if (tag >> 3 == 1)
                    id = v;
                continue;
            }
            if ((tag & 7) != 2 || !(p = wire::length(p, end, v)))
                return false;
            const uint8_t *const lineEnd = p + v;
            while (tag >> 3 == 4 && p < lineEnd) {   // a line: its function_id
                uint64_t lineTag, x;
                if (!(p = wire::varint(p, lineEnd, lineTag)) || (lineTag & 7) != 0 ||
                    !(p = wire::varint(p, lineEnd, x)))
                    return false;
                if (lineTag >> 3 == 1) {
                    if (x == 0 || x > kMaxFunctions)
                        return false;
                    functions.push_back(uint32_t(x));
                    largestFunction = std::max(largestFunction, uint32_t(x));
                }
            }
            p = lineEnd;
        }
        const uint32_t count = uint32_t(functions.size() - first);
        if (id != nextId++ || count == 0)
            return false;
        locs.push_back({count == 1 ? functions[first] : uint32_t(first), count});
        return true;
    }

    // Another table's locations after these (the pipeline's batches carry the locations new in them).
    void append(const Locations &more)
    {
        for (const LocationFunctions &lf : more.locs) {
            if (lf.count == 1) {
                locs.push_back(lf);
                continue;
            }
            locs.push_back({uint32_t(functions.size()), lf.count});
            functions.insert(functions.end(), more.functions.begin() + lf.first,
                             more.functions.begin() + lf.first + lf.count);
        }
        largestFunction = std::max(largestFunction, more.largestFunction);
    }

    void clear() { locs.clear(), functions.clear(), largestFunction = 0; }
};

// One sample's location ids (less one, leaf first) and values.
struct DecodedSample {
    uint16_t ids[kMaxIds];
    int64_t values[kMaxValues];
    size_t n = 0, valueCount = 0;
};

// Decodes a Sample message [p, end), reading up to `readable`; false when it is not of the shapes taken here
// (fields real writers do not use, ids past 2 bytes).
inline bool decodeSample(const uint8_t *p, const uint8_t *end, const uint8_t *readable, DecodedSample &s)
{
    size_t n = 0, values = 0;
    uint32_t largest = 0;
    while (p < end) {
        const uint8_t tag = *p++;
        uint64_t size;
        if (tag == 0x08 || tag == 0x10) {   // one id or value alone (Go writes up to two so)
            uint64_t v;
            if (!(p = wire::varint(p, end, v)) ||
                (tag == 0x08 ? n == kMaxIds || v == 0 || v > 0xffff : values == kMaxValues))
                return false;
            if (tag == 0x08)
                s.ids[n++] = uint16_t(v - 1);
            else
                s.values[values++] = int64_t(v);
            continue;
        }
        if (tag != 0x0a && tag != 0x12 && tag != 0x1a)
            return false;
        if (!(p = wire::length(p, end, size)))
            return false;
        const uint8_t *q = p, *const fieldEnd = p + size;
        p = fieldEnd;
        if (tag == 0x0a) {
            while (q < fieldEnd && n < kMaxIds) {
                if (fieldEnd - q >= 8 && readable - q >= 16 && kMaxIds - n >= 8)
                    n += wire::detail::shortIdsLessOne(q, fieldEnd, readable, s.ids + n, kMaxIds - n, largest);
                uint64_t id;
                if (q < fieldEnd) {
                    if (n == kMaxIds || !(q = wire::varint(q, fieldEnd, id)) || id == 0 || id > 0xffff)
                        return false;
                    s.ids[n++] = uint16_t(id - 1);
                }
            }
            if (q < fieldEnd)
                return false;
        } else if (tag == 0x12) {
            while (q < fieldEnd && values < kMaxValues) {
                uint64_t v;
                if (!(q = wire::varint(q, fieldEnd, v)))
                    return false;
                s.values[values++] = int64_t(v);
            }
            if (q < fieldEnd)
                return false;
        }
    }
    s.n = n, s.valueCount = values;
    return true;
}

// What one pass adds to a function, side by side as the flat pass keeps it.
struct FunctionSums {
    int64_t cum = 0;
    uint32_t seenIn = 0;   // the last sample (from 1) that counted the function in cum
};

// The functions' sums by function id. With `width` set (marks), also what pprof's inline marks need: each
// function's callers by call, exactly (a bit per caller function in the callee's row of `width` words), and the
// locations the samples passed, whose lines are the inlined calls.
struct Sums {
    std::vector<FunctionSums> byFunction;
    std::vector<int64_t> flat;
    bool inOrder = true;   // every sample's locations came before it
    size_t width = 0;
    std::vector<uint64_t> callers;
    std::vector<uint8_t> passed;   // by location index
    uint32_t sampleNo = 0;

    // Room for the functions up to `largest`: the marks' rows are sized beforehand, for the whole profile.
    void grow(uint32_t largest)
    {
        if (largest >= byFunction.size()) {
            byFunction.resize(largest + 1);
            flat.resize(largest + 1, 0);
        }
    }

    // One sample, leaf first, as the flat pass adds (FlatSums.cpp): the arrays in locals, a location of one
    // function read in one load, and no branch on whether the sample has counted the function yet. kMarks: each
    // call noted in the callee's row, also without a branch.
    // `known`: how many of the locations had been read when the sample came.
    template <bool kMarks>
    void add(const uint16_t *ids, size_t n, int64_t v, const Locations &l, size_t known)
    {
        if (v == 0)
            return;
        const uint32_t no = ++sampleNo;
        const LocationFunctions *const locs = l.locs.data();
        const uint32_t *const many = l.functions.data();
        FunctionSums *const sums = byFunction.data();
        uint64_t *const rows = callers.data();
        uint8_t *const seen = passed.data();
        uint32_t caller = 0;
        bool atRoot = true;
        for (size_t k = n; k-- > 0;) {   // root first
            const uint16_t loc = ids[k];
            if (loc >= known) {
                inOrder = false;   // a location not read yet
                return;
            }
            const LocationFunctions lf = locs[loc];
            const auto count = [&](uint32_t f) {
                FunctionSums &sum = sums[f];
                const int64_t add = v & -int64_t(sum.seenIn != no);   // no branch: recursion made it mispredicted
                sum.seenIn = no;
                sum.cum += add;
            };
            if constexpr (kMarks) {
                const uint32_t outer = lf.count == 1 ? lf.first : many[lf.first + lf.count - 1];
                rows[size_t(outer) * width + (caller >> 6)] |= uint64_t(!atRoot && caller != outer) << (caller & 63);
                seen[loc] = 1;
                caller = lf.count == 1 ? lf.first : many[lf.first];
                atRoot = false;
            }
            if (lf.count == 1) {
                count(lf.first);
                continue;
            }
            for (uint32_t i = lf.first; i < lf.first + lf.count; ++i)
                count(many[i]);
        }
        if (n > 0) {   // the leaf: its location's innermost line
            const LocationFunctions lf = locs[ids[0]];
            flat[lf.count == 1 ? lf.first : many[lf.first]] += v;
        }
    }
    void add(const uint16_t *ids, size_t n, int64_t v, const Locations &l, size_t known)
    {
        width ? add<true>(ids, n, v, l, known) : add<false>(ids, n, v, l, known);
    }

    // pprof's inline mark of each function (FlatRow::Inline), from sums with marks: an edge into a function is
    // inlined when none of its occurrences was a call; the mark says whether all of a function's edges in were
    // (Always) or some (Partly), for the functions inlined somewhere.
    std::vector<FlatRow::Inline> marks(const Locations &l) const
    {
        std::vector<uint8_t> inlineIn(byFunction.size(), 0);
        for (size_t k = 0; k < l.locs.size(); ++k) {
            const LocationFunctions lf = l.locs[k];
            if (!passed[k] || lf.count < 2)
                continue;
            for (uint32_t i = lf.first; i + 1 < lf.first + lf.count; ++i) {   // inner line i, its caller i + 1
                const uint32_t f = l.functions[i], g = l.functions[i + 1];
                if (f != g && !(callers[size_t(f) * width + (g >> 6)] >> (g & 63) & 1))
                    inlineIn[f] = 1;
            }
        }
        std::vector<FlatRow::Inline> out(byFunction.size(), FlatRow::Inline::No);
        for (size_t f = 0; f < out.size(); ++f) {
            if (!inlineIn[f])
                continue;
            bool called = false;
            for (size_t w = 0; w < width; ++w)
                called |= callers[f * width + w] != 0;
            out[f] = called ? FlatRow::Inline::Partly : FlatRow::Inline::Always;
        }
        return out;
    }
};

// One pass over a profile's inflated bytes, on one thread: each sample decoded into buffers on the stack; with
// `sums`, value `type` added to the functions.
class Pass {
public:
    Pass(const std::string &bytes, size_t type, Sums *sums) : m_bytes(bytes), m_type(type), m_sums(sums) {}

    // False when the bytes are not of the shapes taken here (they are then no bound of anything).
    bool run()
    {
        const uint8_t *p = reinterpret_cast<const uint8_t *>(m_bytes.data());
        const uint8_t *const end = p + m_bytes.size();
        while (p < end) {
            uint64_t tag, size;
            if (!(p = wire::varint(p, end, tag)))
                return false;
            if ((tag & 7) == 0) {
                if (!(p = wire::varint(p, end, size)))
                    return false;
                continue;
            }
            if ((tag & 7) != 2 || !(p = wire::length(p, end, size)))
                return false;
            const uint8_t *const item = p;
            p += size;
            const uint64_t field = tag >> 3;
            if (field == 2) {
                if (!decodeSample(item, p, end, m_sample))
                    return false;
                m_entries += m_sample.n;
                if (m_sums && m_type < m_sample.valueCount)
                    m_sums->add(m_sample.ids, m_sample.n, m_sample.values[m_type], m_locations,
                                m_locations.locs.size());
            } else if (field == 4 && m_sums) {
                if (!m_locations.add(item, p))
                    return false;
                m_sums->grow(m_locations.largestFunction);
            }
        }
        return true;
    }

    uint64_t entries() const { return m_entries; }
    const Locations &locations() const { return m_locations; }

private:
    const std::string &m_bytes;
    const size_t m_type;
    Sums *const m_sums;
    DecodedSample m_sample;
    Locations m_locations;
    uint64_t m_entries = 0;
};

}   // namespace bound
