// The lines of `perf script` text, cut into fields without copying (formats/PerfScriptFormat.h reads them into
// a profile): a record's header, its frames and their source lines. Only the perf script reader includes it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string_view>

namespace qflame::perfscript {

bool isBlank(char c);
std::string_view trimmed(std::string_view s);

struct Header {
    std::string_view comm;   // empty when not printed
    std::optional<int64_t> pid, tid, period, nanos;
    std::string_view event;
    // -F +tod: "2020-07-13 18:26:55.620971", the record's local time of day (perf prints it where the recording
    // has a clock reference: perf record -k CLOCKID); empty when not printed.
    std::string_view tod;
    std::string_view rest;   // the frame on the header line, when the record has no call graph
};

// comm pid/tid [cpu] [tod] time: period event: [ip sym+off (dso)], with any of comm, pid, cpu, tod, time and period
// left out as `perf script -F` allows. The event is required: it is what tells a header from other text.
bool parseHeader(std::string_view line, Header *h);

struct Frame {
    std::optional<uint64_t> address;
    std::string_view name = "[unknown]";
    std::string_view dso;   // empty: none printed
    bool inlined = false;   // "(inlined)" where the DSO goes, or after its srcline
    std::string_view file;  // from a srcline ("  file.cpp:12"); empty: none
    int64_t line = 0;
};

// "ip sym+0xoff (dso)", each part optional as -F allows. Names may hold spaces and parentheses (demangled C++),
// so the DSO is the parenthesised group that ends the line, and the offset the "+0x..." that ends the name.
Frame parseFrame(std::string_view s);

// perf script -F +srcline's source line below a frame ("  main.cpp:12", "  main.cpp:12 (inlined)", "  ??:0",
// "  [kernel.kallsyms][ffffffff8225f759]") into the frame; false when the line is not one.
bool parseSrcline(std::string_view line, Frame *f);

// fn(line number, line without its end of line, bytes consumed so far) for each line until fn returns false.
template <typename Fn>
void forEachLine(std::string_view text, Fn &&fn)
{
    size_t lineNo = 0, offset = 0;
    while (offset < text.size()) {
        ++lineNo;
        const size_t nl = text.find('\n', offset);
        const size_t end = nl == std::string_view::npos ? text.size() : nl;
        std::string_view line = text.substr(offset, end - offset);
        offset = end + 1;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (!fn(lineNo, line, std::min(offset, text.size())))
            return;
    }
}

bool isBlankLine(std::string_view line);
// "HEX<blank>...": a frame line's instruction pointer (at most 16 hex digits) and something after it.
bool startsWithAddress(std::string_view line);

// A tod field's local time of day in nanoseconds since the Unix epoch, through this machine's time zone (perf
// prints it with localtime: the zone of the machine that ran perf script, usually the recording's); nothing when
// it is not one.
std::optional<int64_t> todEpochNanos(std::string_view tod);

}   // namespace qflame::perfscript
