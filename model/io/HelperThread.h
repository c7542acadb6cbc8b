// Starting a helper thread where it can run at once. On the 2-core VM this project is measured on, Linux put a
// new thread on its creator's CPU and ran it only when the creator blocked or its time slice ended: a helper
// started beside a busy thread began 0.7-3 ms late, while the other CPU idled (qflame-bench-thread-start
// measures it, docs/benchmarks.md). Moved to another CPU before it first runs, it begins within 0.1 ms; then it
// may run on every CPU its creator may.
#pragma once

#include <functional>
#include <thread>

namespace qflame {

// A std::thread running `body`, placed first on a CPU other than the caller's when the caller may use another
// one. Throws std::system_error as std::thread does.
std::thread startHelperThread(std::function<void()> body);

}   // namespace qflame
