#include "formats/StackProfile.h"

#include "io/ReadOptions.h"

#include <algorithm>

namespace qflame {

namespace {

uint32_t finish(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return uint32_t(h);
}

uint32_t textHash(std::string_view s)
{
    return finish(std::hash<std::string_view>()(s));
}

}   // namespace

void StackProfileBuilder::HashSlots::insert(uint32_t hash, uint32_t entry)
{
    if (2 * (m_size + 1) > m_slots.size()) {
        std::vector<Slot> old(m_slots.size() * 2);
        old.swap(m_slots);
        m_mask = m_slots.size() - 1;
        for (const Slot &s : old)
            if (s.entry) {
                size_t i = s.hash & m_mask;
                while (m_slots[i].entry)
                    i = (i + 1) & m_mask;
                m_slots[i] = s;
            }
    }
    size_t i = hash & m_mask;
    while (m_slots[i].entry)
        i = (i + 1) & m_mask;
    m_slots[i] = Slot{hash, entry + 1};
    ++m_size;
}

StackProfileBuilder::StackProfileBuilder(std::vector<SampleType> sampleTypes)
    : m_out(std::make_unique<Profile>()), m_typeCount(sampleTypes.size())
{
    str("");
    for (const SampleType &t : sampleTypes)
        m_out->sampleTypes.push_back(ValueType{str(t.type), str(t.unit)});
    m_out->sampleLocBegin.push_back(0);
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
    checkMemory();
}

void StackProfileBuilder::setMemoryLimit(uint64_t limit, std::string refusal)
{
    m_limit = limit;
    m_refusal = std::move(refusal);
    checkMemory();
}

void StackProfileBuilder::setOtherBytes(uint64_t bytes)
{
    m_otherBytes = bytes;
    checkMemory();
}

uint64_t StackProfileBuilder::storedBytes() const
{
    const Profile &p = *m_out;
    return heldBytes(p.strings) + heldBytes(p.functions) + heldBytes(p.lines) + heldBytes(p.locations) +
           p.sampleLocations.heldBytes() + heldBytes(p.sampleLocBegin) + p.values.heldBytes() +
           heldBytes(p.comments) + m_strings.bytes() + m_locations.bytes() + m_sampleOf.bytes() + heldBytes(m_stack);
}

void StackProfileBuilder::checkMemory(uint64_t extra) const
{
    if (m_limit != UINT64_MAX && storedBytes() + m_otherBytes + extra > m_limit)
        throw ProfileError(m_refusal);
}

uint32_t StackProfileBuilder::str(std::string_view s)
{
    const uint32_t h = textHash(s);
    const StringTable &strings = m_out->strings;
    const uint32_t found = m_strings.find(h, [&](uint32_t i) { return strings[i] == s; });
    if (found != HashSlots::kMissing)
        return found;
    const auto index = uint32_t(m_out->strings.size());
    m_out->strings.push_back(s);
    m_strings.insert(h, index);
    return index;
}

uint64_t StackProfileBuilder::location(std::string_view name)
{
    const uint32_t h = textHash(name);
    const Profile &p = *m_out;
    const uint32_t found =
        m_locations.find(h, [&](uint32_t loc) { return p.strings[p.functions[loc].name] == name; });
    if (found != HashSlots::kMissing)
        return uint64_t(found) + 1;
    const uint64_t id = newLocation(str(name));
    m_locations.insert(h, uint32_t(id - 1));
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
    checkMemory();
    return id;
}

uint32_t StackProfileBuilder::stackHash(const uint32_t *indexes, size_t count)
{
    uint64_t h = count;
    for (size_t i = 0; i < count; ++i)
        h = (h ^ indexes[i]) * 0x9e3779b97f4a7c15ull + (h >> 29);
    return finish(h);
}

void StackProfileBuilder::setTimeline(std::shared_ptr<const Timeline> timeline)
{
    m_out->timeline = std::move(timeline);
}

size_t StackProfileBuilder::stackCount() const
{
    return m_out->sampleCount();
}

void StackProfileBuilder::addStack(const std::vector<std::string_view> &rootFirst, const std::vector<int64_t> &values)
{
    if (values.size() != m_typeCount)
        checkStack(nullptr, 0, values.data(), values.size());
    addStack(rootFirst, values.data());
}

void StackProfileBuilder::addStack(const std::vector<std::string_view> &rootFirst, const int64_t *values)
{
    m_stack.clear();
    for (size_t i = rootFirst.size(); i-- > 0;)   // pprof lists the leaf first
        m_stack.push_back(uint32_t(location(rootFirst[i]) - 1));
    addCurrentStack(values);
}

void StackProfileBuilder::addStack(std::string_view rootFirst, char separator, const int64_t *values)
{
    // The names are the pieces between separators, as a split from the front gives them: none for "", and a
    // separator at the end starts no name ("a;" is a, ";" is one empty name).
    m_stack.clear();
    if (!rootFirst.empty()) {
        size_t end = rootFirst.size() - (rootFirst.back() == separator ? 1 : 0);
        for (;;) {   // from the leaf back
            const size_t sep = end > 0 ? rootFirst.rfind(separator, end - 1) : std::string_view::npos;
            const size_t begin = sep == std::string_view::npos ? 0 : sep + 1;
            if (m_stack.size() == m_stack.capacity())
                checkMemory();   // before it grows (a full vector counts as grown)
            m_stack.push_back(uint32_t(location(rootFirst.substr(begin, end - begin)) - 1));
            if (sep == std::string_view::npos)
                break;
            end = sep;
        }
    }
    addCurrentStack(values);
}

void StackProfileBuilder::checkStack(const uint64_t *ids, size_t count, const int64_t *, size_t valueCount) const
{
    if (valueCount != m_typeCount)
        throw ProfileError("a stack has " + std::to_string(valueCount) + " values for " +
                           std::to_string(m_typeCount) + " sample types");
    for (size_t i = 0; i < count; ++i)
        if (ids[i] == 0 || ids[i] > m_out->locations.size())
            throw ProfileError("a stack refers to location id " + std::to_string(ids[i]) + ", which does not exist");
}

void StackProfileBuilder::takeIds(const uint64_t *ids, size_t count)
{
    m_stack.resize(count);
    for (size_t i = 0; i < count; ++i)
        m_stack[i] = uint32_t(ids[i] - 1);
}

void StackProfileBuilder::appendSample(const uint32_t *indexes, size_t count, const int64_t *values)
{
    Profile &p = *m_out;
    // A deep stack is checked before it is copied: the copy of a stack of 100 million frames is 400 MB.
    if (p.sampleLocations.size() + count > p.sampleLocations.capacity())
        checkMemory(4 * (p.sampleLocations.size() + count));
    p.sampleLocations.append(indexes, indexes + count);
    p.sampleLocBegin.push_back(locationPosition(p.sampleLocations.size()));
    p.values.append(values, values + m_typeCount);
    checkMemory();
}

void StackProfileBuilder::appendStackIds(const std::vector<uint64_t> &ids, const std::vector<int64_t> &values)
{
    checkStack(ids.data(), ids.size(), values.data(), values.size());
    takeIds(ids.data(), ids.size());
    appendSample(m_stack.data(), m_stack.size(), values.data());
}

void StackProfileBuilder::addStackIds(const std::vector<uint64_t> &ids, const std::vector<int64_t> &values)
{
    checkStack(nullptr, 0, values.data(), values.size());
    addStackIds(ids.data(), ids.size(), values.data());
}

uint32_t StackProfileBuilder::addStackIds(const uint64_t *ids, size_t count, const int64_t *values)
{
    checkStack(ids, count, values, m_typeCount);
    takeIds(ids, count);
    return addCurrentStack(values);
}

uint32_t StackProfileBuilder::addCurrentStack(const int64_t *values)
{
    Profile &p = *m_out;
    const uint32_t *stack = m_stack.data();
    const size_t count = m_stack.size();
    const auto sameStack = [&](uint32_t sample) {
        const uint64_t begin = p.sampleLocBegin[sample], end = p.sampleLocBegin[sample + 1];
        return end - begin == count && p.sampleLocations.visit([&](const auto *entries) {
                   return std::equal(stack, stack + count, entries + begin);
               });
    };
    const uint32_t h = stackHash(stack, count);
    const uint32_t sample = m_sampleOf.find(h, sameStack);
    if (sample != HashSlots::kMissing) {
        addValues(sample, values);
        return sample;
    }
    const auto added = uint32_t(p.sampleCount());
    m_sampleOf.insert(h, added);
    appendSample(stack, count, values);
    return added;
}

void StackProfileBuilder::addValues(uint32_t sample, const int64_t *values)
{
    // Sums wrap like go tool pprof's instead of overflowing (hostile input can hold huge values).
    SampleValues &sums = m_out->values;
    const size_t first = size_t(sample) * m_typeCount;
    for (size_t i = 0; i < m_typeCount; ++i)
        sums.setWidening(first + i, wrappingAdd(sums[first + i], values[i]));
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
