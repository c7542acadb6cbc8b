// qflame-bench-parse-floor FILE: what reading a pprof file costs with nothing but the protobuf library, as a
// reference beside `qflame top` and zcat in bench/run.sh. The file is inflated by zlib (through the model's
// Inflater, which handles every gzip member; or read raw), then
// parsed into the generated Profile message, whose counts are printed; the process then ends without freeing
// the message, as qflame's verbs do. No call tree, no table, no output of note: any reader built on the
// library's message parser pays at least this. (Until 2026-12-05 the library's GzipInputStream streamed zlib's
// output into the parse; it is not in the lite runtime, which profile.proto is now compiled for: the same work,
// with the inflated bytes held whole.)
#include "io/Compression.h"
#include "io/Inflater.h"
#include "profile.pb.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include <fcntl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: qflame-bench-parse-floor FILE (gzip-compressed or raw pprof)\n");
        return 1;
    }
    const int fd = open(argv[1], O_RDONLY);
    if (fd < 0) {
        std::perror(argv[1]);
        return 1;
    }
    std::string bytes;
    char buffer[1 << 16];
    for (ssize_t n; (n = read(fd, buffer, sizeof buffer)) > 0;)
        bytes.append(buffer, size_t(n));
    if (qflame::sniffCompression(bytes) == qflame::Compression::Gzip) {
        std::string inflated;
        try {
            qflame::Inflater inflater(bytes, qflame::Compression::Gzip, UINT32_MAX, qflame::GzipLibrary::Zlib);
            for (size_t n; (n = inflater.read(buffer, sizeof buffer)) > 0;)
                inflated.append(buffer, n);
        } catch (const std::exception &e) {
            std::fprintf(stderr, "%s: %s\n", argv[1], e.what());
            return 2;
        }
        bytes.swap(inflated);
    }
    auto *profile = new perftools::profiles::Profile;   // never freed: the process's end does that
    if (!profile->ParseFromString(bytes)) {
        std::fprintf(stderr, "%s: not a pprof profile\n", argv[1]);
        return 2;
    }
    std::printf("%d samples, %d locations, %d functions, %d strings\n", profile->sample_size(),
                profile->location_size(), profile->function_size(), profile->string_table_size());
    std::fflush(stdout);
    std::_Exit(0);
}
