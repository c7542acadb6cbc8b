// The lines of perf script text cut into fields (formats/PerfScriptLines.h).
#include "formats/PerfScriptLines.h"

#include <charconv>
#include <ctime>
#include <vector>

namespace qflame::perfscript {

// Whitespace-separated tokens of a line with where each starts, for the header (comm may hold spaces, so it is
// cut from the line by position, not joined from tokens).
struct Token {
    std::string_view text;
    size_t begin;
};

bool isBlank(char c)
{
    return c == ' ' || c == '\t';
}

static bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

static bool isHex(char c)
{
    return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && isBlank(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isBlank(s.back()))
        s.remove_suffix(1);
    return s;
}

static bool allOf(std::string_view s, bool (*pred)(char))
{
    if (s.empty())
        return false;
    for (char c : s)
        if (!pred(c))
            return false;
    return true;
}

static std::optional<int64_t> decimal(std::string_view s)
{
    int64_t v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || !allOf(s, isDigit))
        return std::nullopt;
    return v;
}

static std::optional<uint64_t> hexNumber(std::string_view s)
{
    uint64_t v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 16);
    if (ec != std::errc() || end != s.data() + s.size() || !allOf(s, isHex))
        return std::nullopt;
    return v;
}


static std::vector<Token> tokens(std::string_view line, size_t max)
{
    std::vector<Token> out;
    size_t i = 0;
    while (i < line.size() && out.size() < max) {
        while (i < line.size() && isBlank(line[i]))
            ++i;
        const size_t b = i;
        while (i < line.size() && !isBlank(line[i]))
            ++i;
        if (i > b)
            out.push_back({line.substr(b, i - b), b});
    }
    return out;
}

// "1234" or "1234/1235": pid/tid, or a lone thread id.
static bool parseIds(std::string_view t, std::optional<int64_t> *pid, std::optional<int64_t> *tid)
{
    const size_t slash = t.find('/');
    if (slash == std::string_view::npos) {
        *tid = decimal(t);
        return tid->has_value();
    }
    *pid = decimal(t.substr(0, slash));
    *tid = decimal(t.substr(slash + 1));
    return pid->has_value() && tid->has_value();
}

// "13144.649758:" (perf's time field, with --ns nine decimals).
static bool isTime(std::string_view t)
{
    if (t.size() < 2 || t.back() != ':')
        return false;
    t.remove_suffix(1);
    const size_t dot = t.find('.');
    return allOf(t.substr(0, dot), isDigit) && (dot == std::string_view::npos || allOf(t.substr(dot + 1), isDigit));
}

// seconds * 10^9 + fraction's first nine digits, or nothing where that leaves int64 (seconds past 2262 since
// 1970, or before 1678): such a time is no time, and the record goes untimed.
static std::optional<int64_t> nanosOf(int64_t seconds, std::string_view fraction)
{
    int64_t nanos = 0;
    for (size_t k = 0; k < 9; ++k)
        nanos = nanos * 10 + (k < fraction.size() ? fraction[k] - '0' : 0);
    int64_t whole = 0;
    if (__builtin_mul_overflow(seconds, int64_t(1000000000), &whole) || __builtin_add_overflow(whole, nanos, &whole))
        return std::nullopt;
    return whole;
}

// The time field in nanoseconds: "13144.649758:" -> 13144649758000.
static std::optional<int64_t> timeNanos(std::string_view t)
{
    t.remove_suffix(1);
    const size_t dot = t.find('.');
    const std::string_view whole = t.substr(0, dot), fraction = dot == t.npos ? t.substr(t.size()) : t.substr(dot + 1);
    if (whole.size() > 10 || fraction.size() > 9)
        return std::nullopt;
    int64_t seconds = 0;
    for (char c : whole)
        seconds = seconds * 10 + (c - '0');
    return nanosOf(seconds, fraction);
}

static bool isModifier(char c)
{
    return std::string_view("ukhIGHpPSDWeb").find(c) != std::string_view::npos;
}

