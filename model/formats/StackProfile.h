// Builds a pprof profile from stacks of plain function names, for the formats that only carry names and
// values (folded stacks, flamebearer JSON).
//
// The result is our Profile, filled directly (every id and index is made here, so it is valid by construction);
// every view, table and export then treats it as a pprof profile. It used to be built as a protobuf message,
// serialized and read back: a server's 400,000-node flamegraph spent seconds in that round trip.
#pragma once

#include "pprof/Profile.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace qflame {

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

    // `rootFirst` lists the frames from the outermost caller to the leaf; an empty stack is a sample with no
    // location (its value counts in the total, as pprof counts it). Identical stacks are summed into one sample.
    void addStack(const std::vector<std::string_view> &rootFirst, const std::vector<int64_t> &values);
    // The same with the ids location() gave, leaf first (callers that name frames by index look each name up
    // once instead of once per stack).
    void addStackIds(const std::vector<uint64_t> &leafFirst, const std::vector<int64_t> &values);
    // addStackIds without looking for an equal stack first, for stacks distinct by construction (a flamegraph's
    // nodes): hashing and comparing 400,000 stacks was an eighth of decoding a server's flamegraph. Equal stacks
    // added this way are two samples, which pprof allows and every tree sums.
    void appendStackIds(const std::vector<uint64_t> &leafFirst, const std::vector<int64_t> &values);
    // The location (and function) of a frame name, created on first use.
    uint64_t location(std::string_view name);
    // A new location (and function) for a name without looking it up, for callers that hold each name once (a
    // flamegraph's name list). location() does not know of it.
    uint64_t addLocation(std::string_view name);
    size_t stackCount() const;

    // The profile; the builder is spent afterwards (its arrays move into the result).
    std::shared_ptr<const Profile> build(const std::string &sourceName);

private:
    uint32_t str(std::string_view s);
    uint64_t newLocation(uint32_t nameString);
    void checkStack(const std::vector<uint64_t> &leafFirst, const std::vector<int64_t> &values) const;
    void appendSample(const std::vector<uint64_t> &leafFirst, const std::vector<int64_t> &values);

    // Hashed, not ordered: a server's flamegraph of 400,000 nodes is as many stacks, hundreds of frames deep,
    // and ordered maps of names and of whole stacks made importing it take 19 s.
    struct NameHash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
    };
    static uint64_t stackHash(const std::vector<uint64_t> &ids);
    std::unique_ptr<Profile> m_out;
    size_t m_typeCount;
    std::unordered_map<std::string, uint32_t, NameHash, std::equal_to<>> m_strings;
    std::unordered_map<std::string, uint64_t, NameHash, std::equal_to<>> m_locations;   // one per name
    // Hash of a stack's leaf-first location ids -> its sample (the sample holds the ids, compared on a hit).
    std::unordered_multimap<uint64_t, uint32_t> m_sampleOf;
};

}   // namespace qflame
