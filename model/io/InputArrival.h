// How much of an input has arrived. A compressed file is inflated on its own thread while the thread that opened
// it is still reading the rest (io/InputFile.h): on this project's VM reading the 10 MB of the largest corpus
// profile took 3-5 ms, and making room for it 1-15 ms more, before the first byte could be inflated (issue #31).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>

namespace qflame {

class InputArrival {
public:
    explicit InputArrival(size_t arrived) : m_arrived(arrived) {}

    // The reader's side: `bytes` in all so far; then the end, with the bytes there are in all (fewer than the
    // file announced when it shrank or could not be read on).
    void arrived(size_t bytes)
    {
        {
            std::lock_guard lock(m_mutex);
            m_arrived = bytes;
        }
        m_changed.notify_all();
    }
    void end(size_t bytes)
    {
        {
            std::lock_guard lock(m_mutex);
            m_arrived = bytes;
            m_complete = true;
        }
        m_changed.notify_all();
    }

    struct State {
        size_t arrived;
        bool complete;
    };
    // Without waiting.
    State now() const
    {
        std::lock_guard lock(m_mutex);
        return {m_arrived, m_complete};
    }
    // Waits until more than `have` bytes have arrived or no more will.
    State moreThan(size_t have) const
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return m_arrived > have || m_complete; });
        return {m_arrived, m_complete};
    }
    // Waits until every byte has arrived; returns how many there are.
    size_t all() const
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return m_complete; });
        return m_arrived;
    }

private:
    mutable std::mutex m_mutex;
    mutable std::condition_variable m_changed;
    size_t m_arrived;
    bool m_complete = false;
};

}   // namespace qflame
