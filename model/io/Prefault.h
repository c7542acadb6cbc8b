// Arrays filled once (the samples of a big profile) can cost nearly as much in page faults as in the work that
// fills them: the first write to every 4 KB page traps into the kernel, which clears the page (on this 2-core
// VM, 150 MB touched page by page take 80-180 ms, asked for at once 60-90 ms; `qflame top` on the 43 MB r64
// profile took 38,000 faults). A Prefaulter asks the kernel for those pages in large steps on a thread of its
// own, ahead of the thread that fills them, so the faults cost less and are paid beside the work instead of in
// it. (Transparent huge pages would need far fewer faults but stall in the kernel's compaction for up to half a
// second when memory is fragmented; measured, they made the median worse.)
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <thread>
#include <vector>

namespace qflame {

// Asks for transparent huge pages (madvise MADV_HUGEPAGE) on the 2 MiB-aligned part of [begin, begin + bytes),
// before anything touches it: on this project's VM the first write to each 4 KiB page costs 17-22 us (issue #31),
// one fault per 2 MiB instead of 512 takes most of that away. Only for memory filled soon and whole (the sample
// arrays reserved for the announced size, the inflated blocks): a huge page is 2 MiB of memory at once. Does
// nothing elsewhere than on Linux, or where the kernel has huge pages off.
void adviseHugePages(const void *begin, size_t bytes);

// Faults in the whole pages of [begin, begin + bytes) for writing in one system call (madvise
// MADV_POPULATE_WRITE), before a read() fills them: the kernel then takes no trap per page. False where it cannot
// (before Linux 5.14, elsewhere than on Linux); the pages are faulted in as they are written then.
bool populateForWrite(const void *begin, size_t bytes);

// Gives the whole pages of [begin, begin + bytes) back to the kernel (madvise MADV_DONTNEED): memory nothing
// holds any more, such as the capacity of an array past its end once it is complete, that the prefaulter or a
// huge page made resident. Reading it again gives zeros, writing it costs a fresh page. From the first 2 MiB
// boundary in the range on (adviseHugePages' huge pages): giving back the end of a huge page splits it,
// and on this project's VM every page of the arrays was then slower to reach once more, not only the split one's
// (the first pass over r64's sample values after the read, 18 MB: 1.2 ms -> 5-8 ms; `qflame top` on
// pprof__large.cpu 21 -> 27 ms). At most 2 MiB less a page stays resident. Does nothing elsewhere than on Linux.
void releasePages(const void *begin, size_t bytes);

// Puts the heap on transparent huge pages: grows malloc's heap once by `bytes` of address space and advises huge
// pages on it, so that what a short-lived process allocates there (a profile's metadata, its sample arrays, the
// tables built from them) costs one page fault per 2 MiB instead of one per 4 KiB. glibc's own switch for this
// (GLIBC_TUNABLES=glibc.malloc.hugetlb=1) can only be set in the environment before the process starts. Only
// address space is reserved: untouched pages cost no memory. Every thread allocates there (one arena, mallopt's
// M_ARENA_MAX): glibc would give each new thread an arena of its own, mapped apart in 4 KiB pages, and the zstd
// reader's window (2 MiB, made on the inflating thread at its first block) took some 700 page faults there:
// `qflame top` on r64.pb.zst 0.105 -> 0.097 s (bench/floor-notes.md, session 34). Call it first thing in main,
// before any thread; only where glibc's malloc is the allocator (elsewhere it does nothing). QFLAME_HEAP_4K=1 in
// the environment turns it off, to measure what it buys (bench/floor-notes.md).
void hugePageHeap(size_t bytes);

// The window's heap while it opens its first files: hugePageHeap, with its one arena for every thread, so that
// the reading threads, the first look's and the GUI thread all allocate from that heap and reuse what the others
// freed. With glibc's arena a thread, the first look's threads took their memory fresh from their own arenas, in
// 4 KiB pages: r64's first paint 244 -> 207 ms (median of 15 runs each, taking turns, on this project's VM, where
// a fresh page costs 17-22 us). Call it first thing in main, before any thread, and only where files are read at
// once: the job that reads them (LoadJob.cpp) calls usualHeapTrimming when it ends.
void windowHeap(size_t bytes);
// Gives the heap back malloc's usual trimming once the first files are open (after windowHeap, the first call
// only; nothing otherwise), so that a tab closed later gives its memory back (issue #23).
void usualHeapTrimming();

class Prefaulter {
public:
    struct Range {
        const void *begin;
        size_t bytes;
    };

    // Ranges smaller than this in total are not worth a thread.
    static constexpr size_t kMinBytes = 8u << 20;

    Prefaulter() = default;
    Prefaulter(const Prefaulter &) = delete;
    Prefaulter &operator=(const Prefaulter &) = delete;
    ~Prefaulter() { stop(); }

    // How far the filling has come, for reservations made from an estimate: the ranges are taken to be filled
    // in proportion to `done` out of `total` (say bytes of input read out of the size the file announced), and
    // are faulted in only up to `lead` ahead of it. An announced size that is far too large (a damaged or
    // hostile gzip trailer) then costs address space, not memory.
    struct Pace {
        const std::atomic<uint64_t> *done;
        uint64_t total;
        uint64_t lead;
    };

    // Starts faulting in the whole pages of `ranges`, all of them from their start on at the same pace (the
    // arrays of samples grow together). A hint to the kernel that never changes the memory's content, so a
    // range that is freed meanwhile (an array that outgrew its reservation) costs a fault and nothing else.
    // Does nothing where the kernel cannot prefault (before Linux 5.14) or a thread cannot be had.
    void start(std::vector<Range> ranges, const Pace *pace = nullptr);

    // Stops at the next step and waits for the thread.
    void stop();

    // Waits until every range has been faulted in (or the kernel said no).
    void wait();

    // The unwritten capacity of a vector, from its size to its capacity.
    template <typename T>
    static Range unwritten(const std::vector<T> &v)
    {
        return {v.data() + v.size(), (v.capacity() - v.size()) * sizeof(T)};
    }

private:
    void run(const std::vector<Range> &ranges, const Pace *pace);

    std::atomic<bool> m_stop{false};
    Pace m_pace{};
    std::thread m_thread;
};

}   // namespace qflame
