// What every reader shares: the limits and progress callback it is given, and the two ways it can fail.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

namespace qflame {

// Every way reading can fail ends in one of these: one line that says what is wrong and where.
class ProfileError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Thrown when a progress callback asked to stop.
class Cancelled : public std::runtime_error {
public:
    Cancelled() : std::runtime_error("cancelled") {}
};

// How function names that arrive mangled (C++ Itanium "_Z...", Rust legacy and v0 "_R...") are shown; names that
// arrive readable are never changed. None keeps every name as the input has it; Full is binutils' c++filt; Templates
// drops parameter lists (and Rust's hashes); Simple also drops template arguments (pprof's default). The front door
// applies it after reading (names/Demangle.h); readers themselves never demangle.
enum class DemangleMode { None, Simple, Templates, Full };

// Called now and then with a fraction in [0, 1]; return false to cancel.
using ProgressFn = std::function<bool(double)>;

struct ReadOptions {
    // Decompressed (or raw) size above which the input is refused: guards against decompression bombs. The
    // largest real profile we know is ~43 MB; 1 GiB leaves ample room. pprof input is never read past 2 GiB,
    // where protobuf's streams stop counting.
    uint64_t maxDecompressedBytes = uint64_t(1) << 30;

    // Memory is bounded by the input whatever its content (docs/robustness.md, "Hostile shapes"): the limits
    // below refuse what no real profile holds, each with a message naming it. None is a command-line option:
    // a real profile has a handful of sample types and comments, samples of a few KB, and needs 1-2.5 bytes
    // of memory per byte of input (the shared corpus, 70 files).
    //
    // pprof: sample types, and comments (each sample holds one value per type).
    uint32_t maxSampleTypes = 1024;
    uint32_t maxComments = 65536;
    // pprof: bytes of one sample, location, function or mapping; libprotobuf turns it into a message whose
    // parts (labels, lines) cost up to 24 times their bytes on the wire. 4 MiB is a stack of a million frames.
    uint32_t maxItemBytes = 4u << 20;
    // Every reader: the memory of what it stores may not exceed this many bytes per byte of input read so far,
    // plus 64 MiB. Tiny items (a 2-byte location costs 48 bytes stored) are what exceeds it.
    uint32_t memoryPerInputByte = 3;
    // JSON readers (flamebearer, speedscope, .cpuprofile, qryn's render answers): arrays and objects nested
    // deeper than this are refused. Their schemas nest 4 deep at most; without a limit a file of '[' alone
    // grows the parser's stack by 8 bytes a byte.
    uint32_t maxJsonDepth = 256;
    ProgressFn progress;
    // None here, so the model and its tests see names exactly as read; the CLI and the window default to Simple.
    DemangleMode demangle = DemangleMode::None;
    // After demangling, every name's template (and Rust generic) argument lists collapsed to "<>", so that frames
    // differing only inside <...> are one (names/TemplateArguments.h; the CLI's --collapse-templates, the
    // window's View > Collapse Template Arguments).
    bool collapseTemplates = false;
    // Files of several profiles (speedscope): the name of the one to read; empty: the file's own choice, else
    // the first.
    std::string profileName;
    // Told, in one line naming the source, what a reader skipped and read on without (folded stacks' comment and
    // invalid lines). The CLI prints it on stderr; the profile keeps it as a comment too, for `qflame info`.
    std::function<void(const std::string &)> warning;
    // Only the samples from timeFrom to timeTo (seconds from the first sample, or RFC 3339 where the file's
    // times are wall-clock times; "" for an open end): the CLI's --from/--to. The front door cuts the profile
    // (time/TimeRange.h); a file without sample times is refused.
    std::string timeFrom, timeTo;
    // false: pprof samples' labels are read and checked, not kept (Profile::labels stays empty), for callers that
    // never look at them: `qflame top` without tag filters, label frames or a time range. They were 18 MB of the
    // 161 MB that `qflame top` held for the corpus' largest profile (a "bytes" label on each of 743,343
    // samples), memory that this project's VM makes costly to touch. A file whose labels are bad is read again
    // keeping them (SampleLabelsNeeded), so that its error is the one every other reader reports.
    bool sampleLabels = true;
};

// Thrown by the pprof decoder, when it drops labels (ReadOptions::sampleLabels false) and one of them is bad, to
// whoever can read the input again with sampleLabels set. Not a ProfileError: no reader may report it.
struct SampleLabelsNeeded {};

// What a reader may hold for an input of `inputBytes`: memoryPerInputByte per byte, plus 64 MiB.
inline uint64_t memoryBudget(const ReadOptions &options, uint64_t inputBytes)
{
    return uint64_t(options.memoryPerInputByte) * inputBytes + (uint64_t(64) << 20);
}

// The refusal of the readers of name stacks (and of JSON) when they pass memoryBudget(); `where` is "SOURCE: FORMAT: ".
inline std::string stackMemoryRefusal(const std::string &where, const ReadOptions &options, uint64_t budget)
{
    return where + "the profile takes more than " + std::to_string(budget) +
           " bytes in memory, more than the limit per byte of input (memoryPerInputByte " +
           std::to_string(options.memoryPerInputByte) +
           ", +64 MiB): no real profile has so many or so deep stacks, names or records";
}

}   // namespace qflame
