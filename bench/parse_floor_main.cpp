// qflame-bench-parse-floor FILE: what reading a pprof file costs with nothing but the protobuf library, as a
// reference beside `qflame top` and zcat in bench/run.sh. The file is inflated through the library's own
// GzipInputStream (or read raw) straight into the generated Profile message, whose counts are printed; the
// process then ends without freeing the message, as qflame's verbs do. No call tree, no table, no output of
// note: any reader built on the library's message parser pays at least this.
#include "profile.pb.h"

#include <google/protobuf/io/gzip_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>

#include <cstdio>
#include <cstdlib>

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
    google::protobuf::io::FileInputStream file(fd);
    google::protobuf::io::GzipInputStream gzip(&file);
    const bool gzipped = magic[0] == 0x1f && magic[1] == 0x8b;
    auto *profile = new perftools::profiles::Profile;   // never freed: the process's end does that
    if (!profile->ParseFromZeroCopyStream(gzipped ? static_cast<google::protobuf::io::ZeroCopyInputStream *>(&gzip)
                                                  : &file)) {
        std::fprintf(stderr, "%s: not a pprof profile\n", argv[1]);
        return 2;
    }
    std::printf("%d samples, %d locations, %d functions, %d strings\n", profile->sample_size(),
                profile->location_size(), profile->function_size(), profile->string_table_size());
    std::fflush(stdout);
    std::_Exit(0);
}
