// pprof's legacy formats, the ones before profile.proto that `go tool pprof` still reads (google/pprof's profile
// package, legacy_profile.go and legacy_java_profile.go), read into the same profile it makes of them:
//
//     heap profile:   3:  8498176 [   144:  8498176] @ heap_v2/524288     <- gperftools' heap profile (also
//          1:  8388608 [     1:  8388608] @ 0x4007d0 0x400800              "@ heapprofile", "@ growthz",
//                                                                           "@ fragmentationz"; Go's "@ heap/RATE")
//     goroutine profile: total 5                                          <- Go's count profiles (goroutine,
//     5 @ 0x4007d0 0x400800                                                  threadcreate), debug=1
//     --- contention:  /  --- mutex:  /  --- contentionz                  <- contention (attributes, then
//     cycles/second=2000000000                                               "DELAY COUNT @ addresses" lines)
//     --- threadz 2 ---  /  --- Thread 7f12 (name: main/123) stack: ---   <- thread stacks
//     binary words 0, 3, 0|1, PERIOD_US, 0, then COUNT DEPTH PC...        <- gperftools' CPU profile (libprofiler),
//                                                                           32 or 64 bit words, either byte order;
//                                                                           1 in the third word: Java's
//     --- heapz 1 ---  /  --- contentionz 1 ---                           <- Java's, with a table of frame names
//
// Text and binary samples may be followed by a memory map ("--- Memory map: ---" or "MAPPED_LIBRARIES:", then
// /proc/PID/maps lines), which names each address's binary. The values are pprof's: heap samples unsampled by the
// rate in the header (the Poisson correction, scaled by 1/(1-exp(-size/rate))), "heap/RATE" meaning half that
// rate, contention delays turned from cycles to nanoseconds by the cycles/second attribute, CPU counts times the
// period; the return addresses of callers moved back by one onto the call; the signal handler's frame that most
// CPU samples share taken out; and each address in its binary's mapping, or in one mapping of everything without
// a file. Frames stay addresses (pprof shows them as `[binary]` or `<unknown>` without symbolization), except the
// Java ones, which the file names.
#pragma once

#include "io/ReadOptions.h"
#include "pprof/Profile.h"

#include <memory>
#include <string>
#include <string_view>

namespace qflame {

// Whether the first bytes are one of the legacy formats: the binary CPU profile's header, or the first line of
// one of the text kinds (strict: the header line pprof looks for, never a line that merely contains "@").
bool looksLikeLegacyPprof(std::string_view head);

// Reads any of them. Throws ProfileError naming the kind and the line of the first malformed sample, and when
// the profile would take more memory than options.memoryPerInputByte allows.
std::shared_ptr<const Profile> readLegacyPprof(std::string_view bytes, const std::string &sourceName,
                                               const ReadOptions &options = {});

namespace legacy {
// The binary CPU profiles (C++ and Java): null when the header is not theirs; `why` says what else is wrong.
std::shared_ptr<const Profile> readCpu(std::string_view bytes, const std::string &sourceName,
                                       const ReadOptions &options, std::string *why);
bool hasCpuHeader(std::string_view bytes);
// Java's text profiles (heapz, contentionz): null when the header is not theirs.
std::shared_ptr<const Profile> readJavaText(std::string_view bytes, const std::string &sourceName,
                                            const ReadOptions &options, std::string *why);
}   // namespace legacy

}   // namespace qflame
