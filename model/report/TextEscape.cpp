#include "report/TextEscape.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace qflame {

namespace {

// Whether some of the 8 bytes in w is a backslash or below 0x10 (where tab, newline and carriage return are):
// names almost never hold either, so the scan looks at 8 bytes a step. A byte-by-byte scan was two thirds of
// printing pprof__large.cpu's 23,038 rows.
bool mayNeedEscaping(uint64_t w)
{
    constexpr uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    const uint64_t backslashes = w ^ (ones * uint8_t('\\'));   // zero bytes where w has a backslash
    return (((backslashes - ones) & ~backslashes) | ((w - ones * 0x10) & ~w)) & highs;
}

const char *escapeOf(char c)
{
    return c == '\\' ? "\\\\" : c == '\t' ? "\\t" : c == '\n' ? "\\n" : c == '\r' ? "\\r" : nullptr;
}

}   // namespace

void appendEscaped(std::string &out, std::string_view s)
{
    size_t plain = 0;   // copied in runs
    for (size_t i = 0; i < s.size();) {
        if (i + 8 <= s.size()) {
            uint64_t w;
            std::memcpy(&w, s.data() + i, 8);
            if (!mayNeedEscaping(w)) {
                i += 8;
                continue;
            }
        }
        for (const size_t stop = std::min(i + 8, s.size()); i < stop; ++i) {
            if (const char *escaped = escapeOf(s[i])) {
                out.append(s.substr(plain, i - plain));
                out += escaped;
                plain = i + 1;
            }
        }
    }
    out.append(s.substr(plain));
}

std::string escapeField(std::string_view s)
{
    std::string out;
    appendEscaped(out, s);
    return out;
}

}   // namespace qflame
