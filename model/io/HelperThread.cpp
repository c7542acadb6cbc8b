#include "io/HelperThread.h"

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#if defined(__linux__) && defined(__GLIBC__)
#include <pthread.h>
#include <sched.h>
#define QFLAME_PLACE_THREADS 1
#else
#define QFLAME_PLACE_THREADS 0
#endif

namespace qflame {

namespace {

// A parked thread and what it is handed: a body, or nothing (the program ends).
struct Handoff {
    std::mutex mutex;
    std::condition_variable handed;
    bool given = false;
    std::function<void()> body;
#if QFLAME_PLACE_THREADS
    bool widen = false;   // to `allowed`, once it runs where it was moved
    cpu_set_t allowed;
#endif
};

struct Spare {
    std::thread thread;
    std::shared_ptr<Handoff> handoff;
};

class Spares {
public:
    ~Spares()
    {
        for (Spare &s : m_parked) {
            hand(s, {});
            s.thread.join();
        }
    }
    void add(Spare s)
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_parked.push_back(std::move(s));
    }
    std::optional<Spare> take()
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        if (m_parked.empty())
            return std::nullopt;
        Spare s = std::move(m_parked.back());
        m_parked.pop_back();
        return s;
    }
    static void hand(Spare &s, std::function<void()> body)
    {
        {
            const std::lock_guard<std::mutex> lock(s.handoff->mutex);
            s.handoff->body = std::move(body);
            s.handoff->given = true;
        }
        s.handoff->handed.notify_one();
    }

private:
    std::mutex m_mutex;
    std::vector<Spare> m_parked;
};

Spares &spares()
{
    static Spares s;
    return s;
}

void parked(const std::shared_ptr<Handoff> &h)
{
    std::unique_lock<std::mutex> lock(h->mutex);
    h->handed.wait(lock, [&] { return h->given; });
    std::function<void()> body = std::move(h->body);
#if QFLAME_PLACE_THREADS
    if (h->widen)
        pthread_setaffinity_np(pthread_self(), sizeof h->allowed, &h->allowed);
#endif
    lock.unlock();
    if (body)
        body();
}

}   // namespace

void makeSpareHelperThreads(int count)
{
    for (int i = 0; i < count; ++i) {
        auto handoff = std::make_shared<Handoff>();
        spares().add(Spare{std::thread([handoff] { parked(handoff); }), handoff});
    }
}

std::thread startHelperThread(std::function<void()> body)
{
#if QFLAME_PLACE_THREADS
    cpu_set_t allowed;
    CPU_ZERO(&allowed);   // copied below even where it could not be read
    const int here = sched_getcpu();
    const bool placed = here >= 0 && here < CPU_SETSIZE && sched_getaffinity(0, sizeof allowed, &allowed) == 0;
    cpu_set_t others = allowed;
    if (placed)
        CPU_CLR(here, &others);
    if (std::optional<Spare> spare = spares().take()) {
        // Moved while it sleeps, it wakes on another CPU, then widens to the caller's.
        if (placed && CPU_COUNT(&others) != 0 &&
            pthread_setaffinity_np(spare->thread.native_handle(), sizeof others, &others) == 0) {
            const std::lock_guard<std::mutex> lock(spare->handoff->mutex);
            spare->handoff->widen = true;
            spare->handoff->allowed = allowed;
        }
        Spares::hand(*spare, std::move(body));
        return std::move(spare->thread);
    }
    if (!placed || CPU_COUNT(&others) == 0)
        return std::thread(std::move(body));
    // The thread widens its CPUs only after it has been moved: widened first, the move below would narrow it
    // for good. Until moved it usually cannot run at all (it waits behind this thread), so the wait is short.
    auto moved = std::make_shared<std::atomic<bool>>(false);
    std::thread thread([body = std::move(body), allowed, moved] {
        while (!moved->load(std::memory_order_acquire))
            sched_yield();
        pthread_setaffinity_np(pthread_self(), sizeof allowed, &allowed);
        body();
    });
    // Moving a thread that has not run yet puts it on an idle CPU of `others` at once. When this fails, the
    // thread runs where Linux put it, as any std::thread.
    pthread_setaffinity_np(thread.native_handle(), sizeof others, &others);
    moved->store(true, std::memory_order_release);
    return thread;
#else
    if (std::optional<Spare> spare = spares().take()) {
        Spares::hand(*spare, std::move(body));
        return std::move(spare->thread);
    }
    return std::thread(std::move(body));
#endif
}

}   // namespace qflame
