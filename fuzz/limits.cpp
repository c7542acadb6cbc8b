// Limits that must hold with hostile numbers, run under ASan + UBSan as a ctest of the fuzz build: a 100,000-deep
// stack (builds, without recursion), sums that overflow int64 (wrap as in go tool pprof, no UB), a decompression
// bomb (refused at the cap), and protobuf lengths and indexes far beyond the input (refused, nothing allocated
// for them). Each check prints one line; any failure makes the exit status 1.
#include "export/ProfileWriter.h"
#include "formats/FlamebearerFormat.h"
#include "formats/FoldedFormat.h"
#include "formats/ProfileInput.h"
#include "tree/CallTreeBuilder.h"
#include "tree/FlatTable.h"

#include <chrono>
#include <cstdio>
#include <limits>
#include <string>

using namespace qflame;

namespace {

int failures = 0;

void check(bool ok, const std::string &what)
{
    std::printf("%s %s\n", ok ? "ok  " : "FAIL", what.c_str());
    failures += ok ? 0 : 1;
}

// The error of reading `bytes` as pprof, or "" when it read.
std::string pprofError(const std::string &bytes, const ReadOptions &options = {})
{
    try {
        readPprof(bytes, "hostile", options);
        return {};
    } catch (const ProfileError &e) {
        return e.what();
    }
}

bool oneLine(const std::string &m) { return !m.empty() && m.find('\n') == std::string::npos; }

std::string varint(uint64_t v)
{
    std::string s;
    for (; v >= 0x80; v >>= 7)
        s += char(0x80 | (v & 0x7f));
    return s + char(v);
}

void deepStack()
{
    constexpr int kDepth = 100000;
    std::string line;
    for (int i = 0; i < kDepth; ++i)
        line += (i ? ";f" : "f") + std::to_string(i);
    line += " 3\n";
    const auto start = std::chrono::steady_clock::now();
    auto folded = readFolded(line, "deep");
    // The same stack as pprof, through the protobuf reader too.
    auto profile = readPprof(encodePprof(*folded), "deep.pb");
    auto tree = CallTreeBuilder::build({profile}, 0);
    auto flat = FlatTable::compute(tree);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    check(tree->maxDepth() == kDepth && tree->size() == kDepth + 1 && tree->total(CallTree::kRoot) == 3,
          "100,000-deep stack builds: " + std::to_string(tree->size()) + " nodes, depth " +
              std::to_string(tree->maxDepth()) + ", " + std::to_string(secs) + " s");
    check(flat->rows().size() == kDepth && flat->rows().front().cum == 3, "its flat table: one row per frame");
}

void overflowingSums()
{
    const int64_t max = std::numeric_limits<int64_t>::max();
    const std::string text = "a;b " + std::to_string(max) + "\na;c " + std::to_string(max) + "\n";
    auto tree = CallTreeBuilder::build({readFolded(text, "ovf")}, 0);
    // Go: int64(MaxInt64) + MaxInt64 == -2.
    check(tree->total(CallTree::kRoot) == -2, "int64 overflow of totals wraps as in Go (regression: UBSan report)");
    auto flat = FlatTable::compute(tree);
    check(flat->total() == -2, "and the flat table's total too");
}

void decompressionBomb()
{
    const std::string bomb = gzipCompress(std::string(size_t(16) << 20, '\0'));   // 16 MiB of zeros, ~16 KB
    ReadOptions options;
    options.maxDecompressedBytes = uint64_t(1) << 20;
    const std::string m = pprofError(bomb, options);
    check(oneLine(m) && m.find("size limit") != std::string::npos,
          "gzip bomb (" + std::to_string(bomb.size()) + " bytes -> 16 MiB) refused at a 1 MiB cap: " + m);
    check(ReadOptions{}.maxDecompressedBytes == uint64_t(1) << 30, "default cap is 1 GiB");
}

void hostileLengths()
{
    // string_table (field 6) declaring a 2^62-byte string, followed by 3 bytes.
    std::string m = pprofError("\x32" + varint(uint64_t(1) << 62) + "abc");
    check(oneLine(m), "string of declared length 2^62: " + m);
    // A sample (field 2) whose packed location_id list declares 2^31 bytes.
    const std::string sample = "\x0a" + varint(uint64_t(1) << 31) + "\x01\x02";
    m = pprofError("\x12" + varint(sample.size()) + sample);
    check(oneLine(m), "sample with a packed list of declared length 2^31: " + m);
    // A sample pointing at location 2^63 that does not exist.
    // (string_table = {""}, so validation gets past "no string table" to the index itself.)
    const std::string strings = std::string("\x32\x00", 2);
    const std::string id = varint(uint64_t(1) << 63);
    const std::string s2 = "\x0a" + varint(id.size()) + id + "\x10\x01";
    // A sample type "x"/"x" (strings 1/1), so the sample itself is what gets checked.
    const std::string typed = strings + std::string("\x32\x01x\x0a\x04\x08\x01\x10\x01", 9);
    m = pprofError(typed + "\x12" + varint(s2.size()) + s2);
    check(oneLine(m) && m.find("location") != std::string::npos, "sample naming location 2^63: " + m);
    // A string index of 2^40 for the sample type.
    const std::string vt = "\x08" + varint(uint64_t(1) << 40);
    m = pprofError(strings + "\x0a" + varint(vt.size()) + vt);
    check(oneLine(m) && m.find("no string table") == std::string::npos, "sample type naming string 2^40: " + m);
    // Flamebearer: a name index of 2^40 and a total of INT64_MAX.
    try {
        readFlamebearer(R"({"flamebearer":{"names":["total"],"levels":[[0,9223372036854775807,0,0],)"
                        R"([0,9223372036854775807,9223372036854775807,1099511627776]],"numTicks":1,"maxSelf":1}})",
                        "hostile.json");
        check(false, "flamebearer with name index 2^40 was accepted");
    } catch (const ProfileError &e) {
        check(oneLine(e.what()), std::string("flamebearer name index 2^40: ") + e.what());
    }
}

}   // namespace

int main()
{
    deepStack();
    overflowingSums();
    decompressionBomb();
    hostileLengths();
    std::printf("limits: %s (%d failures)\n", failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0;
}
