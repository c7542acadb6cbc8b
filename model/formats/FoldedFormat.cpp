#include "formats/FoldedFormat.h"

#include "formats/StackProfile.h"
#include "io/ReadOptions.h"


#include <charconv>
#include <optional>

namespace qflame {

namespace {

bool isBlank(char c)
{
    return c == ' ' || c == '\t';
}

struct FoldedLine {
    std::string_view stack;
    std::string_view count;   // the last whitespace-separated field
    bool hasSeparator = false;
};

// Splits off the last field the way flamegraph.pl does (`^(.*)\s+?(\d+...)$`): the stack is everything before
// the whitespace that precedes the last field, so frame names keep their inner spaces.
FoldedLine splitLine(std::string_view line)
{
    FoldedLine out;
    size_t end = line.size();
    while (end > 0 && isBlank(line[end - 1]))
        --end;
    size_t start = end;
    while (start > 0 && !isBlank(line[start - 1]))
        --start;
    out.count = line.substr(start, end - start);
    size_t stackEnd = start;
    while (stackEnd > 0 && isBlank(line[stackEnd - 1]))
        --stackEnd;
    out.hasSeparator = stackEnd < start;
    out.stack = line.substr(0, stackEnd);
    return out;
}

bool parseCount(std::string_view text, int64_t *out)
{
    if (!text.empty() && text.front() == '+')
        text.remove_prefix(1);
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
    return ec == std::errc() && end == text.data() + text.size() && !text.empty();
}

// Calls fn(lineNumber, line) for every line, without its "\n" or "\r\n".
template <typename Fn>
void forEachLine(std::string_view text, Fn &&fn)
{
    size_t lineNo = 0;
    while (!text.empty()) {
        ++lineNo;
        const size_t nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (!fn(lineNo, line))
            return;
    }
}

// A UTF-16 file (with its byte order mark, as Windows' tools write text) in UTF-8, or nothing when `text` is
// not UTF-16. An odd last byte is dropped.
std::optional<std::string> fromUtf16(std::string_view text)
{
    const bool le = text.substr(0, 2) == "\xFF\xFE", be = text.substr(0, 2) == "\xFE\xFF";
    if (!le && !be)
        return std::nullopt;
    const auto *p = reinterpret_cast<const unsigned char *>(text.data()) + 2;
    const size_t n = (text.size() - 2) & ~size_t(1);
    bool little = le;
    auto unit = [&](size_t i) { return little ? uint32_t(p[i] | p[i + 1] << 8) : uint32_t(p[i] << 8 | p[i + 1]); };
    std::string out;
    out.reserve(n + n / 2);
    size_t i = 0;
    // A second mark right after the first is dropped, and one in the other order swaps it (as Qt's decoder did).
    if (n >= 2 && (unit(0) == 0xFEFF || unit(0) == 0xFFFE)) {
        little = unit(0) == 0xFEFF ? little : !little;
        i = 2;
    }
    for (; i < n; i += 2) {
        uint32_t c = unit(i);
        if (c >= 0xD800 && c <= 0xDBFF && i + 3 < n && unit(i + 2) >= 0xDC00 && unit(i + 2) <= 0xDFFF) {
            c = 0x10000 + ((c - 0xD800) << 10) + (unit(i + 2) - 0xDC00);
            i += 2;
        } else if (c >= 0xD800 && c <= 0xDFFF) {
            c = 0xFFFD;   // a lone half of a surrogate pair
        }
        if (c < 0x80) {
            out += char(c);
        } else if (c < 0x800) {
            out += char(0xC0 | c >> 6), out += char(0x80 | (c & 0x3F));
        } else if (c < 0x10000) {
            out += char(0xE0 | c >> 12), out += char(0x80 | (c >> 6 & 0x3F)), out += char(0x80 | (c & 0x3F));
        } else {
            out += char(0xF0 | c >> 18), out += char(0x80 | (c >> 12 & 0x3F)), out += char(0x80 | (c >> 6 & 0x3F));
            out += char(0x80 | (c & 0x3F));
        }
    }
    return out;
}

std::string_view withoutBom(std::string_view text)
{
    if (text.substr(0, 3) == "\xEF\xBB\xBF")
        text.remove_prefix(3);
    return text;
}

bool isBlankLine(std::string_view line)
{
    for (char c : line)
        if (!isBlank(c))
            return false;
    return true;
}

bool isComment(std::string_view line)
{
    const size_t first = line.find_first_not_of(" \t");
    return first != std::string_view::npos && line[first] == '#';
}

}   // namespace

bool looksLikeFolded(std::string_view text)
{
    if (const std::optional<std::string> utf8 = fromUtf16(text.substr(0, 64 * 1024)))
        return looksLikeFolded(*utf8);
    bool result = false;
    forEachLine(withoutBom(text), [&](size_t, std::string_view line) {
        if (isBlankLine(line) || isComment(line))
            return true;
        // Binary data (a raw pprof starts with control bytes) is never taken for text.
        for (char c : line)
            if (static_cast<unsigned char>(c) < 0x20 && c != '\t')
                return false;
        const FoldedLine f = splitLine(line);
        int64_t count = 0;
        result = f.hasSeparator && !f.stack.empty() && parseCount(f.count, &count);
        return false;
    });
    return result;
}

std::shared_ptr<const Profile> readFolded(std::string_view text, const std::string &sourceName,
                                          const FoldedOptions &options)
{
    return readFolded(text, sourceName, ReadOptions{}, options);
}

std::shared_ptr<const Profile> readFolded(std::string_view text, const std::string &sourceName,
                                          const ReadOptions &read, const FoldedOptions &options)
{
    if (const std::optional<std::string> utf8 = fromUtf16(text))
        return readFolded(*utf8, sourceName, read, options);
    StackProfileBuilder builder({{options.sampleType, options.sampleUnit}});
    const uint64_t budget = memoryBudget(read, text.size());
    builder.setMemoryLimit(budget, stackMemoryRefusal(sourceName + ": folded: ", read, budget));
    builder.addComment("qflame: imported from folded stacks");
    const char *const begin = text.data();
    size_t comments = 0, invalid = 0;
    std::string firstInvalid;
    forEachLine(withoutBom(text), [&](size_t lineNo, std::string_view line) {
        if (lineNo % 65536 == 0 && read.progress && !read.progress(double(line.data() - begin) / double(text.size())))
            throw Cancelled();
        if (isBlankLine(line))
            return true;
        if (isComment(line)) {   // flamegraph.pl skips them, and lines it cannot read
            ++comments;
            return true;
        }
        const FoldedLine f = splitLine(line);
        int64_t count = 0;
        if (!f.hasSeparator || !parseCount(f.count, &count)) {
            if (invalid++ == 0)
                firstInvalid = "line " + std::to_string(lineNo) +
                               ": not folded stacks: expected 'frame;frame;... COUNT' with a whole-number count, got '" +
                               std::string(line.substr(0, 80)) + (line.size() > 80 ? "...'" : "'");
            return true;
        }
        builder.addStack(f.stack, ';', &count);
        return true;
    });
    if (builder.stackCount() == 0)
        throw ProfileError(sourceName + ": " + (invalid ? firstInvalid : "no stacks: the folded input has no lines"));
    if (comments + invalid > 0) {
        std::string note = "skipped " + std::to_string(comments + invalid) + " lines that are not stacks (" +
                           std::to_string(comments) + " '#' comments, " + std::to_string(invalid) + " invalid" +
                           (invalid ? "; the first at " + firstInvalid : std::string()) + ")";
        builder.addComment("qflame: " + note);
        if (read.warning)
            read.warning(sourceName + ": folded: " + note);
    }
    return builder.build(sourceName);
}

}   // namespace qflame
