// The locations of a profile's samples, one entry per frame of every stack: by far its largest array (r64's
// 743,343 samples name 20,984,097 locations). Profiles have few locations (r64 2,337, pprof__large.cpu 23,038), so
// each entry takes 2 bytes while every one fits, and 4 from the first that does not. At 4 bytes each, r64's took
// 84 MB: memory that costs more to get from the kernel than the decoding that fills it (issue #31).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace qflame {

class LocationIndexes {
public:
    static constexpr uint32_t kNarrowMax = UINT16_MAX;

    LocationIndexes() = default;
    LocationIndexes(std::initializer_list<uint32_t> values) { append(values.begin(), values.end()); }
    explicit LocationIndexes(const std::vector<uint32_t> &values) { append(values.begin(), values.end()); }

    size_t size() const { return m_wide ? m_32.size() : m_16.size(); }
    bool empty() const { return size() == 0; }
    size_t capacity() const { return m_wide ? m_32.capacity() : m_16.capacity(); }
    // Whether entries take 4 bytes (some entry is above kNarrowMax, or was when it was written).
    bool isWide() const { return m_wide; }
    size_t entryBytes() const { return m_wide ? 4 : 2; }
    // The memory held, its capacity included.
    size_t heldBytes() const { return m_16.capacity() * 2 + m_32.capacity() * 4; }

    uint32_t operator[](size_t k) const { return m_wide ? m_32[k] : m_16[k]; }
    // Replaces entry k by v, which must fit the entries' width (widen() first where it might not): never widening
    // here, threads may set entries of one list side by side.
    void set(size_t k, uint32_t v)
    {
        if (m_wide)
            m_32[k] = v;
        else
            m_16[k] = uint16_t(v);
    }
    void push_back(uint32_t v)
    {
        if (!m_wide && v <= kNarrowMax)
            m_16.push_back(uint16_t(v));
        else
            pushWide(v);
    }
    // Appends [first, last) of unsigned values below 2^32.
    template <typename It>
    void append(It first, It last)
    {
        if (!m_wide) {
            uint64_t high = 0;
            for (It i = first; i != last; ++i)
                high |= uint64_t(*i);
            if (high > kNarrowMax)
                widen();
        }
        if (m_wide)
            m_32.insert(m_32.end(), first, last);
        else
            m_16.insert(m_16.end(), first, last);
    }
    // Appends entries [from, to) of another list.
    void append(const LocationIndexes &other, size_t from, size_t to)
    {
        if (other.m_wide)
            append(other.m_32.data() + from, other.m_32.data() + to);
        else
            append(other.m_16.data() + from, other.m_16.data() + to);
    }
    void reserve(size_t n) { m_wide ? m_32.reserve(n) : m_16.reserve(n); }
    void resize(size_t n) { m_wide ? m_32.resize(n) : m_16.resize(n); }
    // Makes every entry 4 bytes, as when one above kNarrowMax comes (kept so from then on).
    void widen()
    {
        if (m_wide)
            return;
        m_32.reserve(std::max(m_16.capacity(), size_t(16)));
        m_32.assign(m_16.begin(), m_16.end());
        std::vector<uint16_t>().swap(m_16);
        m_wide = true;
    }

    // Calls f with a pointer to the entries as they are stored (const uint16_t * or const uint32_t *): for loops
    // over many entries, which then read them without asking their width each time.
    template <typename F>
    decltype(auto) visit(F &&f) const
    {
        return m_wide ? f(m_32.data()) : f(m_16.data());
    }
    // Calls f with the vector that stores the entries (std::vector<uint16_t> & or std::vector<uint32_t> &), for
    // their writer: it may change their values but not make a narrow one hold more than kNarrowMax.
    template <typename F>
    decltype(auto) visitVector(F &&f)
    {
        return m_wide ? f(m_32) : f(m_16);
    }

    // The entries where they are, for walks that keep them at hand: valid while the list is not changed.
    struct View {
        const uint16_t *narrow = nullptr;   // one of the two, as the list stores them
        const uint32_t *wide = nullptr;
        uint32_t operator[](size_t k) const { return wide ? wide[k] : narrow[k]; }
        const void *address(size_t k) const
        {
            return wide ? static_cast<const void *>(wide + k) : static_cast<const void *>(narrow + k);
        }
        template <typename F>
        decltype(auto) visit(F &&f) const
        {
            return wide ? f(wide) : f(narrow);
        }
    };
    View view() const { return m_wide ? View{nullptr, m_32.data()} : View{m_16.data(), nullptr}; }

    std::vector<uint32_t> toVector() const
    {
        return m_wide ? m_32 : std::vector<uint32_t>(m_16.begin(), m_16.end());
    }

    // Equal entries, whatever their width.
    friend bool operator==(const LocationIndexes &a, const LocationIndexes &b)
    {
        if (a.size() != b.size())
            return false;
        return a.visit([&](const auto *x) {
            return b.visit([&](const auto *y) { return std::equal(x, x + a.size(), y); });
        });
    }

private:
    void pushWide(uint32_t v)
    {
        widen();
        m_32.push_back(v);
    }

    std::vector<uint16_t> m_16;
    std::vector<uint32_t> m_32;
    bool m_wide = false;
};

}   // namespace qflame
