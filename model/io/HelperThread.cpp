#include "io/HelperThread.h"

#include <atomic>
#include <memory>

#if defined(__linux__) && defined(__GLIBC__)
#include <pthread.h>
#include <sched.h>
#define QFLAME_PLACE_THREADS 1
#else
#define QFLAME_PLACE_THREADS 0
#endif

namespace qflame {

std::thread startHelperThread(std::function<void()> body)
{
#if QFLAME_PLACE_THREADS
    cpu_set_t allowed;
    const int here = sched_getcpu();
    if (here < 0 || here >= CPU_SETSIZE || sched_getaffinity(0, sizeof allowed, &allowed) != 0)
        return std::thread(std::move(body));
    cpu_set_t others = allowed;
    CPU_CLR(here, &others);
    if (CPU_COUNT(&others) == 0)
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
    return std::thread(std::move(body));
#endif
}

}   // namespace qflame