// "cpu-clock:ppp:" -> "cpu-clock", "cycles:u:" -> "cycles"; "sched:sched_switch:" keeps its subsystem, since
// "sched_switch" is not made of modifier letters.
static std::string_view eventName(std::string_view t)
{
    t.remove_suffix(1);
    const size_t colon = t.rfind(':');
    if (colon != std::string_view::npos && colon > 0 && allOf(t.substr(colon + 1), isModifier))
        t = t.substr(0, colon);
    return t;
}


// "2020-07-13": the date of perf's tod field.
static bool isDate(std::string_view t)
{
    return t.size() == 10 && t[4] == '-' && t[7] == '-' && allOf(t.substr(0, 4), isDigit) &&
           allOf(t.substr(5, 2), isDigit) && allOf(t.substr(8, 2), isDigit);
}

// "18:26:55.620971" (with --ns nine decimals): the time of day of perf's tod field.
static bool isClock(std::string_view t)
{
    if (t.size() < 8 || t[2] != ':' || t[5] != ':' || !allOf(t.substr(0, 2), isDigit) ||
        !allOf(t.substr(3, 2), isDigit) || !allOf(t.substr(6, 2), isDigit))
        return false;
    return t.size() == 8 || (t[8] == '.' && t.size() > 9 && t.size() <= 18 && allOf(t.substr(9), isDigit));
}

// comm pid/tid [cpu] [tod] time: period event: [ip sym+off (dso)], with any of comm, pid, cpu, time and period left
// out as `perf script -F` allows. The event is required: it is what tells a header from other text.
bool parseHeader(std::string_view line, Header *h)
{
    if (line.empty() || isBlank(line.front()) || line.front() == '#')
        return false;
    *h = Header{};
    const std::vector<Token> t = tokens(line, 24);
    size_t i = 0;
    if (t.empty())
        return false;
    if (t[0].text.find('/') != std::string_view::npos && parseIds(t[0].text, &h->pid, &h->tid)) {
        i = 1;   // -F pid,tid,... without comm
    } else {
        // comm runs up to the first id token, or up to the first "...:" token when no id is printed.
        size_t k = 1;
        while (k < t.size() && t[k].text.back() != ':' && !isDate(t[k].text) && !parseIds(t[k].text, &h->pid, &h->tid))
            h->pid.reset(), h->tid.reset(), ++k;
        if (k == t.size())
            return false;
        h->comm = trimmed(line.substr(0, t[k].begin));
        i = h->tid ? k + 1 : k;
    }
    const size_t afterIds = i;
    for (; i < t.size(); ++i) {
        const std::string_view tok = t[i].text;
        if (tok.size() > 2 && tok.front() == '[' && tok.back() == ']' && allOf(tok.substr(1, tok.size() - 2), isDigit))
            continue;   // [cpu]
        if (isTime(tok)) {
            h->nanos = timeNanos(tok);
            continue;
        }
        if (isDate(tok) && i + 1 < t.size() && isClock(t[i + 1].text)) {   // -F +tod: "2020-07-13 18:26:55.620971"
            h->tod = line.substr(t[i].begin, t[i + 1].begin + t[i + 1].text.size() - t[i].begin);
            ++i;
            continue;
        }
        if (tok.back() == ':') {
            h->event = eventName(tok);
            if (h->event.empty())
                return false;
            if (i > afterIds)   // perf prints the period right before the event
                h->period = decimal(t[i - 1].text);
            const size_t after = t[i].begin + tok.size();
            h->rest = trimmed(line.substr(after));
            return true;
        }
    }
    return false;
}


