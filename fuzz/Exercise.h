// What every fuzz target and the corruption test do with one input: read it the way the app does and, when it
// reads, build what the window would show from it. Shared so the fuzzers and the corruption test cannot drift.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace qflame {
class CallTree;
class FlatTable;
}

namespace qflame::fuzz {

enum class Outcome { Tree, ProfileError, FilterError };

// Which reader gets the bytes: readProfile (sniffs the format, as every CLI verb and the window do) or one
// format's reader alone, so each fuzzer spends its time in one parser.
enum class Reader { Any, Pprof, Folded, Flamebearer, PerfScript, Speedscope, ChromeCpuProfile, LegacyPprof };

// Limits for hostile inputs: a 1 GiB decompression cap (the app's default) would let one fuzz input spend
// seconds inflating, so fuzzing and the corruption test read with a smaller cap; the cap itself is tested.
constexpr uint64_t kMaxDecompressed = uint64_t(64) << 20;

// The reader (by default readProfile: pprof gzip/zstd/raw, folded, flamebearer), then a call tree of every sample type (at most 4)
// and its flat table, checking the tree's invariants. Returns how it ended; `message` gets the error's text.
// Anything else (another exception, a broken invariant) aborts, so the fuzzer and the test both see it.
Outcome exerciseProfile(std::string_view bytes, std::string *message = nullptr, Reader reader = Reader::Any);

// The tree checks alone, for targets that build trees another way (the qryn decoders). Aborts when broken.
void checkTree(const CallTree &tree, const FlatTable &flat);

}   // namespace qflame::fuzz
