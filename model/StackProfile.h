// Builds a pprof profile from stacks of plain function names, for the formats that only carry names and
// values (folded stacks, flamebearer JSON).
//
// The result goes through the protoc-generated classes and readProfile like any file, so an imported profile is
// validated the same way and every view, table and export treats it as a pprof profile.
#pragma once

#include "Profile.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace perftools::profiles {
class Profile;
}

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
    size_t stackCount() const { return m_sampleOf.size(); }

    // The uncompressed pprof bytes.
    std::string serialize() const;
    // The profile read back through readProfile.
    std::shared_ptr<const Profile> build(const std::string &sourceName) const;

private:
    int64_t str(std::string_view s);
    uint64_t location(std::string_view name);

    std::unique_ptr<perftools::profiles::Profile> m_out;
    size_t m_typeCount;
    std::map<std::string, int64_t, std::less<>> m_strings;
    std::map<std::string, uint64_t, std::less<>> m_locations;   // one function and one location per name
    std::map<std::vector<uint64_t>, int> m_sampleOf;             // leaf-first location ids -> sample index
};

}   // namespace qflame
