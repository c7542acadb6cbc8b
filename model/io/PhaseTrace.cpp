#include "io/PhaseTrace.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace qflame {

namespace {

using Clock = std::chrono::steady_clock;

int64_t nowNanos()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}

struct Trace {
    bool on = false;
    int64_t start = 0;   // steady_clock nanoseconds
    Trace()
    {
        const char *flag = std::getenv("QFLAME_TRACE_PHASES");
        on = flag && *flag && std::string(flag) != "0";
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
    std::fprintf(stderr, "phase %.2f %s\n", double(nowNanos() - t.start) / 1e6, what);   // one write a line
}

}   // namespace qflame
