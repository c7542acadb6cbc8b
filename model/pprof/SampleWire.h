// A hand-written decoder for the Sample messages real writers produce, straight into the profile's arrays:
// libprotobuf parsing each sample into a reused message and copying it out took about twice as long (issue #31:
// 70-76 against 38-42 ms for the largest corpus profile's samples). It only takes the shapes it can be sure of
// (one-byte tags of the known fields, packed or not; labels of their four varint fields; varints as libprotobuf
// reads them) and says "not mine" for anything else — unknown fields, groups, bad lengths, varints that do not
// end — leaving the arrays as they were, so that libprotobuf decodes and judges that sample as before. Every
// sample it takes would have been read alike by libprotobuf: fuzz_pprof checks it (fuzz/PprofCrossCheck.h).
#pragma once

#include "pprof/Profile.h"
#include "pprof/ShortVarints.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

namespace qflame::wire {

// A varint as libprotobuf 3.21 reads one (parse_context.h): at most ten bytes, bits past the 64th dropped.
// nullptr when it does not end before `end` or within ten bytes.
inline const uint8_t *varint(const uint8_t *p, const uint8_t *end, uint64_t &out)
{
    if (p < end && *p < 0x80) {
        out = *p;
        return p + 1;
    }
    uint64_t v = 0;
    for (int i = 0; i < 10 && p + i < end; ++i) {
        const uint64_t b = p[i];
        v |= (b & 0x7f) << (7 * i);
        if (b < 0x80) {
            out = v;
            return p + i + 1;
        }
    }
    return nullptr;
}

// A length, as libprotobuf's ReadSize takes one (at most five bytes), that fits in what is left.
inline const uint8_t *length(const uint8_t *p, const uint8_t *end, uint64_t &out)
{
    const uint8_t *q = varint(p, end, out);
    if (!q || q - p > 5 || out > uint64_t(end - q))
        return nullptr;
    return q;
}

// A message of varint fields with one-byte tags: `set(tag, value)` takes each field in order, false for a tag it
// does not know. False when a varint does not end within [p, end) or `set` refuses one.
template <typename Set>
inline bool varintFields(const uint8_t *p, const uint8_t *end, Set set)
{
    while (p < end) {
        const uint8_t tag = *p++;
        uint64_t v;
        if (!(p = varint(p, end, v)) || !set(tag, v))
            return false;
    }
    return true;
}

// Location ids are stored less one: as the indexes they are when the locations are numbered 1..N in file order,
// as Go and most writers number them, so that no pass over every entry is needed to make them so (4 ms of r64's
// read on the critical path). Ids 1 to 2^31 - 1 are taken; 0 and the ones past are left to libprotobuf.
struct SampleArrays {
    LocationIndexes &locations;         // ids less one
    SampleValues &values;               // 4 bytes each until one does not fit (SampleValues.h)
    std::vector<Label> &labels;         // indexes below 2^32 - 1; others are left to libprotobuf
    uint32_t &largestLocation;          // at least every entry appended to `locations` (refused samples' too)
};

struct SampleShape {
    size_t locations = 0, values = 0, labels = 0;
    bool allValuesZero = true;
};

namespace detail {

// No varints taken several at a time (packed()'s `bulk`).
struct OneByOne {
    template <typename T>
    size_t operator()(const uint8_t *&, const uint8_t *, T *, size_t) const
    {
        return 0;
    }
};

// Appends the varints of [p, end) to `out`, converted by `keep` (false: not mine). `bulk(q, end, out, room)`
// may take several at once, converted already, before each one the loop takes by itself.
template <typename T, typename Keep, typename Bulk = OneByOne>
bool packed(const uint8_t *p, const uint8_t *end, std::vector<T> &out, Keep keep, Bulk bulk = {})
{
    // Up to a few hundred values (every real sample's) are decoded into a buffer on the stack and appended in
    // one copy: a push_back per value reloaded and stored the vector's end and checked its capacity each time,
    // most of decoding a sample (r64.pb.zst: 40 locations a sample, callgrind).
    constexpr size_t kLocal = 256;
    T buf[kLocal];
    size_t n = 0;
    const uint8_t *q = p;
    // After a bulk take that stopped early (a long varint or a 0 within its first 16), the rest of the field goes
    // one by one: where long ids are common (pprof__large.cpu: 23,354 locations, a third of its ids of three
    // bytes), a take before each of them cost more than it saved (2.0 -> 2.6 ms for its 499,787 ids).
    bool tryBulk = true;
    while (q < end && n < kLocal) {
        if (tryBulk) {
            const size_t got = bulk(q, end, buf + n, kLocal - n);
            n += got;
            tryBulk = got >= 16;
            if (q == end || n == kLocal)
                break;
        }
        uint64_t v;
        if (*q < 0x80) {
            v = *q++;
        } else if (q + 1 < end && q[1] < 0x80) {   // two bytes: location ids from 128 to 16,383
            v = uint64_t(q[0] & 0x7f) | uint64_t(q[1]) << 7;
            q += 2;
        } else if (!(q = varint(q, end, v))) {
            return false;
        }
        if (!keep(v, buf[n++]))
            return false;
    }
    // Room for exactly as many as there are (a varint's last byte is below 0x80), growing the way insert()
    // does: reserving for the byte count would outgrow the arrays reserved for the announced size near its end.
    size_t count = n;
    for (const uint8_t *r = q; r < end; ++r)
        count += *r < 0x80;
    if (out.capacity() - out.size() < count)
        out.reserve(out.size() + std::max(out.size(), count));
    // The arrays are fresh memory the stores miss in (r64: 54 MB of ids and values): the line 512 bytes on asked
    // for now, for writing. A hint, which never faults, even past the capacity. qflame-bench-decode r64.pb.zst,
    // 16 rounds of 11 taking turns: 53.7 against 55.9 ms (medians), faster in 12.
    __builtin_prefetch(reinterpret_cast<const void *>(reinterpret_cast<uintptr_t>(out.data() + out.size()) + 512), 1);
    out.insert(out.end(), buf, buf + n);
    while (q < end) {   // more than kLocal values
        uint64_t v;
        if (*q < 0x80)
            v = *q++;
        else if (!(q = varint(q, end, v)))
            return false;
        T t;
        if (!keep(v, t))
            return false;
        out.push_back(t);
    }
    return true;
}

// Function objects, not functions: passed as pointers, packed() called them through the pointer (not inlined).
// A location id is kept less one (SampleArrays), in the width the entries have so far (2 bytes, or 4 once one has
// needed more), and the largest entry noted in `largest`: in the decoding loop, 4 ms less of r64's decoding
// than a pass over each field's entries afterwards.
template <typename T>
struct LocationEntry {
    uint32_t &largest;
    bool operator()(uint64_t v, T &t) const
    {
        const uint64_t index = v - 1;   // id 0 wraps around, past every limit
        t = T(index);
        largest = std::max(largest, uint32_t(index));
        return index < 0x7fffffffu && index <= std::numeric_limits<T>::max();
    }
};

// Location entries of 2 bytes, eight bytes of varints at a time where they are short (ShortVarints.h), the
// bytes up to `readable` being there to read.
struct ShortIds {
    const uint8_t *readable;
    uint32_t &largest;
    size_t operator()(const uint8_t *&q, const uint8_t *end, uint16_t *out, size_t room) const
    {
        if (end - q < 8 || readable - q < 16 || room < 8)
            return 0;
        return shortIdsLessOne(q, end, readable, out, room, largest);
    }
    size_t operator()(const uint8_t *&, const uint8_t *, uint32_t *, size_t) const { return 0; }
};

// A packed location_id field onto the entries: the first that does not fit 2 bytes makes every entry 4. The
// bytes up to `readable` (at least `end`) may be read.
inline bool packedLocations(const uint8_t *p, const uint8_t *end, const uint8_t *readable, LocationIndexes &ids,
                            uint32_t &largest)
{
    const size_t before = ids.size();
    uint32_t high = 0;   // the field's, in a local the loop can keep in a register
    const ShortIds bulk{haveShortIds() ? readable : p, high};
    const auto decode = [&](auto &v) {
        using T = typename std::decay_t<decltype(v)>::value_type;
        return packed(p, end, v, LocationEntry<T>{high}, bulk);
    };
    bool fits = ids.visitVector(decode);
    if (!fits && !ids.isWide()) {
        ids.resize(before);   // not mine, or an id above 65,536: tried again 4 bytes wide
        ids.widen();
        fits = ids.visitVector(decode);
    }
    largest = std::max(largest, high);
    return fits;
}

// A packed value field onto the values: the first that does not fit 4 bytes makes every value 8.
inline bool packedValues(const uint8_t *p, const uint8_t *end, SampleValues &values)
{
    const size_t before = values.size();
    const auto decode = [&](auto &v) {
        using T = typename std::decay_t<decltype(v)>::value_type;
        return packed(p, end, v, [](uint64_t x, T &t) {
            t = T(int64_t(x));
            return std::is_same_v<T, int64_t> || SampleValues::fits(int64_t(x));
        });
    };
    bool fits = values.visitVector(decode);
    if (!fits && !values.isWide()) {
        values.resize(before);   // not mine, or a value past 4 bytes: tried again 8 bytes wide
        values.widen();
        fits = values.visitVector(decode);
    }
    return fits;
}

inline bool label(const uint8_t *p, const uint8_t *end, Label &l)
{
    int64_t key = 0, str = 0, num = 0, unit = 0;   // proto3: absent is zero, the last one wins
    const bool known = varintFields(p, end, [&](uint8_t tag, uint64_t v) {
        switch (tag) {
        case 0x08: key = int64_t(v); return true;
        case 0x10: str = int64_t(v); return true;
        case 0x18: num = int64_t(v); return true;
        case 0x20: unit = int64_t(v); return true;
        default: return false;
        }
    });
    if (!known)
        return false;
    for (int64_t index : {key, str, unit})
        if (index < 0 || index >= int64_t(UINT32_MAX))
            return false;
    l = Label{uint32_t(key), uint32_t(str), num, uint32_t(unit)};
    return true;
}

}   // namespace detail

// Decodes the Sample message [p, end) onto the arrays; false (arrays unchanged) when it is not one of the shapes
// taken here. `shape` says how much was appended. The bytes up to `readable` (null: `end`) may be read, to take
// the location ids several at a time up to the message's end. The arrays by reference: passed by value, their
// four references were stored one by one and copied in 16-byte loads, which could not take them from the stores
// (a third of PprofDecoder's own time in the call).
inline bool decodeSample(const uint8_t *p, const uint8_t *end, const SampleArrays &a, SampleShape &shape,
                         const uint8_t *readable = nullptr)
{
    if (!readable)
        readable = end;
    const size_t locations = a.locations.size(), values = a.values.size(), labels = a.labels.size();
    auto notMine = [&] {
        a.locations.resize(locations);
        a.values.resize(values);
        a.labels.resize(labels);
        return false;
    };
    while (p < end) {
        const uint8_t tag = *p++;
        uint64_t v;
        switch (tag) {
        case 0x0a:   // location_id, packed
        case 0x12:   // value, packed
        case 0x1a: {   // label
            const uint8_t *q = length(p, end, v);
            if (!q)
                return notMine();
            p = q + v;
            const bool ok = tag == 0x0a   ? detail::packedLocations(q, p, readable, a.locations, a.largestLocation)
                            : tag == 0x12 ? detail::packedValues(q, p, a.values)
                                          : (a.labels.emplace_back(), detail::label(q, p, a.labels.back()));
            if (!ok)
                return notMine();
            break;
        }
        case 0x08:   // location_id, one at a time
        case 0x10: {   // value, one at a time
            if (!(p = varint(p, end, v)))
                return notMine();
            if (tag == 0x08) {
                uint32_t index;
                if (!detail::LocationEntry<uint32_t>{a.largestLocation}(v, index))
                    return notMine();
                a.locations.push_back(index);
            } else {
                a.values.push_back(int64_t(v));
            }
            break;
        }
        default:
            return notMine();
        }
    }
    shape.locations = a.locations.size() - locations;
    shape.values = a.values.size() - values;
    shape.labels = a.labels.size() - labels;
    shape.allValuesZero = true;
    for (size_t i = values; i < a.values.size(); ++i)
        shape.allValuesZero &= a.values[i] == 0;
    return true;
}

}   // namespace qflame::wire
