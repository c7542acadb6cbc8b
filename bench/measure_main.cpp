// qflame-bench-measure: runs one command and prints "WALL USER SYS MAXRSS_KB" on standard error, like
// /usr/bin/time -f '%e %U %S %M' but with the wall time to the microsecond rather than in hundredths: the small
// profiles take 20-100 ms, where 10 ms steps decide a ratio. The wall time runs from just before fork to the
// child's end; starting this program itself is outside it. (Not Python: a child forked from a Python process
// reports Python's RSS as its peak, the kernel keeps the high-water mark across exec.)
//
//   qflame-bench-measure [--line PREFIX] LIMIT_S COMMAND...
//
// The command's standard output goes to /dev/null; after LIMIT_S seconds it is killed (SIGKILL). Exits with the
// command's status, 128 + signal when it was killed by one.
//
// With --line, the command's standard output is read instead and copied to this program's, and a fifth figure
// follows: the seconds from the same point before fork to the end of the first line that starts with PREFIX (-1
// when none came). The window's first paint is timed so ("first paint:"): on the clock `qflame top` is timed on.
// The figure the window prints itself counts from its start time in /proc, which the kernel keeps in 10 ms ticks,
// rounded down: 0-10 ms more than the time that passed.
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

static pid_t child = 0;

namespace {

using Clock = std::chrono::steady_clock;

// Copies `fd` to standard output until its end; the time the first line starting with `prefix` ended, if any.
double timeOfLine(int fd, const std::string &prefix, Clock::time_point start)
{
    double at = -1;
    std::string line;
    char buffer[4096];
    for (;;) {
        const ssize_t n = read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return at;
        const auto now = Clock::now();
        std::fwrite(buffer, 1, size_t(n), stdout);
        for (ssize_t k = 0; k < n && at < 0; ++k) {
            if (buffer[k] != '\n') {
                line += buffer[k];
                continue;
            }
            if (line.compare(0, prefix.size(), prefix) == 0)
                at = std::chrono::duration<double>(now - start).count();
            line.clear();
        }
    }
}

}   // namespace

int main(int argc, char **argv)
{
    const char *linePrefix = nullptr;
    int first = 1;
    if (argc > 2 && std::strcmp(argv[1], "--line") == 0) {
        linePrefix = argv[2];
        first = 3;
    }
    if (argc < first + 2) {
        std::fprintf(stderr, "usage: qflame-bench-measure [--line PREFIX] LIMIT_S COMMAND...\n");
        return 2;
    }
    const unsigned limit = unsigned(std::strtoul(argv[first], nullptr, 10));
    int out[2] = {-1, -1};
    if (linePrefix && pipe(out) != 0) {
        std::perror("pipe");
        return 2;
    }
    const auto start = Clock::now();
    child = fork();
    if (child == 0) {
        const int to = linePrefix ? out[1] : open("/dev/null", O_WRONLY);
        dup2(to, 1);
        if (linePrefix) {
            close(out[0]);
            close(out[1]);
        }
        execvp(argv[first + 1], argv + first + 1);
        std::perror(argv[first + 1]);
        _exit(127);
    }
    if (child < 0) {
        std::perror("fork");
        return 2;
    }
    signal(SIGALRM, [](int) { kill(child, SIGKILL); });
    alarm(limit);
    double lineAt = -1;
    if (linePrefix) {
        close(out[1]);
        lineAt = timeOfLine(out[0], linePrefix, start);   // until the child's output ends
        close(out[0]);
    }
    int status = 0;
    rusage usage{};
    while (wait4(child, &status, 0, &usage) < 0) {
    }
    const double wall = std::chrono::duration<double>(Clock::now() - start).count();
    auto seconds = [](const timeval &t) { return double(t.tv_sec) + double(t.tv_usec) / 1e6; };
    std::fflush(stdout);
    if (linePrefix)
        std::fprintf(stderr, "%.6f %.3f %.3f %ld %.6f\n", wall, seconds(usage.ru_utime), seconds(usage.ru_stime),
                     usage.ru_maxrss, lineAt);
    else
        std::fprintf(stderr, "%.6f %.3f %.3f %ld\n", wall, seconds(usage.ru_utime), seconds(usage.ru_stime),
                     usage.ru_maxrss);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
