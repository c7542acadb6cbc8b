#include "StackProfile.h"

#include "CallTree.h"
#include "ProfileReader.h"
#include "profile.pb.h"

#include <algorithm>

namespace qflame {

namespace pb = perftools::profiles;

StackProfileBuilder::StackProfileBuilder(std::vector<SampleType> sampleTypes)
    : m_out(std::make_unique<pb::Profile>()), m_typeCount(sampleTypes.size())
{
    str("");
    for (const SampleType &t : sampleTypes) {
        pb::ValueType *vt = m_out->add_sample_type();
        vt->set_type(str(t.type));
        vt->set_unit(str(t.unit));
    }
}

StackProfileBuilder::~StackProfileBuilder() = default;

void StackProfileBuilder::setPeriod(const SampleType &periodType, int64_t period)
{
    m_out->mutable_period_type()->set_type(str(periodType.type));
    m_out->mutable_period_type()->set_unit(str(periodType.unit));
    m_out->set_period(period);
}

void StackProfileBuilder::setDurationNanos(int64_t nanos)
{
    m_out->set_duration_nanos(nanos);
}

void StackProfileBuilder::addComment(std::string_view comment)
{
    m_out->add_comment(str(comment));
}

int64_t StackProfileBuilder::str(std::string_view s)
{
    auto it = m_strings.find(s);
    if (it != m_strings.end())
        return it->second;
    const int64_t index = m_out->string_table_size();
    m_out->add_string_table(std::string(s));
    m_strings.emplace(std::string(s), index);
    return index;
}

uint64_t StackProfileBuilder::location(std::string_view name)
{
    auto it = m_locations.find(name);
    if (it != m_locations.end())
        return it->second;
    const uint64_t id = uint64_t(m_out->location_size()) + 1;
    pb::Function *f = m_out->add_function();
    f->set_id(id);
    f->set_name(str(name));
    f->set_system_name(f->name());
    pb::Location *loc = m_out->add_location();
    loc->set_id(id);
    loc->add_line()->set_function_id(id);
    m_locations.emplace(std::string(name), id);
    return id;
}

uint64_t StackProfileBuilder::stackHash(const std::vector<uint64_t> &ids)
{
    uint64_t h = ids.size();
    for (uint64_t id : ids)
        h = (h ^ id) * 0x9e3779b97f4a7c15ull + (h >> 29);
    return h;
}

size_t StackProfileBuilder::stackCount() const
{
    return size_t(m_out->sample_size());
}

void StackProfileBuilder::addStack(const std::vector<std::string_view> &rootFirst, const std::vector<int64_t> &values)
{
    std::vector<uint64_t> ids;
    ids.reserve(rootFirst.size());
    for (size_t i = rootFirst.size(); i-- > 0;)   // pprof lists the leaf first
        ids.push_back(location(rootFirst[i]));
    addStackIds(ids, values);
}

void StackProfileBuilder::addStackIds(const std::vector<uint64_t> &ids, const std::vector<int64_t> &values)
{
    if (values.size() != m_typeCount)
        throw ProfileError("a stack has " + std::to_string(values.size()) + " values for " +
                           std::to_string(m_typeCount) + " sample types");
    const uint64_t h = stackHash(ids);
    int found = -1;
    for (auto [it, end] = m_sampleOf.equal_range(h); it != end && found < 0; ++it) {
        const auto &have = m_out->sample(it->second).location_id();
        if (size_t(have.size()) == ids.size() && std::equal(ids.begin(), ids.end(), have.begin()))
            found = it->second;
    }
    if (found < 0) {
        m_sampleOf.emplace(h, m_out->sample_size());
        pb::Sample *s = m_out->add_sample();
        s->mutable_location_id()->Add(ids.begin(), ids.end());
        s->mutable_value()->Add(values.begin(), values.end());
        return;
    }
    pb::Sample *s = m_out->mutable_sample(found);
    // Sums wrap like go tool pprof's instead of overflowing (hostile input can hold huge values).
    for (size_t i = 0; i < values.size(); ++i)
        s->set_value(int(i), wrappingAdd(s->value(int(i)), values[i]));
}

std::string StackProfileBuilder::serialize() const
{
    std::string bytes;
    if (!m_out->SerializeToString(&bytes))
        throw ProfileError("could not encode the profile as protobuf");
    return bytes;
}

std::shared_ptr<const Profile> StackProfileBuilder::build(const std::string &sourceName) const
{
    return readProfile(serialize(), sourceName);
}

}   // namespace qflame
