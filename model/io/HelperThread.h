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
// one: one of the spare threads, while there is one, or a new one. Throws std::system_error as std::thread does.
std::thread startHelperThread(std::function<void()> body);

// Makes `count` threads now, parked until startHelperThread hands each a body (those never handed one end with
// the program). glibc makes a new thread's TLS under a lock that loading a library (dlopen) holds: the window
// loads its module for 20-30 ms while the profile is read, and the reading helpers started meanwhile (the
// inflating thread, the prefaulter) waited for the load, one CPU idle (22 ms of r64's first paint, perf sched).
void makeSpareHelperThreads(int count);

}   // namespace qflame
