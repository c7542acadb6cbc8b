#include "io/PhaseTrace.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#if defined(__linux__)
#include <sys/resource.h>
#endif

namespace qflame {

namespace {

using Clock = std::chrono::steady_clock;

int64_t nowNanos()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}

struct Trace {
    bool on = false;
    bool cpu = false;    // QFLAME_TRACE_PHASES=cpu: each line also says what the process has used so far
    int64_t start = 0;   // steady_clock nanoseconds
    Trace()
    {
        const char *flag = std::getenv("QFLAME_TRACE_PHASES");
        on = flag && *flag && std::string(flag) != "0";
        cpu = on && std::string(flag) == "cpu";
        if (!on)
            return;
        // The steady clock is the system's monotonic one, the same in a program started by this one.
        const char *t0 = std::getenv("QFLAME_TRACE_PHASES_T0");
        char *end = nullptr;
        const long long inherited = t0 ? std::strtoll(t0, &end, 10) : 0;
        start = t0 && end && *end == '\0' && inherited > 0 ? inherited : nowNanos();
    }
};

const Trace &trace()
{
    static const Trace t;
    return t;
}

#if defined(__linux__)
double cpuMilliseconds(const rusage &r)
{
    return double(r.ru_utime.tv_sec + r.ru_stime.tv_sec) * 1e3 + double(r.ru_utime.tv_usec + r.ru_stime.tv_usec) / 1e3;
}

// The process's anonymous memory in MiB (/proc/self/smaps_rollup), -1 where it cannot be read.
long anonymousMiB()
{
    FILE *f = std::fopen("/proc/self/smaps_rollup", "r");
    if (!f)
        return -1;
    long kib = -1;
    char line[256];
    while (std::fgets(line, sizeof line, f))
        if (std::sscanf(line, "Anonymous: %ld kB", &kib) == 1)
            break;
    std::fclose(f);
    return kib < 0 ? -1 : kib / 1024;
}
#endif

}   // namespace

void startPhaseTrace(const char *program)
{
    const Trace &t = trace();
    if (!t.on)
        return;
    setenv("QFLAME_TRACE_PHASES_T0", std::to_string(t.start).c_str(), 1);
    tracePhase((std::string(program) + " starts").c_str());
}

void tracePhase(const char *what)
{
    const Trace &t = trace();
    if (!t.on)
        return;
#if defined(__linux__)
    if (t.cpu) {
        // The time first, as without =cpu; then this thread's CPU time, so that the process's, taken after it,
        // includes all of it.
        const double ms = double(nowNanos() - t.start) / 1e6;
        rusage thread{}, process{};
        getrusage(RUSAGE_THREAD, &thread);
        getrusage(RUSAGE_SELF, &process);
        const long anon = anonymousMiB();
        const long faults = long(process.ru_minflt + process.ru_majflt);
        std::fprintf(stderr, "phase %.2f %s | thread %.1f process %.1f anon %ld faults %ld\n", ms, what,
                     cpuMilliseconds(thread), cpuMilliseconds(process), anon, faults);
        return;
    }
#endif
    std::fprintf(stderr, "phase %.2f %s\n", double(nowNanos() - t.start) / 1e6, what);   // one write a line
}

}   // namespace qflame
