#include "time/Timeline.h"

#include "pprof/Profile.h"

#include <algorithm>
#include <numeric>

namespace qflame {

uint64_t Timeline::bytes() const
{
    return 4 * (sample.capacity() + delta.capacity() + sampleThread.capacity()) +
           8 * (longDeltas.capacity() + weight.capacity()) + weighted.capacity() + 32 * threadNames.size();
}

EventValues::EventValues(const Profile &profile, size_t type)
{
    const Timeline &t = *profile.timeline;
    const size_t samples = profile.sampleCount();
    m_share.assign(samples, 0);
    if (type < t.weighted.size() && t.weighted[type] && (!t.weight.empty() || t.gapWeights)) {
        m_weighted = true;
        for (size_t s = 0; s < samples; ++s)
            m_share[s] = profile.value(s, type) != 0;
        return;
    }
    std::vector<uint32_t> events(samples, 0);
    for (uint32_t s : t.sample)
        ++events[s];
    for (size_t s = 0; s < samples; ++s)
        m_share[s] = events[s] ? profile.value(s, type) / int64_t(events[s]) : 0;
}

uint32_t TimelineBuilder::thread(std::string_view name)
{
    const auto [it, added] = m_threadIndex.try_emplace(std::string(name), uint32_t(m_threadNames.size()));
    if (added)
        m_threadNames.emplace_back(name);
    return it->second;
}

void TimelineBuilder::setSampleThread(uint32_t sample, uint32_t thread)
{
    if (m_sampleThread.size() <= sample)
        m_sampleThread.resize(size_t(sample) + 1, 0);
    m_sampleThread[sample] = thread;
}

uint64_t TimelineBuilder::bytes() const
{
    return 4 * (m_sample.capacity() + m_sampleThread.capacity()) + 8 * (m_time.capacity() + m_weight.capacity()) +
           64 * m_threadNames.size();
}

std::shared_ptr<const Timeline> TimelineBuilder::build(std::vector<uint8_t> weighted, const std::vector<uint32_t> *sampleOf)
{
    if (m_sample.empty())
        return nullptr;
    auto t = std::make_shared<Timeline>();
    const size_t n = m_sample.size();
    std::vector<uint32_t> order;
    if (!std::is_sorted(m_time.begin(), m_time.end())) {
        order.resize(n);
        std::iota(order.begin(), order.end(), uint32_t(0));
        std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return m_time[a] < m_time[b]; });
    }
    const auto at = [&](size_t k) { return order.empty() ? k : size_t(order[k]); };
    t->sample.resize(n);
    t->delta.resize(n);
    uint32_t samples = 0;
    int64_t previous = m_hasOrigin ? std::min(m_origin, m_time[at(0)]) : m_time[at(0)];
    // Times more than 292 years apart (made-up input only) span more than int64 holds: no timeline, rather than
    // gaps that wrap around.
    int64_t span = 0;
    if (__builtin_sub_overflow(m_time[at(n - 1)], previous, &span))
        return nullptr;
    t->startNanos = previous;
    for (size_t k = 0; k < n; ++k) {
        const size_t i = at(k);
        const uint32_t s = sampleOf ? (*sampleOf)[m_sample[i]] : m_sample[i];
        t->sample[k] = s;
        samples = std::max(samples, s + 1);
        const int64_t gap = m_time[i] - previous;
        previous = m_time[i];
        if (gap >= int64_t(Timeline::kLongDelta)) {
            t->delta[k] = Timeline::kLongDelta;
            t->longDeltas.push_back(gap);
        } else {
            t->delta[k] = uint32_t(gap);
        }
    }
    t->spanNanos = previous - t->startNanos;
    // The weights are kept only where the events of one sample differ in them.
    bool differ = false;
    if (std::find(weighted.begin(), weighted.end(), uint8_t(1)) != weighted.end()) {
        std::vector<int64_t> first(samples, 0);
        std::vector<uint8_t> seen(samples, 0);
        for (size_t k = 0; k < n && !differ; ++k) {
            const size_t i = at(k);
            const uint32_t s = t->sample[k];
            differ = seen[s] && first[s] != m_weight[i];
            first[s] = m_weight[i], seen[s] = 1;
        }
    }
    if (differ) {
        t->weight.resize(n);
        for (size_t k = 0; k < n; ++k)
            t->weight[k] = m_weight[at(k)];
        t->weighted = std::move(weighted);
    } else {
        t->weighted.assign(weighted.size(), 0);
    }
    std::vector<int64_t>().swap(m_time);
    std::vector<int64_t>().swap(m_weight);
    std::vector<uint32_t>().swap(m_sample);
    if (m_threadNames.size() > 1) {
        t->sampleThread.assign(samples, 0);
        for (size_t s = 0; s < m_sampleThread.size(); ++s) {
            const uint32_t to = sampleOf ? (*sampleOf)[s] : uint32_t(s);
            if (to < samples)
                t->sampleThread[to] = m_sampleThread[s];
        }
    }
    t->threadNames = m_threadNames.empty() ? std::vector<std::string>{std::string()} : m_threadNames;
    t->wallClock = m_wallClock || (m_wallIfEpoch && t->startNanos >= kEpochFloorNanos);
    return t;
}

}   // namespace qflame
