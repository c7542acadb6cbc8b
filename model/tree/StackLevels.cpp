#include "tree/StackLevels.h"

#include "tree/FirstLookParts.h"

#include "io/HelperThread.h"
#include "io/Prefault.h"

#include <algorithm>
#include <cstdlib>
#include <new>
#include <system_error>

#include <sched.h>

namespace qflame::detail {

StackLevels::StackLevels(const StackStarts &stacks, const std::vector<Source> &sources, bool collapse)
    : m_stacks(stacks)
{
    if (collapse || !stacks.locBegin() || sources.size() != 1 || !sources.front().locLevels || stacks.size() == 0)
        return;
    m_source = sources.front();
    uint32_t upTo = stacks.size();
    if (const char *exactly = std::getenv("QFLAME_STACK_LEVELS")) {
        m_exactly = true;
        upTo = uint32_t(std::min<unsigned long long>(upTo, std::strtoull(exactly, nullptr, 10)));
    }
    try {
        m_thread = startHelperThread([this, upTo] { count(upTo); });
    } catch (const std::system_error &) {
    }
}

StackLevels::~StackLevels()
{
    m_stop = true;
    if (m_thread.joinable())
        m_thread.join();
}

StackLevels::Counts StackLevels::finish()
{
    if (!m_exactly)
        m_stop = true;
    if (m_thread.joinable())   // at once: the helper looks at m_stop every few hundred stacks
        m_thread.join();
    Counts counts;
    counts.counted = m_counted.load();
    if (counts.counted != 0)
        counts.levels = std::move(m_levels);
    m_levels = Array();   // (not handed over: not kept for the build's life)
    return counts;
}

void StackLevels::count(uint32_t upTo)
{
#ifdef SCHED_IDLE
    if (!m_exactly) {   // (exact counts are waited for: the helper must then have its turn)
        sched_param idle{};
        sched_setscheduler(0, SCHED_IDLE, &idle);   // this thread only (Linux), which ends after the count
    }
#endif
    // Allocated, advised and faulted in here, on the idle core, not on the caller's.
    const uint32_t n = m_stacks.size();
    if (m_stop.load(std::memory_order_relaxed))
        return;
    try {
        m_levels.reserve(n);
    } catch (const std::bad_alloc &) {
        return;
    }
    adviseHugePages(m_levels.data(), n * sizeof(uint32_t));
    m_levels.resize(n);   // not initialised (NoInitAllocator)
    constexpr uint32_t kStep = 512;   // stacks between two looks at m_stop (about 15 us on r64)
    const uint32_t *const begin = m_stacks.locBegin();
    const uint8_t *const perLocation = m_source.locLevels;
    uint32_t *const levels = m_levels.data();
    m_source.sampleLocations.visit([&](const auto *entries) {
        for (uint32_t from = 0; from < upTo; from += kStep) {
            if (m_stop.load(std::memory_order_relaxed))
                return;
            const uint32_t to = std::min(upTo, from + kStep);
            for (uint32_t i = from; i < to; ++i)
                levels[i] = levelsOf(entries, perLocation, begin[i], begin[i + 1]);
            m_counted.store(to, std::memory_order_relaxed);   // (read after the join)
        }
    });
}

}   // namespace qflame::detail
