// The inflated bytes of a compressed profile as a protobuf input stream. A background thread inflates a few
// blocks ahead of the reader, so that on two cores inflating and parsing overlap instead of adding up, and the
// whole inflated profile is never in memory at once.
#pragma once

#include "io/Inflater.h"

#include <google/protobuf/io/zero_copy_stream.h>

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string_view>
#include <thread>
#include <vector>

namespace qflame {

class InflatingStream final : public google::protobuf::io::ZeroCopyInputStream {
public:
    static constexpr size_t kDefaultBlockSize = 256 * 1024;

    // Where the inflating happens. Small inputs are inflated on the reader's thread as it reads: a thread and
    // a quarter of a megabyte of blocks cost more than they save there.
    enum class Threading { Auto, Background, Reader };
    static constexpr size_t kBackgroundFromBytes = 64 * 1024;   // of compressed input, for Auto

    // Starts inflating `input` (which must outlive the stream). `blockSize` and `threading` are for tests:
    // small blocks make fields straddle them.
    // With `arrival`, input's bytes come in while it inflates (Inflater.h).
    InflatingStream(std::string_view input, Compression c, uint64_t cap, size_t blockSize = kDefaultBlockSize,
                    Threading threading = Threading::Auto, GzipLibrary gzip = defaultGzipLibrary(),
                    const InputArrival *arrival = nullptr);
    ~InflatingStream() override;

    // ZeroCopyInputStream. Next() waits for the next block; it returns false at the end of the data and when
    // inflating failed (finish() then throws the reason).
    bool Next(const void **data, int *size) override;
    void BackUp(int count) override;
    bool Skip(int count) override;
    int64_t ByteCount() const override { return m_byteCount; }

    // The first block, without consuming it: all the data when it is shorter than a block. Waits for it.
    std::string_view peek();

    // Everything not read yet, as one string (then finish()).
    std::string readAll();

    // Waits until the whole input has been inflated (discarding what nobody reads any more) and throws the
    // inflater's error, if any. The reader calls it before reporting an error of its own: damaged compressed
    // data must be reported as such, wherever the parse happened to stop.
    void finish();

    uint64_t sizeHint() const { return m_inflater.sizeHint(); }

    // The size the whole output will have: the announced one, or, where the input announces none (zstd written
    // without its content size), what was inflated so far scaled by the share of the input it took; 0 before
    // anything was inflated. Safe from any thread.
    uint64_t sizeEstimate() const;

    // How much of the compressed input has been consumed, in [0, 1]; safe from any thread.
    double progress() const { return m_progress.load(std::memory_order_relaxed); }

private:
    struct Block {
        char *bytes = nullptr;           // m_blockSize bytes, not zero-filled: in m_arena, or m_extra's
        size_t size = 0;
    };
    static constexpr size_t kBlocksAhead = 8;
    // Blocks in use at most: the ones ahead, the one being inflated, the reader's. Up to 2 MiB of them are
    // carved from one arena on huge pages (io/Prefault.h: 2.5 MB of fresh 4 KiB pages cost some 10 ms of
    // faults here), the others come from the heap.
    static constexpr size_t kMaxBlocks = kBlocksAhead + 2;
    static constexpr size_t kArenaBytes = size_t(2) << 20;
    Block newBlock();

    void produce();
    bool fetchCurrent();
    bool inflateCurrent();   // the reader's own inflating (no background thread)   // makes m_current the next block with bytes left; false at the end

    Inflater m_inflater;
    const size_t m_blockSize;
    struct FreeArena {
        void operator()(char *p) const { std::free(p); }
    };
    std::unique_ptr<char, FreeArena> m_arena;   // m_arenaBlocks blocks, 2 MiB-aligned; none for small inputs
    size_t m_arenaBlocks = 0;
    size_t m_arenaUsed = 0;                     // blocks handed out of it so far
    std::vector<std::unique_ptr<char[]>> m_extra;   // blocks beyond the arena (none in practice)
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<Block> m_ready;          // inflated, not yet handed out
    std::vector<Block> m_free;          // handed back, reused to avoid fresh pages
    bool m_done = false;                // the producer has stopped (end of data, error or m_stop)
    bool m_stop = false;                // the reader is gone
    bool m_discard = false;             // finish(): keep inflating, drop the blocks
    std::exception_ptr m_error;
    std::atomic<double> m_progress{0.0};
    std::atomic<uint64_t> m_inflated{0};  // bytes the inflater has produced, with m_progress

    Block m_current;                    // the block handed out last (reader side only)
    size_t m_position = 0;              // how much of it has been handed out (BackUp moves it back)
    int64_t m_byteCount = 0;

    std::thread m_thread;               // last: started once everything above exists; none for small inputs
};

}   // namespace qflame
