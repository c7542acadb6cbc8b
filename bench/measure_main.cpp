// qflame-bench-measure: runs one command and prints "WALL USER SYS MAXRSS_KB" on standard error, like
// /usr/bin/time -f '%e %U %S %M' but with the wall time to the microsecond rather than in hundredths: the small
// profiles take 20-100 ms, where 10 ms steps decide a ratio. The wall time runs from just before fork to the
// child's end; starting this program itself is outside it. (Not Python: a child forked from a Python process
// reports Python's RSS as its peak, the kernel keeps the high-water mark across exec.)
//
//   qflame-bench-measure LIMIT_S COMMAND...
//
// The command's standard output goes to /dev/null; after LIMIT_S seconds it is killed (SIGKILL). Exits with the
// command's status, 128 + signal when it was killed by one.
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

static pid_t child = 0;

int main(int argc, char **argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: qflame-bench-measure LIMIT_S COMMAND...\n");
        return 2;
    }
    const unsigned limit = unsigned(std::strtoul(argv[1], nullptr, 10));
    const auto start = std::chrono::steady_clock::now();
    child = fork();
    if (child == 0) {
        const int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        execvp(argv[2], argv + 2);
        std::perror(argv[2]);
        _exit(127);
    }
    if (child < 0) {
        std::perror("fork");
        return 2;
    }
    signal(SIGALRM, [](int) { kill(child, SIGKILL); });
    alarm(limit);
    int status = 0;
    rusage usage{};
    while (wait4(child, &status, 0, &usage) < 0) {
    }
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    auto seconds = [](const timeval &t) { return double(t.tv_sec) + double(t.tv_usec) / 1e6; };
    std::fprintf(stderr, "%.6f %.3f %.3f %ld\n", wall, seconds(usage.ru_utime), seconds(usage.ru_stime),
                 usage.ru_maxrss);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
