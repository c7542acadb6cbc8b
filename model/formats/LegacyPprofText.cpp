// pprof's legacy text formats (LegacyPprofFormat.h): heap, Go's count profiles, threads and contention, read by
// google/pprof's rules (legacy_profile.go), and the door that tries each legacy kind in pprof's order.
#include "formats/LegacyPprofFormat.h"

#include "formats/LegacyPprofBuilder.h"
#include "formats/LegacyPprofRules.h"

#include <cmath>

namespace qflame {

using namespace legacy;

namespace {

const Regex &heapHeader()
{
    static const Regex re = bytesRegex(
        "heap profile: *(\\d+): *(\\d+) *\\[ *(\\d+): *(\\d+) *\\] *@ *(heap[_a-z0-9]*)/?(\\d*)");
    return re;
}
const Regex &growthOrFragmentationHeader()
{
    static const Regex re = bytesRegex(
        "heap profile: *(\\d+): *(\\d+) *\\[ *(\\d+): *(\\d+) *\\] @ (?:growthz?|fragmentationz?)");
    return re;
}
const Regex &heapSample()
{
    static const Regex re = bytesRegex("(-?\\d+): *(-?\\d+) *\\[ *(\\d+): *(\\d+) *\\] @([ x0-9a-f]*)");
    return re;
}
const Regex &countHeader()
{
    static const Regex re = bytesRegex("\\A([^\\t\\n\\f\\r ]+) profile: total \\d+\\z");
    return re;
}
const Regex &countSample()
{
    static const Regex re = bytesRegex("\\A(\\d+) @((?: 0x[0-9a-f]+)+)\\z");
    return re;
}
const Regex &threadzHeader()
{
    static const Regex re = bytesRegex("--- threadz \\d+ ---");
    return re;
}
const Regex &threadHeader()
{
    static const Regex re = bytesRegex("--- Thread ([[:xdigit:]]+) \\(name: (.*)/(\\d+)\\) stack: ---");
    return re;
}
const Regex &contentionSample()
{
    static const Regex re = bytesRegex("(\\d+) *(\\d+) @([ x0-9a-f]*)");
    return re;
}

std::string quoted(std::string_view line)
{
    std::string out(1, '\'');
    out.append(line.substr(0, 80));
    return out.append(line.size() > 80 ? "...'" : "'");
}

// The addresses of a sample line; a number that does not fit 64 bits is an error.
void addressesOf(Builder &b, const Scanner &s, std::string_view text, std::vector<uint64_t> *out)
{
    if (!hexAddresses(text, out))
        b.fail("line " + std::to_string(s.lineNumber()) + ": an address does not fit 64 bits: " + quoted(s.text()));
}

// A stack of return addresses: each moved back by one onto its call; the leaf too unless `keepLeaf`.
void pushStack(Builder &b, const std::vector<uint64_t> &addresses, bool keepLeaf)
{
    for (size_t i = 0; i < addresses.size(); ++i)
        b.pushLocation(b.location(keepLeaf && i == 0 ? addresses[i] : addresses[i] - 1));
}

// After the samples: skip to the memory map, if there is one, and read it.
void readMemoryMap(Builder &b, Scanner &s)
{
    while (!isMemoryMapSentinel(s.text()) && s.scan()) {
    }
    b.parseMemoryMap(s.rest());
}

std::shared_ptr<const Profile> readHeap(std::string_view bytes, const std::string &sourceName,
                                        const ReadOptions &options, std::string *why)
{
    Scanner s(bytes);
    if (!s.scan())
        return nullptr;
    bool v2 = false, hasAlloc = false;
    int64_t rate = 1;
    const std::string_view first = s.text();
    if (const RegexMatch h = heapHeader().match(first); h.hasMatch()) {
        rate = 0;
        if (!h.captured(6).empty() && !parseGoInt(h.captured(6), 10, &rate)) {
            *why = "the heap profile's sampling rate does not fit 64 bits";
            return nullptr;
        }
        hasAlloc = (h.captured(3) != h.captured(1) && h.captured(3) != "0") ||
                   (h.captured(4) != h.captured(2) && h.captured(4) != "0");
        const std::string_view kind = h.captured(5);
        if (kind == "heapz_v2" || kind == "heap_v2") {
            v2 = true;
        } else if (kind == "heapprofile") {
            rate = 1;
        } else if (kind == "heap") {   // Go's legacy text: the header says twice the rate
            v2 = true;
            rate /= 2;
        } else {
            *why = "a heap profile of an unknown kind '" + std::string(kind) + "'";
            return nullptr;
        }
    } else if (!growthOrFragmentationHeader().match(first).hasMatch()) {
        return nullptr;
    }
    Builder b(sourceName + ": legacy heap profile: ", options, bytes.size());
    b.setPeriod("space", "bytes", rate);
    if (hasAlloc)   // alloc before inuse, so that pprof's default (the last) is inuse_space
        b.setTypes({{"alloc_objects", "count"}, {"alloc_space", "bytes"}, {"inuse_objects", "count"}, {"inuse_space", "bytes"}});
    else
        b.setTypes({{"objects", "count"}, {"space", "bytes"}});
    std::vector<uint64_t> addresses;
    while (s.scan()) {
        const std::string_view line = trimmed(s.text());
        if (isSpaceOrComment(line))
            continue;
        if (isMemoryMapSentinel(line))
            break;
        const RegexMatch m = heapSample().match(line);
        if (!m.hasMatch())
            b.fail("line " + std::to_string(s.lineNumber()) + ": not a sample 'INUSE_COUNT: INUSE_BYTES [ALLOC_COUNT: "
                   "ALLOC_BYTES] @ ADDRESS...': " + quoted(line));
        int64_t values[4] = {}, blockSize = 0;
        size_t n = 0;
        auto add = [&](int countGroup, int sizeGroup, const char *what) {
            int64_t count = 0, size = 0;
            if (!parseGoInt(m.captured(countGroup), 10, &count) ||
                !parseGoInt(m.captured(sizeGroup), 10, &size))
                b.fail("line " + std::to_string(s.lineNumber()) + ": a value does not fit 64 bits: " + quoted(line));
            if (count == 0 && size != 0)
                b.fail("line " + std::to_string(s.lineNumber()) + ": " + what + " count is 0 but " + what +
                       " bytes are " + std::to_string(size));
            if (count != 0) {
                blockSize = size / count;
                if (v2)
                    std::tie(count, size) = unsampledHeap(count, size, rate);
            }
            values[n++] = count;
            values[n++] = size;
        };
        if (hasAlloc)
            add(3, 4, "allocation");
        add(1, 2, "inuse");
        addressesOf(b, s, m.captured(5), &addresses);
        pushStack(b, addresses, false);
        b.endSample(values, true, blockSize);
    }
    readMemoryMap(b, s);
    return b.build(sourceName);
}

// Go's count profiles (goroutine, threadcreate) as `debug=1` writes them.
std::shared_ptr<const Profile> readGoCount(std::string_view bytes, const std::string &sourceName,
                                           const ReadOptions &options, std::string *)
{
    Scanner s(bytes);
    while (s.scan() && isSpaceOrComment(s.text())) {
    }
    const RegexMatch header = countHeader().match(s.text());
    if (!header.hasMatch())
        return nullptr;
    const std::string type = std::string(header.captured(1));
    Builder b(sourceName + ": legacy " + type + " profile: ", options, bytes.size());
    b.setPeriod(type, "count", 1);
    b.setTypes({{type, "count"}});
    std::vector<uint64_t> addresses;
    while (s.scan()) {
        const std::string_view line = s.text();
        if (isSpaceOrComment(line))
            continue;
        if (line.substr(0, 3) == "---")
            break;
        const RegexMatch m = countSample().match(line);
        int64_t count = 0;
        if (!m.hasMatch() || !parseGoInt(m.captured(1), 0, &count))
            b.fail("line " + std::to_string(s.lineNumber()) + ": not a sample 'COUNT @ ADDRESS...': " + quoted(line));
        addressesOf(b, s, m.captured(2), &addresses);
        pushStack(b, addresses, false);
        b.endSample(&count);
    }
    readMemoryMap(b, s);
    return b.build(sourceName);
}

// One thread's stack: the addresses of the lines up to the next "---" line (which is returned), or none when it
// is "same as previous thread".
std::string_view threadStack(Builder &b, Scanner &s, std::vector<uint64_t> *addresses)
{
    addresses->clear();
    std::string_view line;
    bool sameAsPrevious = false;
    std::vector<uint64_t> more;
    while (s.scan()) {
        line = trimmed(s.text());
        if (line.empty())
            continue;
        if (line.substr(0, 3) == "---")
            break;
        if (line.find("same as previous thread") != std::string_view::npos) {
            sameAsPrevious = true;
            continue;
        }
        addressesOf(b, s, line, &more);
        addresses->insert(addresses->end(), more.begin(), more.end());
    }
    if (sameAsPrevious)
        addresses->clear();
    return line;
}

std::shared_ptr<const Profile> readThreads(std::string_view bytes, const std::string &sourceName,
                                           const ReadOptions &options, std::string *why)
{
    Scanner s(bytes);
    while (s.scan() && isSpaceOrComment(s.text())) {
    }
    std::string_view line = s.text();
    if (threadzHeader().match(line).hasMatch()) {
        while (s.scan()) {   // comments up to the first stack
            line = s.text();
            if (isMemoryMapSentinel(line) || line.substr(0, 1) == "-")
                break;
        }
    } else if (!threadHeader().match(line).hasMatch()) {
        return nullptr;
    }
    Builder b(sourceName + ": legacy thread profile: ", options, bytes.size());
    b.setPeriod("thread", "count", 1);
    b.setTypes({{"thread", "count"}});
    std::vector<uint64_t> addresses;
    while (!isMemoryMapSentinel(line)) {
        if (line.substr(0, 23) == "---- no stack trace for")
            break;
        if (!threadHeader().match(line).hasMatch()) {
            // pprof stops here too: a thread profile ends with its memory map or "---- no stack trace for".
            *why = "line " + std::to_string(s.lineNumber()) +
                   ": not a thread header '--- Thread HEX (name: NAME/ID) stack: ---' nor the memory map: " +
                   quoted(line);
            return nullptr;
        }
        line = threadStack(b, s, &addresses);
        if (addresses.empty()) {
            if (b.sampleCount() > 0)
                ++b.value(b.sampleCount() - 1, 0);
            continue;
        }
        pushStack(b, addresses, true);
        const int64_t one = 1;
        b.endSample(&one);
    }
    readMemoryMap(b, s);
    b.removeDuplicateLeaves();
    return b.build(sourceName);
}

std::shared_ptr<const Profile> readContention(std::string_view bytes, const std::string &sourceName,
                                              const ReadOptions &options, std::string *why)
{
    Scanner s(bytes);
    if (!s.scan())
        return nullptr;
    const std::string_view first = s.text();
    if (first.rfind("--- contentionz ", 0) != 0 && first.rfind("--- mutex:", 0) != 0 &&
        first.rfind("--- contention:", 0) != 0)
        return nullptr;
    Builder b(sourceName + ": legacy contention profile: ", options, bytes.size());
    b.setTypes({{"contentions", "count"}, {"delay", "nanoseconds"}});
    int64_t period = 1, cyclesPerSecond = 0;
    while (s.scan()) {   // "name = value" attributes
        const std::string_view line = trimmed(s.text());
        if (isSpaceOrComment(line))
            continue;
        if (line.substr(0, 3) == "---")
            break;
        const size_t eq = line.find('=');
        if (eq == std::string_view::npos)
            break;
        const std::string_view key = trimmed(line.substr(0, eq)), value = trimmed(line.substr(eq + 1));
        int64_t number = 0;
        const bool isNumber = parseGoInt(value, 0, &number);
        if (key == "cycles/second" && isNumber)
            cyclesPerSecond = number;
        else if (key == "sampling period" && isNumber)
            period = number;
        else if (key == "ms since reset" && isNumber)
            b.profile().durationNanos = int64_t(uint64_t(number) * 1000000u);
        else if (key != "discarded samples") {   // "format" and "resolution" are Java's (readJavaText)
            *why = "line " + std::to_string(s.lineNumber()) + ": not a contention profile's attribute: " + quoted(line);
            return nullptr;
        }
    }
    b.setPeriod("contentions", "count", period);
    std::vector<uint64_t> addresses;
    for (;;) {
        const std::string_view line = trimmed(s.text());
        if (line.substr(0, 3) == "---")
            break;
        if (!isSpaceOrComment(line)) {
            const RegexMatch m = contentionSample().match(line);
            if (!m.hasMatch()) {
                *why = "line " + std::to_string(s.lineNumber()) + ": not a sample 'DELAY COUNT @ ADDRESS...': " + quoted(line);
                return nullptr;
            }
            int64_t delay = 0, count = 0;
            if (!parseGoInt(m.captured(1), 10, &delay) || !parseGoInt(m.captured(2), 10, &count))
                b.fail("line " + std::to_string(s.lineNumber()) + ": a value does not fit 64 bits: " + quoted(line));
            if (period > 0) {   // unsampled; delays from cycles to nanoseconds
                if (cyclesPerSecond > 0)
                    delay = goInt64(double(delay) * double(period) / (double(cyclesPerSecond) / 1e9));
                count = int64_t(uint64_t(count) * uint64_t(period));
            }
            addressesOf(b, s, m.captured(3), &addresses);
            pushStack(b, addresses, false);
            const int64_t values[2] = {count, delay};
            b.endSample(values);
        }
        if (!s.scan())
            break;
    }
    readMemoryMap(b, s);
    return b.build(sourceName);
}

using Reader = std::shared_ptr<const Profile> (*)(std::string_view, const std::string &, const ReadOptions &,
                                                  std::string *);

}   // namespace

bool looksLikeLegacyPprof(std::string_view head)
{
    if (hasCpuHeader(head))
        return true;
    Scanner s(head);
    if (!s.scan())
        return false;
    // Each header regex only where the line has its literal part: a pprof message (every other input this is
    // asked about) then compiles none of the five, which was 0.5 ms and 15 page faults of `qflame top`.
    auto has = [](std::string_view line, std::string_view literal) {
        return line.find(literal) != std::string_view::npos;
    };
    const std::string_view first = s.text();
    if (has(first, "heap profile:")) {
        if (heapHeader().matches(first) || growthOrFragmentationHeader().matches(first))
            return true;
    }
    if (first.rfind("--- contentionz ", 0) == 0 || first.rfind("--- mutex:", 0) == 0 ||
        first.rfind("--- contention:", 0) == 0)
        return true;
    const std::string_view java = trimmed(first);
    if (java == "--- heapz 1 ---" || java == "--- contentionz 1 ---")
        return true;
    Scanner t(head);
    while (t.scan() && isSpaceOrComment(t.text())) {
    }
    const std::string_view text = t.text();
    return (has(text, " profile: total ") && countHeader().matches(text)) ||
           (has(text, "--- threadz ") && threadzHeader().matches(text)) ||
           (has(text, "--- Thread ") && threadHeader().matches(text));
}

std::shared_ptr<const Profile> readLegacyPprof(std::string_view bytes, const std::string &sourceName,
                                               const ReadOptions &options)
{
    // pprof's order: the first reader whose header fits and that reads the rest without "unrecognized" wins.
    static const Reader readers[] = {readCpu, readHeap, readGoCount, readThreads, readContention, readJavaText};
    std::string why;
    for (Reader read : readers) {
        std::string reason;
        if (auto p = read(bytes, sourceName, options, &reason)) {
            if (p->sampleTypes.empty() || p->values.size() != p->sampleCount() * p->sampleTypes.size())
                throw ProfileError(sourceName + ": legacy profile: its samples have values but it names no sample types");
            return p;
        }
        if (why.empty())
            why = reason;
    }
    throw ProfileError(sourceName + ": not a legacy pprof profile" + (why.empty() ? std::string() : ": " + why));
}

}   // namespace qflame
