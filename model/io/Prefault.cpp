#include "io/Prefault.h"

#include "io/HelperThread.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstdint>
#include <system_error>

#if defined(__linux__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace qflame {

namespace {

#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
constexpr bool kCanPrefault = true;

uintptr_t pageSize()
{
    static const uintptr_t page = uintptr_t(sysconf(_SC_PAGESIZE));
    return page;
}

// The whole pages inside [begin, end) (madvise takes whole pages); a page the range only partly covers is left
// to the filling thread.
bool populate(uintptr_t begin, uintptr_t end)
{
    const uintptr_t page = pageSize();
    begin = (begin + page - 1) & ~(page - 1);
    end &= ~(page - 1);
    if (end <= begin)
        return true;
    // EINVAL: a kernel without MADV_POPULATE_WRITE; nothing else to try. ENOMEM or EFAULT: part of the range
    // is no longer mapped (its array moved); the other ranges go on.
    return madvise(reinterpret_cast<void *>(begin), end - begin, MADV_POPULATE_WRITE) == 0 || errno != EINVAL;
}
#else
constexpr bool kCanPrefault = false;
uintptr_t pageSize() { return 4096; }
bool populate(uintptr_t, uintptr_t) { return false; }
#endif

// The huge pages adviseHugePages asks for, and the unit releasePages gives back from.
[[maybe_unused]] constexpr uintptr_t kHuge = uintptr_t(2) << 20;

}   // namespace

void adviseHugePages(const void *begin, size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const uintptr_t from = (reinterpret_cast<uintptr_t>(begin) + kHuge - 1) & ~(kHuge - 1);
    const uintptr_t to = (reinterpret_cast<uintptr_t>(begin) + bytes) & ~(kHuge - 1);
    if (to > from)
        madvise(reinterpret_cast<void *>(from), to - from, MADV_HUGEPAGE);   // a hint: failing costs nothing
#else
    (void)begin;
    (void)bytes;
#endif
}

bool populateForWrite(const void *begin, size_t bytes)
{
    const uintptr_t from = reinterpret_cast<uintptr_t>(begin);
    return kCanPrefault && populate(from, from + bytes);
}

void releasePages(const void *begin, size_t bytes)
{
#if defined(__linux__)
    static const uintptr_t page = uintptr_t(sysconf(_SC_PAGESIZE));
    // From a 2 MiB boundary: no huge page is split (Prefault.h). Without huge pages a little less goes back.
    const uintptr_t from = (reinterpret_cast<uintptr_t>(begin) + kHuge - 1) & ~(kHuge - 1);
    const uintptr_t to = (reinterpret_cast<uintptr_t>(begin) + bytes) & ~(page - 1);
    if (to > from)
        madvise(reinterpret_cast<void *>(from), to - from, MADV_DONTNEED);   // a hint: failing costs memory only
#else
    (void)begin;
    (void)bytes;
#endif
}

void hugePageHeap(size_t bytes)
{
#if defined(__linux__) && defined(__GLIBC__) && defined(MADV_HUGEPAGE)
    if (const char *off = getenv("QFLAME_HEAP_4K"); off && *off == '1')   // for measuring what this buys
        return;
    // The pad makes the next growth of the heap this large; the trim threshold keeps free() from giving the
    // advised part back (a later growth would not be advised). Pages freed inside it stay mapped, as anywhere
    // in the heap. Both are malloc's documented settings (mallopt(3)).
    if (bytes > size_t(INT_MAX) || !mallopt(M_TRIM_THRESHOLD, int(bytes)) || !mallopt(M_TOP_PAD, int(bytes)))
        return;
    // Every thread in this heap: glibc gives each new thread that allocates an arena of its own otherwise, mapped
    // apart from the heap in 4 KiB pages (Prefault.h).
    mallopt(M_ARENA_MAX, 1);
    // Blocks below the mmap threshold come from the heap's top; the first one that the top cannot hold makes
    // malloc grow the heap by it plus the pad. Freed at once, they leave a top of `bytes`, untouched.
    const void *const before = sbrk(0);
    std::vector<void *> blocks;
    while (sbrk(0) == before && blocks.size() < 64) {
        void *block = malloc(64u << 10);
        if (!block)
            break;
        blocks.push_back(block);
    }
    const void *const after = sbrk(0);
    for (void *block : blocks)
        free(block);
    // Later growths by malloc's usual steps: a pad this large on every growth could fail under a limit on the
    // address space where the usual step would not.
    mallopt(M_TOP_PAD, 128 << 10);
    if (after > before)
        adviseHugePages(before, size_t(static_cast<const char *>(after) - static_cast<const char *>(before)));
#else
    (void)bytes;
#endif
}

