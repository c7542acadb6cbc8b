// Arrays of integers held in a narrow type while every entry fits it, and in the wide one from the first that does
// not: a profile's two largest arrays (pprof/LocationIndexes.h, pprof/SampleValues.h) mostly fit half their width,
// and on this project's VM every megabyte a command touches costs about a millisecond when it comes fresh from the
// host (bench/floor-notes.md, sessions 34 and 35).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <type_traits>
#include <vector>

namespace qflame {

template <typename Narrow, typename Wide>
class NarrowOrWide {
public:
    static constexpr Wide kNarrowMax = std::numeric_limits<Narrow>::max();
    static constexpr Wide kNarrowMin = std::numeric_limits<Narrow>::min();
    static constexpr bool fits(Wide v)
    {
        if constexpr (std::is_unsigned_v<Wide>)
            return v <= kNarrowMax;
        else
            return v >= kNarrowMin && v <= kNarrowMax;
    }

    NarrowOrWide() = default;
    NarrowOrWide(std::initializer_list<Wide> values) { append(values.begin(), values.end()); }
    explicit NarrowOrWide(const std::vector<Wide> &values) { append(values.begin(), values.end()); }

    size_t size() const { return m_wide ? m_wideEntries.size() : m_narrow.size(); }
    bool empty() const { return size() == 0; }
    size_t capacity() const { return m_wide ? m_wideEntries.capacity() : m_narrow.capacity(); }
    // Whether entries are Wide (some entry did not fit Narrow, or did not when it was written).
    bool isWide() const { return m_wide; }
    size_t entryBytes() const { return m_wide ? sizeof(Wide) : sizeof(Narrow); }
    // The memory held, its capacity included.
    size_t heldBytes() const
    {
        return m_narrow.capacity() * sizeof(Narrow) + m_wideEntries.capacity() * sizeof(Wide);
    }

    Wide operator[](size_t k) const { return m_wide ? m_wideEntries[k] : m_narrow[k]; }
    // Replaces entry k by v, which must fit the entries' width (widen() first where it might not): never widening
    // here, threads may set entries of one list side by side.
    void set(size_t k, Wide v)
    {
        if (m_wide)
            m_wideEntries[k] = v;
        else
            m_narrow[k] = Narrow(v);
    }
    // Replaces entry k by v, making every entry Wide first where v does not fit: for one writer at a time.
    void setWidening(size_t k, Wide v)
    {
        if (!m_wide && !fits(v))
            widen();
        set(k, v);
    }
    void push_back(Wide v)
    {
        if (!m_wide && fits(v))
            m_narrow.push_back(Narrow(v));
        else
            pushWide(v);
    }
    // Appends [first, last) of values that fit Wide.
    template <typename It>
    void append(It first, It last)
    {
        if (!m_wide) {
            if constexpr (std::is_unsigned_v<Wide>) {   // one test for all: an OR of unsigned values
                uint64_t high = 0;
                for (It i = first; i != last; ++i)
                    high |= uint64_t(*i);
                if (high > uint64_t(kNarrowMax))
                    widen();
            } else if (!std::all_of(first, last, [](Wide v) { return fits(v); })) {
                widen();
            }
        }
        if (m_wide)
            m_wideEntries.insert(m_wideEntries.end(), first, last);
        else
            m_narrow.insert(m_narrow.end(), first, last);
    }
    // Appends entries [from, to) of another list.
    void append(const NarrowOrWide &other, size_t from, size_t to)
    {
        if (other.m_wide)
            append(other.m_wideEntries.data() + from, other.m_wideEntries.data() + to);
        else
            append(other.m_narrow.data() + from, other.m_narrow.data() + to);
    }
    void reserve(size_t n) { m_wide ? m_wideEntries.reserve(n) : m_narrow.reserve(n); }
    void resize(size_t n) { m_wide ? m_wideEntries.resize(n) : m_narrow.resize(n); }
    // Makes every entry Wide, as when one that does not fit Narrow comes (kept so from then on).
    void widen()
    {
        if (m_wide)
            return;
        m_wideEntries.reserve(std::max(m_narrow.capacity(), size_t(16)));
        m_wideEntries.assign(m_narrow.begin(), m_narrow.end());
        std::vector<Narrow>().swap(m_narrow);
        m_wide = true;
    }

    // Calls f with a pointer to the entries as they are stored (const Narrow * or const Wide *): for loops
    // over many entries, which then read them without asking their width each time.
    template <typename F>
    decltype(auto) visit(F &&f) const
    {
        return m_wide ? f(m_wideEntries.data()) : f(m_narrow.data());
    }
    // Calls f with the vector that stores the entries (std::vector<Narrow> & or std::vector<Wide> &), for
    // their writer: it may change their values but not make a narrow one hold a value that does not fit Narrow.
    template <typename F>
    decltype(auto) visitVector(F &&f)
    {
        return m_wide ? f(m_wideEntries) : f(m_narrow);
    }

    // The entries where they are, for walks that keep them at hand: valid while the list is not changed.
    struct View {
        const Narrow *narrow = nullptr;   // one of the two, as the list stores them
        const Wide *wide = nullptr;
        Wide operator[](size_t k) const { return wide ? wide[k] : narrow[k]; }
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
    View view() const { return m_wide ? View{nullptr, m_wideEntries.data()} : View{m_narrow.data(), nullptr}; }

    std::vector<Wide> toVector() const
    {
        return m_wide ? m_wideEntries : std::vector<Wide>(m_narrow.begin(), m_narrow.end());
    }

    // Equal entries, whatever their width.
    friend bool operator==(const NarrowOrWide &a, const NarrowOrWide &b)
    {
        if (a.size() != b.size())
            return false;
        return a.visit([&](const auto *x) {
            return b.visit([&](const auto *y) { return std::equal(x, x + a.size(), y); });
        });
    }

private:
    void pushWide(Wide v)
    {
        widen();
        m_wideEntries.push_back(v);
    }

    std::vector<Narrow> m_narrow;
    std::vector<Wide> m_wideEntries;
    bool m_wide = false;
};

}   // namespace qflame
