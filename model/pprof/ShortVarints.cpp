#include "pprof/ShortVarints.h"

#include <array>

#if defined(__x86_64__)
#include <tmmintrin.h>
#endif

namespace qflame::wire::detail {

#if defined(__x86_64__)

namespace {

// The field's bytes in windows of eight at fixed places, each decoded on its own: the varints that end in it, one
// of which may have begun with the byte before it. (Taking the varints from wherever the last ones ended made
// each step wait for the previous one's table lookup: no faster than the byte-by-byte loop.) For each pattern of
// nine top bits (bit 0: the byte before the window, bits 1-8: its eight bytes), loaded from the byte before the
// window: whether every varint there is of one or two bytes (no two top bits in a row), how many end in the
// window, and the shuffle putting varint k's bytes in lane k, its second byte (or zero) as the lane's high byte.
struct Window {
    alignas(16) uint8_t shuffle[16];
    uint8_t count;
    bool plain;
};

constexpr std::array<Window, 512> makeWindows()
{
    std::array<Window, 512> windows{};
    for (unsigned bits = 0; bits < 512; ++bits) {
        Window w{};
        for (uint8_t &s : w.shuffle)
            s = 0x80;   // pshufb: zero
        const auto goesOn = [bits](unsigned j) { return (bits >> j & 1) != 0; };
        w.plain = (bits & (bits >> 1)) == 0;
        unsigned k = 0, j = 1;
        if (goesOn(0)) {   // the varint begun before the window ends with its first byte
            w.shuffle[0] = 0, w.shuffle[1] = 1;
            k = 1, j = 2;
        }
        for (; j <= 8 && w.plain; ++k) {
            if (!goesOn(j)) {
                w.shuffle[2 * k] = uint8_t(j);
                j += 1;
            } else if (j < 8) {
                w.shuffle[2 * k] = uint8_t(j), w.shuffle[2 * k + 1] = uint8_t(j + 1);
                j += 2;
            } else {
                break;   // begun with the window's last byte: the next window's
            }
        }
        w.count = uint8_t(w.plain ? k : 0);
        windows[bits] = w;
    }
    return windows;
}

constexpr std::array<Window, 512> kWindows = makeWindows();

}   // namespace

__attribute__((target("ssse3"))) size_t shortIdsLessOne(const uint8_t *&q, const uint8_t *end,
                                                         const uint8_t *readable, uint16_t *out, size_t room,
                                                         uint32_t &largest)
{
    const __m128i low7 = _mm_set1_epi16(0x7f), high7 = _mm_set1_epi16(0x3f80), one = _mm_set1_epi16(1);
    const __m128i zero = _mm_setzero_si128();
    __m128i most = zero;   // values below 2^14: the signed 16-bit maximum serves
    size_t n = 0;
    const uint8_t *const first = q;
    const uint8_t *w = first;
    while (end - w >= 8 && readable - w >= 16 && room - n >= 8) {
        // From the byte before the window; before the first, a byte that begins nothing.
        const __m128i bytes = w == first ? _mm_slli_si128(_mm_loadu_si128(reinterpret_cast<const __m128i *>(w)), 1)
                                         : _mm_loadu_si128(reinterpret_cast<const __m128i *>(w - 1));
        const Window &g = kWindows[unsigned(_mm_movemask_epi8(bytes)) & 0x1ff];
        if (!g.plain)
            break;
        const __m128i lanes = _mm_shuffle_epi8(bytes, _mm_load_si128(reinterpret_cast<const __m128i *>(g.shuffle)));
        const __m128i values =
            _mm_or_si128(_mm_and_si128(lanes, low7), _mm_and_si128(_mm_srli_epi16(lanes, 1), high7));
        // Lanes past the count are 0 as well: only a 0 among the varints taken stops here.
        const unsigned zeros =
            unsigned(_mm_movemask_epi8(_mm_cmpeq_epi16(values, zero))) & ((1u << (2 * g.count)) - 1);
        if (zeros != 0)
            break;
        most = _mm_max_epi16(most, values);
        _mm_storeu_si128(reinterpret_cast<__m128i *>(out + n), _mm_sub_epi16(values, one));
        n += g.count;
        w += 8;
    }
    if (n != 0) {
        most = _mm_max_epi16(most, _mm_srli_si128(most, 8));
        most = _mm_max_epi16(most, _mm_srli_si128(most, 4));
        most = _mm_max_epi16(most, _mm_srli_si128(most, 2));
        const uint32_t top = uint32_t(_mm_cvtsi128_si32(most) & 0xffff) - 1;
        largest = top > largest ? top : largest;
    }
    // On at the first varint not taken: the window's first byte, or the byte before it where a varint began.
    q = w != first && w[-1] >= 0x80 ? w - 1 : w;
    return n;
}

bool haveShortIds()
{
    static const bool have = __builtin_cpu_supports("ssse3");
    return have;
}

#else

size_t shortIdsLessOne(const uint8_t *&, const uint8_t *, const uint8_t *, uint16_t *, size_t, uint32_t &)
{
    return 0;
}

bool haveShortIds()
{
    return false;
}

#endif

}   // namespace qflame::wire::detail
