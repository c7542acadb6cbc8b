// Packed varints of one or two bytes, eight input bytes at a time: the location ids of a profile's samples, below
// 16,384 in nearly every profile (r64's 21 million are ids up to 2,337). One byte or two at random made the
// decoding loop's branch on a varint's length unpredictable: that loop was the largest part of decoding r64's
// samples, and the decoding thread, not the inflating one, set the pace of its read. With SSSE3 a table lookup by
// the eight bytes' continuation bits gives the shuffle that puts each varint in a 16-bit lane (as Masked VByte,
// Plaisance, Kurz and Lemire, 2015, does). Without SSSE3 (or off x86-64) none are taken and the caller's
// byte-by-byte loop decodes them all.
#pragma once

#include <cstddef>
#include <cstdint>

namespace qflame::wire::detail {

// Decodes varints from q while the next eight bytes lie before `end`, sixteen bytes can be read before
// `readable`, there is room for eight more in `out`, and the varints are one or two bytes long and not 0.
// Writes each value less one to `out` (the location entries: SampleWire.h), moves q past the varints taken and
// raises `largest` to the largest entry written; returns how many it wrote. It stops before a varint of three
// bytes or more and before a 0, which the caller's loop takes (or refuses) one by one.
size_t shortIdsLessOne(const uint8_t *&q, const uint8_t *end, const uint8_t *readable, uint16_t *out, size_t room,
                       uint32_t &largest);

// Whether shortIdsLessOne takes any (the CPU has SSSE3).
bool haveShortIds();

}   // namespace qflame::wire::detail
