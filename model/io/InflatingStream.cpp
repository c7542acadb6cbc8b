#include "io/InflatingStream.h"

#include "io/HelperThread.h"
#include "io/PhaseTrace.h"
#include "io/Prefault.h"

namespace qflame {

InflatingStream::InflatingStream(std::string_view input, Compression c, uint64_t cap, size_t blockSize,
                                 Threading threading, GzipLibrary gzip, const InputArrival *arrival)
    : m_inflater(input, c, cap, gzip, arrival),
      m_blockSize(threading == Threading::Reader || (threading == Threading::Auto && input.size() < kBackgroundFromBytes)
                      ? std::min(blockSize, std::max<size_t>(input.size() * 4, 64 * 1024))
                      : blockSize)
{
    if (threading == Threading::Background || (threading == Threading::Auto && input.size() >= kBackgroundFromBytes)) {
        constexpr size_t kHuge = size_t(2) << 20;
        m_arenaBlocks = std::min(kMaxBlocks, kArenaBytes / m_blockSize);
        const size_t bytes = (m_arenaBlocks * m_blockSize + kHuge - 1) & ~(kHuge - 1);
        if (m_arenaBlocks > 0)
            m_arena.reset(static_cast<char *>(std::aligned_alloc(kHuge, bytes)));
        if (m_arena)
            adviseHugePages(m_arena.get(), bytes);
        m_thread = startHelperThread([this] { produce(); });
    }
}

InflatingStream::Block InflatingStream::newBlock()
{
    Block block;
    if (m_arena && m_arenaUsed < m_arenaBlocks) {
        block.bytes = m_arena.get() + m_blockSize * m_arenaUsed++;
    } else {
        m_extra.emplace_back(new char[m_blockSize]);
        block.bytes = m_extra.back().get();
    }
    return block;
}

InflatingStream::~InflatingStream()
{
    if (!m_thread.joinable())
        return;
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_changed.notify_all();
    m_thread.join();
}

uint64_t InflatingStream::sizeEstimate() const
{
    if (const uint64_t announced = sizeHint())
        return announced;
    // For reserving arrays, not a bound on what is read: an array reserved too small doubles when it fills,
    // costing far more than the reservation saved (254 MB peak against 166 MB with the size announced on the
    // corpus' largest profile, headerless zstd), one reserved too large costs address space only (the
    // prefaulter touches pages only as far as the parse has come). So the format's upper bound comes first.
    if (const uint64_t bound = m_inflater.sizeBound())
        return bound;
    // Otherwise from the progress. A zstd decoder takes its input a block ahead of its output, and the decoder
    // asks after its first 4,096 samples, when only a few blocks are inflated: the plain ratio was 14-32 % low
    // there, so 60 % more is reserved.
    const double consumed = m_progress.load(std::memory_order_acquire);
    const uint64_t inflated = m_inflated.load(std::memory_order_relaxed);
    return consumed > 0 ? uint64_t(1.6 * double(inflated) / consumed) : 0;
}

bool InflatingStream::inflateCurrent()
{
    if (m_done)
        return false;
    if (!m_current.bytes)
        m_current = newBlock();
    m_position = 0;
    try {
        m_current.size = m_inflater.read(m_current.bytes, m_blockSize);
    } catch (...) {
        m_current.size = 0;
        m_error = std::current_exception();
    }
    m_inflated.fetch_add(m_current.size, std::memory_order_relaxed);
    m_progress.store(m_inflater.consumedFraction(), std::memory_order_relaxed);
    m_done = m_current.size == 0;
    return !m_done;
}

void InflatingStream::produce()
{
    try {
        for (;;) {
            Block block;
            {
                std::lock_guard lock(m_mutex);
                if (!m_free.empty()) {
                    block = m_free.back();
                    m_free.pop_back();
                } else {
                    block = newBlock();
                }
            }
            block.size = m_inflater.read(block.bytes, m_blockSize);
            m_inflated.fetch_add(block.size, std::memory_order_relaxed);
            m_progress.store(m_inflater.consumedFraction(), std::memory_order_relaxed);
            if (block.size == 0)
                break;
            std::unique_lock lock(m_mutex);
            m_changed.wait(lock, [&] { return m_stop || m_discard || m_ready.size() < kBlocksAhead; });
            if (m_stop)
                break;
            if (m_discard) {
                m_free.push_back(std::move(block));
                continue;
            }
            m_ready.push_back(std::move(block));
            lock.unlock();
            m_changed.notify_all();
        }
    } catch (...) {
        std::lock_guard lock(m_mutex);
        m_error = std::current_exception();
    }
    tracePhase("inflated");
    {
        std::lock_guard lock(m_mutex);
        m_done = true;
    }
    m_changed.notify_all();
}

bool InflatingStream::fetchCurrent()
{
    if (m_position < m_current.size)
        return true;
    if (!m_thread.joinable())
        return inflateCurrent();
    std::unique_lock lock(m_mutex);
    if (m_current.bytes)
        m_free.push_back(std::move(m_current));
    m_current = Block();
    m_position = 0;
    m_changed.wait(lock, [&] { return !m_ready.empty() || m_done; });
    if (m_ready.empty())
        return false;
    m_current = std::move(m_ready.front());
    m_ready.pop_front();
    lock.unlock();
    m_changed.notify_all();   // room for one more block ahead
    return true;
}

bool InflatingStream::Next(const void **data, int *size)
{
    if (!fetchCurrent())
        return false;
    *data = m_current.bytes + m_position;
    *size = int(m_current.size - m_position);
    m_position = m_current.size;
    m_byteCount += *size;
    return true;
}

void InflatingStream::BackUp(int count)
{
    m_position -= size_t(count);
    m_byteCount -= count;
}

bool InflatingStream::Skip(int count)
{
    while (count > 0) {
        if (!fetchCurrent())
            return false;
        const size_t step = std::min(size_t(count), m_current.size - m_position);
        m_position += step;
        m_byteCount += int64_t(step);
        count -= int(step);
    }
    return true;
}

std::string_view InflatingStream::peek()
{
    if (!fetchCurrent())
        return {};
    return std::string_view(m_current.bytes, m_current.size);
}

std::string InflatingStream::readAll()
{
    std::string all;
    const void *data;
    int size;
    while (Next(&data, &size))
        all.append(static_cast<const char *>(data), size_t(size));
    finish();
    return all;
}

void InflatingStream::finish()
{
    if (!m_thread.joinable()) {
        while (inflateCurrent()) {
        }
        if (m_error)
            std::rethrow_exception(m_error);
        return;
    }
    std::unique_lock lock(m_mutex);
    m_discard = true;
    while (!m_ready.empty()) {
        m_free.push_back(std::move(m_ready.front()));
        m_ready.pop_front();
    }
    m_changed.notify_all();
    m_changed.wait(lock, [&] { return m_done; });
    if (m_error)
        std::rethrow_exception(m_error);
}

}   // namespace qflame
