// qflame-bench-parse-floor FILE: what reading a pprof file costs with nothing but the protobuf library, as a
// reference beside `qflame top` and zcat in bench/run.sh. The file is inflated by zlib (or read raw), then
// parsed into the generated Profile message, whose counts are printed; the process then ends without freeing
// the message, as qflame's verbs do. No call tree, no table, no output of note: any reader built on the
// library's message parser pays at least this. (Until 2026-12-05 the library's GzipInputStream streamed zlib's
// output into the parse; it is not in the lite runtime, which profile.proto is now compiled for: the same work,
// with the inflated bytes held whole.)
#include "profile.pb.h"

#include <zlib.h>

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
    unsigned char magic[2] = {0, 0};
    if (fd < 0 || pread(fd, magic, 2, 0) < 0) {
        std::perror(argv[1]);
        return 1;
    }
    std::string bytes;
    char buffer[1 << 16];
    for (ssize_t n; (n = read(fd, buffer, sizeof buffer)) > 0;)
        bytes.append(buffer, size_t(n));
    if (magic[0] == 0x1f && magic[1] == 0x8b) {
        z_stream z{};
        std::string inflated;
        if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
            return 1;
        z.next_in = reinterpret_cast<Bytef *>(bytes.data());
        z.avail_in = uInt(bytes.size());
        int rc = Z_OK;
        while (rc == Z_OK) {
            z.next_out = reinterpret_cast<Bytef *>(buffer);
            z.avail_out = sizeof buffer;
            rc = inflate(&z, Z_NO_FLUSH);
            inflated.append(buffer, sizeof buffer - z.avail_out);
            if (rc == Z_STREAM_END && z.avail_in > 0) {   // another gzip member
                inflateReset(&z);
                rc = Z_OK;
            }
        }
        inflateEnd(&z);
        if (rc != Z_STREAM_END) {
            std::fprintf(stderr, "%s: damaged gzip data\n", argv[1]);
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