namespace {

std::atomic<bool> g_heapUntrimmed{false};   // windowHeap's trim threshold is in force

}   // namespace

void windowHeap(size_t bytes)
{
#if defined(__linux__) && defined(__GLIBC__)
    if (const char *off = getenv("QFLAME_HEAP_4K"); off && *off == '1')   // as hugePageHeap
        return;
    hugePageHeap(bytes);   // with its one arena
    g_heapUntrimmed = true;
#else
    (void)bytes;
#endif
}

void usualHeapTrimming()
{
#if defined(__linux__) && defined(__GLIBC__)
    if (g_heapUntrimmed.exchange(false))
        mallopt(M_TRIM_THRESHOLD, 128 << 10);   // glibc's default
#endif
}

void Prefaulter::start(std::vector<Range> ranges, const Pace *pace)
{
    stop();
    size_t total = 0;
    for (const Range &r : ranges)
        total += r.bytes;
    if (!kCanPrefault || total < kMinBytes)
        return;
    m_stop.store(false, std::memory_order_relaxed);
    try {
        if (pace)
            m_pace = *pace;
        m_thread = startHelperThread([this, ranges = std::move(ranges), paced = pace != nullptr] {
            run(ranges, paced ? &m_pace : nullptr);
        });
    } catch (const std::system_error &) {   // no thread: the filling thread faults its pages itself
    }
}

void Prefaulter::stop()
{
    if (!m_thread.joinable())
        return;
    m_stop.store(true, std::memory_order_relaxed);
    m_thread.join();
}

void Prefaulter::wait()
{
    if (m_thread.joinable())
        m_thread.join();
}

void Prefaulter::run(const std::vector<Range> &ranges, const Pace *pace)
{
    // Steps of 2 MB of the largest range, the others cut in as many steps: each step covers a little more of
    // every array than the filling thread has written by then, as long as this thread keeps ahead.
    constexpr size_t kStep = 2u << 20;
    size_t largest = 0;
    for (const Range &r : ranges)
        largest = std::max(largest, r.bytes);
    const size_t steps = (largest + kStep - 1) / kStep;
    for (size_t k = 0; k < steps; ++k) {
        if (pace) {   // step k covers the fraction k/steps on: wait until the filling is `lead` from there
            const double from = double(pace->total) * double(k) / double(steps);
            while (double(pace->done->load(std::memory_order_relaxed)) + double(pace->lead) < from) {
                if (m_stop.load(std::memory_order_relaxed))
                    return;
                std::this_thread::sleep_for(std::chrono::microseconds(200));
            }
        }
        for (const Range &r : ranges) {
            if (m_stop.load(std::memory_order_relaxed))
                return;
            // Steps meet at a page boundary: populate() leaves out a page a step only partly covers, which at a
            // boundary inside the range would be left out by both steps (one page in each of 15 on 32 MB).
            const uintptr_t page = pageSize();
            const uintptr_t base = reinterpret_cast<uintptr_t>(r.begin), end = base + r.bytes;
            const auto boundary = [&](size_t j) {
                return j == 0 ? base : j == steps ? end : std::max(base, (base + r.bytes * j / steps) & ~(page - 1));
            };
            if (!populate(boundary(k), boundary(k + 1)))
                return;
        }
    }
}

}   // namespace qflame
