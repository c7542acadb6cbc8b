// Small rules of Go's that the legacy pprof readers follow to read what `go tool pprof` reads, alike: lines as
// bufio.Scanner splits them, integers as strconv parses them, floats to integers as Go converts them on amd64,
// and regular expressions matched byte for byte.
#pragma once

#include "io/Regex.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace qflame::legacy {

// Lines as bufio.Scanner gives them: split at '\n', a '\r' before it dropped. After the last line, text() is
// empty, as Go's Text() is once Scan() has said false.
class Scanner {
public:
    explicit Scanner(std::string_view text) : m_rest(text) {}
    bool scan()
    {
        if (m_rest.empty()) {
            m_line = {};
            return false;
        }
        const size_t nl = m_rest.find('\n');
        m_line = m_rest.substr(0, nl);
        m_rest.remove_prefix(nl == std::string_view::npos ? m_rest.size() : nl + 1);
        if (!m_line.empty() && m_line.back() == '\r')
            m_line.remove_suffix(1);
        ++m_number;
        return true;
    }
    std::string_view text() const { return m_line; }
    std::string_view rest() const { return m_rest; }   // after the current line
    size_t lineNumber() const { return m_number; }

private:
    std::string_view m_rest, m_line;
    size_t m_number = 0;
};

// A regex on lines read one character per byte (Latin-1), as Go's regexp reads the bytes it is given.
inline Regex bytesRegex(std::string_view pattern)
{
    return Regex(pattern, Regex::Text::Bytes);
}

// strconv.ParseInt(s, base, 64) for base 10, or 0 (a "0x", "0o", "0b" or "0" prefix picks the base). No
// underscores (Go takes them only with base 0, and no profile writes them).
inline bool parseGoInt(std::string_view s, int base, int64_t *out)
{
    bool negative = false;
    if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
        negative = s.front() == '-';
        s.remove_prefix(1);
    }
    if (base == 0) {
        base = 10;
        if (s.size() > 1 && s[0] == '0') {
            const char p = char(s[1] | 0x20);
            base = p == 'x' ? 16 : p == 'o' ? 8 : p == 'b' ? 2 : 8;
            s.remove_prefix(p == 'x' || p == 'o' || p == 'b' ? 2 : 1);
        }
    }
    if (s.empty())
        return false;
    uint64_t v = 0;
    for (char c : s) {
        const char l = char(c | 0x20);
        const int digit = c >= '0' && c <= '9' ? c - '0' : l >= 'a' && l <= 'z' ? l - 'a' + 10 : 99;
        if (digit >= base)
            return false;
        if (v > (UINT64_MAX - uint64_t(digit)) / uint64_t(base))
            return false;
        v = v * uint64_t(base) + uint64_t(digit);
    }
    if (v > (negative ? uint64_t(INT64_MAX) + 1 : uint64_t(INT64_MAX)))
        return false;
    *out = negative ? int64_t(0 - v) : int64_t(v);
    return true;
}

// Go's int64(f) on amd64: truncation, and the "integer indefinite" INT64_MIN for what does not fit (C++ leaves it
// undefined).
inline int64_t goInt64(double f)
{
    if (!(f > -9223372036854775808.0 && f < 9223372036854775808.0))
        return INT64_MIN;
    return int64_t(f);
}

// Heap profiles are sampled, one allocation every `rate` bytes on average (a Poisson process): a sample of
// average size S stood for 1/(1-exp(-S/rate)) of its kind. A rate of 1 or less is no sampling.
inline std::pair<int64_t, int64_t> unsampledHeap(int64_t count, int64_t size, int64_t rate)
{
    if (count == 0 || size == 0)
        return {0, 0};
    if (rate <= 1)
        return {count, size};
    const double average = double(size) / double(count);
    const double scale = 1 / (1 - std::exp(-average / double(rate)));
    return {goInt64(double(count) * scale), goInt64(double(size) * scale)};
}

// Java's heap profiles sample every 512 KiB.
inline std::pair<int64_t, int64_t> unsampledJavaHeap(int64_t count, int64_t size)
{
    return unsampledHeap(count, size, 524288);
}

}   // namespace qflame::legacy
