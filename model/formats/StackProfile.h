// Builds a pprof profile from stacks of plain function names, for the formats that only carry names and
// values (folded stacks, flamebearer JSON, speedscope, .cpuprofile, a server's flamegraph).
//
// The result is our Profile, filled directly (every id and index is made here, so it is valid by construction);
// every view, table and export then treats it as a pprof profile. It used to be built as a protobuf message,
// serialized and read back: a server's 400,000-node flamegraph spent seconds in that round trip.
//
// Memory is bounded (issue #23): setMemoryLimit makes the builder refuse once what it holds, with what its caller
// says it holds besides, passes the limit. Its indexes of names and stacks are open-addressing tables of 8 bytes
// a slot (hash maps of std::string keys cost 64 bytes and more per name, and a node allocation per stack).
#pragma once

#include "pprof/Profile.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace qflame {

// The memory a vector holds, counted as what it will hold once it grows when it is full: readers check this
// against their budget, so that a growth that would pass it is refused before it happens (a vector that grows
// holds its old and its new buffer for a moment).
template <class T>
uint64_t heldBytes(const std::vector<T> &v)
{
    return (v.size() == v.capacity() ? 2 : 1) * uint64_t(v.capacity()) * sizeof(T);
}
// A vector sized once (assign) that never grows: what it holds.
template <class T>
uint64_t fixedBytes(const std::vector<T> &v)
{
    return uint64_t(v.capacity()) * sizeof(T);
}
// A string table's buffer and ends, likewise (their capacity is not visible: twice their size covers it).
inline uint64_t heldBytes(const StringTable &t)
{
    return 2 * uint64_t(t.bytes());
}

class StackProfileBuilder {
public:
    struct SampleType {
        std::string type, unit;
    };

    // One value per sample type for every stack.
    explicit StackProfileBuilder(std::vector<SampleType> sampleTypes);
    ~StackProfileBuilder();
    StackProfileBuilder(const StackProfileBuilder &) = delete;
    StackProfileBuilder &operator=(const StackProfileBuilder &) = delete;

    void setPeriod(const SampleType &periodType, int64_t period);
    void setDurationNanos(int64_t nanos);
    void addComment(std::string_view comment);
    // The samples' times (time/Timeline.h), its sample indexes the ones this builder made.
    void setTimeline(std::shared_ptr<const Timeline> timeline);

    // `rootFirst` lists the frames from the outermost caller to the leaf; an empty stack is a sample with no
    // location (its value counts in the total, as pprof counts it). Identical stacks are summed into one sample.
    void addStack(const std::vector<std::string_view> &rootFirst, const std::vector<int64_t> &values);
    // The same with one value per sample type at `values` (no vector to make per stack: the folded reader's
    // loop runs once per line, and 1 GiB of "a 1" lines are 268 million).
    void addStack(const std::vector<std::string_view> &rootFirst, const int64_t *values);
    // The same for the frames of one string, `separator` between them, root first (a folded line): no vector of
    // names per stack, and 4 bytes per frame while it is added (a single line can hold 500 million frames).
    void addStack(std::string_view rootFirst, char separator, const int64_t *values);
    // The same with the ids location() gave, leaf first (callers that name frames by index look each name up
    // once instead of once per stack).
    void addStackIds(const std::vector<uint64_t> &leafFirst, const std::vector<int64_t> &values);
    // addStackIds without looking for an equal stack first, for stacks distinct by construction (a flamegraph's
    // nodes): hashing and comparing 400,000 stacks was an eighth of decoding a server's flamegraph. Equal stacks
    // added this way are two samples, which pprof allows and every tree sums.
    void appendStackIds(const std::vector<uint64_t> &leafFirst, const std::vector<int64_t> &values);
    // The same with `count` ids at `leafFirst` and one value per sample type at `values`, returning the sample the
    // stack went to (new, or the equal one it was added to), for addValues.
    uint32_t addStackIds(const uint64_t *leafFirst, size_t count, const int64_t *values);
    // Adds one value per sample type to a sample addStackIds returned (a format that lists weights apart).
    void addValues(uint32_t sample, const int64_t *values);
    // The location (and function) of a frame name, created on first use.
    uint64_t location(std::string_view name);
    // A new location (and function) for a name without looking it up, for callers that hold each name once (a
    // flamegraph's name list). location() does not know of it.
    uint64_t addLocation(std::string_view name);
    size_t stackCount() const;

    // From now on, adding a stack, a location or a comment throws ProfileError(refusal) when storedBytes() plus
    // the caller's otherBytes exceeds `limit`.
    void setMemoryLimit(uint64_t limit, std::string refusal);
    // What the caller holds besides the builder (its own tables); checked against the limit at once.
    void setOtherBytes(uint64_t bytes);
    // What the builder holds: the profile's arrays (their capacity: a vector that grew holds it) and the indexes.
    uint64_t storedBytes() const;

    // The profile; the builder is spent afterwards (its arrays move into the result).
    std::shared_ptr<const Profile> build(const std::string &sourceName);

    // An index of entries by hash, open addressing with linear probes: 8 bytes a slot, at most half full.
    class HashSlots {
    public:
        static constexpr uint32_t kMissing = UINT32_MAX;
        // The first entry with `hash` that `same(entry)` accepts, or kMissing.
        template <class Same>
        uint32_t find(uint32_t hash, Same &&same) const
        {
            for (size_t i = hash & m_mask; m_slots[i].entry; i = (i + 1) & m_mask)
                if (m_slots[i].hash == hash && same(m_slots[i].entry - 1))
                    return m_slots[i].entry - 1;
            return kMissing;
        }
        void insert(uint32_t hash, uint32_t entry);
        // Its slots, or, when the next insert grows it, the old and the new ones (3 times as many).
        size_t bytes() const { return m_slots.size() * sizeof(Slot) * (2 * (m_size + 1) > m_slots.size() ? 3 : 1); }
        void clear() { std::vector<Slot>(16).swap(m_slots); m_mask = 15; m_size = 0; }
        HashSlots() { clear(); }

    private:
        struct Slot {
            uint32_t hash = 0;
            uint32_t entry = 0;   // entry + 1; 0: free
        };
        std::vector<Slot> m_slots;
        size_t m_mask = 0, m_size = 0;
    };

private:
    uint32_t str(std::string_view s);
    uint64_t newLocation(uint32_t nameString);
    void checkStack(const uint64_t *leafFirst, size_t count, const int64_t *values, size_t valueCount) const;
    // The stack in m_stack (location indexes, leaf first): added to its equal, or as a new sample.
    uint32_t addCurrentStack(const int64_t *values);
    void appendSample(const uint32_t *leafFirst, size_t count, const int64_t *values);
    void takeIds(const uint64_t *leafFirst, size_t count);
    void checkMemory(uint64_t extra = 0) const;   // extra: what is about to be allocated

    static uint32_t stackHash(const uint32_t *indexes, size_t count);
    std::unique_ptr<Profile> m_out;
    size_t m_typeCount;
    HashSlots m_strings;     // string index by its text
    HashSlots m_locations;   // location index by its function's name: one per name
    HashSlots m_sampleOf;    // sample by its leaf-first location ids
    std::vector<uint32_t> m_stack;   // the stack being added: location indexes, leaf first (kept: no allocation per stack)
    uint64_t m_limit = UINT64_MAX, m_otherBytes = 0;
    std::string m_refusal;
};

}   // namespace qflame
