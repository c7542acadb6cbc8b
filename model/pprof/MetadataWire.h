// A hand-written decoder for the Function and Location messages real writers produce, as SampleWire.h is for
// samples. On profiles with many functions (pprof__large.cpu: 23,038 functions, 23,355 locations in 2.4 MB),
// libprotobuf parsing each one into a reused message was about a tenth of `qflame top` (issue #31). Only the
// shapes it can be sure of are taken: one-byte tags of the known fields with their wire types, lines of their
// three varint fields, varints as libprotobuf reads them. Anything else (unknown fields, groups, bad lengths,
// varints that do not end, a field in another wire type) is "not mine", and libprotobuf decodes and judges that
// item as before. Every item taken would have been read alike by libprotobuf: fuzz_pprof checks it
// (fuzz/PprofCrossCheck.h).
#pragma once

#include "pprof/SampleWire.h"

#include <cstdint>
#include <vector>

namespace qflame::wire {

// Function's fields as libprotobuf holds them (proto3: absent is zero, the last one wins).
struct FunctionFields {
    uint64_t id = 0;
    int64_t name = 0, systemName = 0, filename = 0, startLine = 0;
};

struct LineFields {
    uint64_t functionId = 0;
    int64_t line = 0, column = 0;
};

struct LocationFields {
    uint64_t id = 0, mappingId = 0, address = 0;
    bool isFolded = false;
};

// Decodes the Function message [p, end) into `f`; false (f unchanged) when it is not one of the shapes taken.
inline bool decodeFunction(const uint8_t *p, const uint8_t *end, FunctionFields &f)
{
    FunctionFields r;
    const bool known = varintFields(p, end, [&r](uint8_t tag, uint64_t v) {
        switch (tag) {
        case 0x08: r.id = v; return true;
        case 0x10: r.name = int64_t(v); return true;
        case 0x18: r.systemName = int64_t(v); return true;
        case 0x20: r.filename = int64_t(v); return true;
        case 0x28: r.startLine = int64_t(v); return true;
        default: return false;
        }
    });
    if (known)
        f = r;
    return known;
}

namespace detail {

inline bool line(const uint8_t *p, const uint8_t *end, LineFields &l)
{
    return varintFields(p, end, [&l](uint8_t tag, uint64_t v) {
        switch (tag) {
        case 0x08: l.functionId = v; return true;
        case 0x10: l.line = int64_t(v); return true;
        case 0x18: l.column = int64_t(v); return true;
        default: return false;
        }
    });
}

}   // namespace detail

// Decodes the Location message [p, end) into `l` and its lines into `lines` (replacing what they held); false
// when it is not one of the shapes taken (then `l` is unchanged and `lines` holds nothing of use).
inline bool decodeLocation(const uint8_t *p, const uint8_t *end, LocationFields &l, std::vector<LineFields> &lines)
{
    LocationFields r;
    lines.clear();
    while (p < end) {
        const uint8_t tag = *p++;
        uint64_t v;
        if (tag == 0x22) {   // line: a message
            const uint8_t *q = length(p, end, v);
            if (!q)
                return false;
            p = q + v;
            if (!detail::line(q, p, lines.emplace_back()))
                return false;
            continue;
        }
        if (!(p = varint(p, end, v)))
            return false;
        switch (tag) {
        case 0x08: r.id = v; break;
        case 0x10: r.mappingId = v; break;
        case 0x18: r.address = v; break;
        case 0x28: r.isFolded = v != 0; break;
        default: return false;
        }
    }
    l = r;
    return true;
}

}   // namespace qflame::wire
