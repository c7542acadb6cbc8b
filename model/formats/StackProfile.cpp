#include "formats/StackProfile.h"

#include "io/ReadOptions.h"

namespace qflame {

StackProfileBuilder::StackProfileBuilder(std::vector<SampleType> sampleTypes)
    : m_out(std::make_unique<Profile>()), m_typeCount(sampleTypes.size())
{
    str("");
    for (const SampleType &t : sampleTypes)
        m_out->sampleTypes.push_back(ValueType{str(t.type), str(t.unit)});
    m_out->sampleLocBegin.push_back(0);
    m_out->sampleLabelBegin.push_back(0);
}

StackProfileBuilder::~StackProfileBuilder() = default;

void StackProfileBuilder::setPeriod(const SampleType &periodType, int64_t period)
{
    m_out->periodType = ValueType{str(periodType.type), str(periodType.unit)};
    m_out->period = period;
}

void StackProfileBuilder::setDurationNanos(int64_t nanos)
{
    m_out->durationNanos = nanos;
}

void StackProfileBuilder::addComment(std::string_view comment)
{
    m_out->comments.push_back(str(comment));
}

uint32_t StackProfileBuilder::str(std::string_view s)
{
    auto it = m_strings.find(s);
    if (it != m_strings.end())
        return it->second;
    const auto index = uint32_t(m_out->strings.size());
    m_out->strings.push_back(s);
    m_strings.emplace(std::string(s), index);
    return index;
}

uint64_t StackProfileBuilder::location(std::string_view name)
{
    auto it = m_locations.find(name);
    if (it != m_locations.end())
        return it->second;
    const auto string = str(name);
    const uint64_t id = newLocation(string);
    m_locations.emplace(std::string(name), id);
    return id;
}

uint64_t StackProfileBuilder::addLocation(std::string_view name)
{
    const auto string = uint32_t(m_out->strings.size());
    m_out->strings.push_back(name);
    return newLocation(string);
}

uint64_t StackProfileBuilder::newLocation(uint32_t name)
{
    // One function and one location per name, both with the id index + 1 (what a pprof file would carry).
    const auto index = uint32_t(m_out->locations.size());
    const uint64_t id = uint64_t(index) + 1;
    Function f;
    f.id = id;
    f.name = f.systemName = name;
    m_out->functions.push_back(f);
    Location loc;
    loc.id = id;
    loc.firstLine = uint32_t(m_out->lines.size());
    loc.lineCount = 1;
    m_out->lines.push_back(Line{index, 0, 0});
    m_out->locations.push_back(loc);
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
    return m_out->sampleCount();
}

void StackProfileBuilder::addStack(const std::vector<std::string_view> &rootFirst, const std::vector<int64_t> &values)
{
    std::vector<uint64_t> ids;
    ids.reserve(rootFirst.size());
    for (size_t i = rootFirst.size(); i-- > 0;)   // pprof lists the leaf first
        ids.push_back(location(rootFirst[i]));
    addStackIds(ids, values);
}

void StackProfileBuilder::checkStack(const std::vector<uint64_t> &ids, const std::vector<int64_t> &values) const
{
    if (values.size() != m_typeCount)
        throw ProfileError("a stack has " + std::to_string(values.size()) + " values for " +
                           std::to_string(m_typeCount) + " sample types");
    for (uint64_t id : ids)
        if (id == 0 || id > m_out->locations.size())
            throw ProfileError("a stack refers to location id " + std::to_string(id) + ", which does not exist");
}

void StackProfileBuilder::appendSample(const std::vector<uint64_t> &ids, const std::vector<int64_t> &values)
{
    Profile &p = *m_out;
    for (uint64_t id : ids)
        p.sampleLocations.push_back(uint32_t(id - 1));
    p.sampleLocBegin.push_back(p.sampleLocations.size());
    p.values.insert(p.values.end(), values.begin(), values.end());
    p.sampleLabelBegin.push_back(p.labels.size());
}

void StackProfileBuilder::appendStackIds(const std::vector<uint64_t> &ids, const std::vector<int64_t> &values)
{
    checkStack(ids, values);
    appendSample(ids, values);
}

void StackProfileBuilder::addStackIds(const std::vector<uint64_t> &ids, const std::vector<int64_t> &values)
{
    checkStack(ids, values);
    Profile &p = *m_out;
    const auto sameStack = [&](uint32_t sample) {
        const uint64_t begin = p.sampleLocBegin[sample], end = p.sampleLocBegin[sample + 1];
        if (end - begin != ids.size())
            return false;
        for (size_t k = 0; k < ids.size(); ++k)
            if (p.sampleLocations[begin + k] != ids[k] - 1)
                return false;
        return true;
    };
    const uint64_t h = stackHash(ids);
    for (auto [it, end] = m_sampleOf.equal_range(h); it != end; ++it) {
        if (!sameStack(it->second))
            continue;
        // Sums wrap like go tool pprof's instead of overflowing (hostile input can hold huge values).
        int64_t *sum = p.values.data() + size_t(it->second) * m_typeCount;
        for (size_t i = 0; i < m_typeCount; ++i)
            sum[i] = wrappingAdd(sum[i], values[i]);
        return;
    }
    m_sampleOf.emplace(h, uint32_t(p.sampleCount()));
    appendSample(ids, values);
}

std::shared_ptr<const Profile> StackProfileBuilder::build(const std::string &sourceName)
{
    auto profile = std::make_shared<Profile>(std::move(*m_out));
    profile->sourceName = sourceName;
    m_strings.clear();
    m_locations.clear();
    m_sampleOf.clear();
    return profile;
}

}   // namespace qflame
