// The C++ program the perf script and demangling tests build with g++ -O1 -fno-omit-frame-pointer: functions
// at the top level, in a namespace, a const member and a template with two instantiations, each busy long
// enough for perf record -F 999 to sample it.
#pragma once

#include <QDir>
#include <QFile>
#include <QString>

namespace qflame::test {

inline constexpr const char *kPerfProgram = R"(#include <cstdio>
#include <vector>
namespace work {
template <typename T> __attribute__((noinline)) T accumulate(const std::vector<T> &v, int rounds) {
    T s = 0;
    for (int r = 0; r < rounds; ++r) for (const T &x : v) s = s * 3 + x;
    return s;
}
struct Mixer {
    __attribute__((noinline)) long mix(long a, int n) const {
        for (int i = 0; i < n; ++i) a = a * 6364136223846793005L + 1442695040888963407L;
        return a;
    }
};
}
__attribute__((noinline)) long leaf(long x) { for (int i = 0; i < 2000; ++i) x ^= x << 7, x ^= x >> 9; return x; }
__attribute__((noinline)) long middle(long x) { return leaf(x) + work::Mixer().mix(x, 3000); }
int main(int argc, char **) {
    std::vector<long> vi(1000, argc); std::vector<double> vd(1000, 0.5);
    long t = 0; double d = 0;
    for (int k = 0; k < 20000; ++k) {   // k in every call: gcc would hoist a pure call out of the loop
        t += middle(k); t += work::accumulate(vi, 2 + (k & 1)); d += work::accumulate(vd, 1 + (k & 1));
    }
    std::printf("%ld %f\n", t, d);
}
)";

// For perf's inline stacks: built with g++ -O2 -g, `inner` and `outer` exist only inlined into `work` (always_inline),
// so `perf record --call-graph dwarf` then `perf script --inline` prints them as "(inlined)" frames of work's
// addresses. main calls work through a volatile pointer, so that work stays a real function called from main.
inline constexpr const char *kPerfInlineProgram = R"(#include <cstdio>
__attribute__((always_inline)) static inline long inner(long x) {
    for (int i = 0; i < 2000; ++i) x ^= x << 7, x ^= x >> 9;
    return x;
}
__attribute__((always_inline)) static inline long outer(long x) { return inner(x) * 3 + inner(x + 1); }
__attribute__((noinline)) long work(long x) { return outer(x) + 1; }
long (*volatile call)(long) = work;
int main(int argc, char **) {
    long t = 0;
    for (int k = 0; k < 40000; ++k) t += call(k + argc);
    std::printf("%ld\n", t);
}
)";

// Writes kPerfProgram to DIR/prog.cpp; false when it cannot.
inline bool writePerfProgram(const QString &dir)
{
    QFile src(QDir(dir).filePath(QStringLiteral("prog.cpp")));
    return src.open(QIODevice::WriteOnly) && src.write(kPerfProgram) > 0;
}

}   // namespace qflame::test
