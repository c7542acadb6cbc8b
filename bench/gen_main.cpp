// qflame-bench-gen: writes one deterministic synthetic gzip pprof profile (see ProfileGenerator.h) and prints
// what it holds, so that bench/run.sh and anyone else can make the same files.
#include "ProfileGenerator.h"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

namespace {

const char kUsage[] =
    "Usage: qflame-bench-gen [--size-mb N | --nodes N] [--seed S] [--program-seed P] [--functions F] OUT.pb.gz\n"
    "  --size-mb N       stop at about N MiB of uncompressed pprof (default 10)\n"
    "  --nodes N         stop instead when the call tree of the default type has N nodes\n"
    "  --seed S          seed of the samples (default 1)\n"
    "  --program-seed P  seed of the program they are drawn from (default 1; same P = same program, for diffs)\n"
    "  --functions F     functions in the program (default: grows with the size)\n";

bool number(const char *text, uint64_t *out)
{
    char *end = nullptr;
    *out = std::strtoull(text, &end, 10);
    return end && *end == '\0' && end != text;
}

}   // namespace

int main(int argc, char **argv)
{
    qflame::bench::GeneratorOptions options;
    std::string out;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        uint64_t v = 0;
        const bool hasValue = i + 1 < argc && number(argv[i + 1], &v);
        if (a == "--help" || a == "-h") {
            fputs(kUsage, stdout);
            return 0;
        } else if (a == "--size-mb" && hasValue) {
            options.targetBytes = v << 20;
        } else if (a == "--nodes" && hasValue) {
            options.targetNodes = v;
        } else if (a == "--seed" && hasValue) {
            options.sampleSeed = v;
        } else if (a == "--program-seed" && hasValue) {
            options.programSeed = v;
        } else if (a == "--functions" && hasValue) {
            options.functions = uint32_t(v);
        } else if (a[0] != '-' && out.empty()) {
            out = a;
            continue;
        } else {
            fputs(kUsage, stderr);
            return 1;
        }
        ++i;
    }
    if (out.empty()) {
        fputs(kUsage, stderr);
        return 1;
    }
    try {
        const auto s = qflame::bench::writeGzipProfile(options, out);
        printf("%s\tbytes=%llu\tsamples=%llu\tlocations=%llu\tfunctions=%llu\ttree_nodes=%llu\tmean_depth=%.1f\t"
               "max_depth=%u\n",
               out.c_str(), (unsigned long long)s.bytes, (unsigned long long)s.samples,
               (unsigned long long)s.locations, (unsigned long long)s.functions,
               (unsigned long long)s.treeNodes, s.meanDepth, s.maxDepth);
    } catch (const std::exception &e) {
        fprintf(stderr, "qflame-bench-gen: %s\n", e.what());
        return 2;
    }
    return 0;
}