// "ip sym+0xoff (dso)", each part optional as -F allows. Names may hold spaces and parentheses (demangled C++),
// so the DSO is the parenthesised group that ends the line, and the offset the "+0x..." that ends the name.
Frame parseFrame(std::string_view s)
{
    Frame f;
    s = trimmed(s);
    size_t sp = 0;
    while (sp < s.size() && !isBlank(s[sp]))
        ++sp;
    if (sp <= 16 && allOf(s.substr(0, sp), isHex)) {
        f.address = hexNumber(s.substr(0, sp));
        s = trimmed(s.substr(sp));
    }
    if (!s.empty() && s.back() == ')') {
        int depth = 0;
        for (size_t i = s.size(); i-- > 0;) {
            depth += s[i] == ')' ? 1 : s[i] == '(' ? -1 : 0;
            if (depth == 0) {
                if (i == 0 || isBlank(s[i - 1])) {
                    f.dso = s.substr(i + 1, s.size() - i - 2);
                    s = trimmed(s.substr(0, i));
                }
                break;
            }
        }
    }
    if (f.dso == "inlined") {   // perf --inline: a frame of the inline stack of the address, not a DSO
        f.inlined = true;
        f.dso = {};
    }
    const size_t plus = s.rfind("+0x");
    if (plus != std::string_view::npos && plus > 0) {
        if (const auto off = hexNumber(s.substr(plus + 3))) {
            if (!f.address)
                f.address = off;
            s = s.substr(0, plus);
        }
    }
    if (!s.empty())
        f.name = s;
    return f;
}

// perf script -F +srcline prints the frame's source line below it, indented with spaces (frames have a tab):
// "  main.cpp:12", "  main.cpp:12 (inlined)" for a frame of an inline stack (then not marked where the DSO goes),
// "  ??:0" when unknown, "  [kernel.kallsyms][ffffffff8225f759]" for code without line tables. False when the
// line is not such a line (it is then read as a frame).
bool parseSrcline(std::string_view line, Frame *f)
{
    std::string_view s = trimmed(line);
    bool inlined = false;
    if (s.size() > 10 && s.substr(s.size() - 10) == " (inlined)") {
        inlined = true;
        s = trimmed(s.substr(0, s.size() - 10));
    }
    if (const size_t d = s.rfind(" (discriminator "); d != std::string_view::npos && s.back() == ')')
        s = s.substr(0, d);
    if (s.size() > 2 && s.front() == '[' && s.back() == ']' && s.find("][") != std::string_view::npos) {
        f->inlined = f->inlined || inlined;
        return true;   // [dso][address]: no line table
    }
    const size_t colon = s.rfind(':');
    if (colon == std::string_view::npos || s.find(" (") != std::string_view::npos)
        return false;
    const std::string_view number = s.substr(colon + 1), file = s.substr(0, colon);
    const bool unknown = number == "?" || number == "0";
    const std::optional<int64_t> lineNo = unknown ? std::optional<int64_t>(0) : decimal(number);
    if (!lineNo)
        return false;
    f->inlined = f->inlined || inlined;
    if (file != "??" && !file.empty() && *lineNo > 0) {
        f->file = file;
        f->line = *lineNo;
    }
    return true;
}


bool isBlankLine(std::string_view line)
{
    for (char c : line)
        if (!isBlank(c))
            return false;
    return true;
}

// "HEX<blank>...": a frame line's instruction pointer (at most 16 hex digits) and something after it.
bool startsWithAddress(std::string_view line)
{
    size_t n = 0;
    while (n < line.size() && isHex(line[n]))
        ++n;
    return n > 0 && n <= 16 && n < line.size() && isBlank(line[n]) && !trimmed(line.substr(n)).empty();
}

std::optional<int64_t> todEpochNanos(std::string_view tod)
{
    // "YYYY-MM-DD HH:MM:SS[.fraction]", as isDate and isClock checked it.
    if (tod.size() < 19 || !isDate(tod.substr(0, 10)) || tod[10] != ' ' || !isClock(tod.substr(11)))
        return std::nullopt;
    const auto num = [&](size_t at, size_t n) { return int(*decimal(tod.substr(at, n))); };
    std::tm tm{};
    tm.tm_year = num(0, 4) - 1900, tm.tm_mon = num(5, 2) - 1, tm.tm_mday = num(8, 2);
    tm.tm_hour = num(11, 2), tm.tm_min = num(14, 2), tm.tm_sec = num(17, 2);
    tm.tm_isdst = -1;   // local time as the zone's rules had it that day
    const std::time_t seconds = std::mktime(&tm);
    if (seconds == std::time_t(-1))
        return std::nullopt;
    return nanosOf(int64_t(seconds), tod.size() > 20 ? tod.substr(20) : std::string_view());
}

}   // namespace qflame::perfscript
