#include "formats/FoldedFormat.h"

#include "formats/StackProfile.h"
#include "io/ReadOptions.h"

#include <charconv>

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


}   // namespace

bool looksLikeFolded(std::string_view text)
{
    bool result = false;
    forEachLine(withoutBom(text), [&](size_t, std::string_view line) {
        if (isBlankLine(line))
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
    StackProfileBuilder builder({{options.sampleType, options.sampleUnit}});
    const uint64_t budget = memoryBudget(read, text.size());
    builder.setMemoryLimit(budget, stackMemoryRefusal(sourceName + ": folded: ", read, budget));
    builder.addComment("qflame: imported from folded stacks");
    const char *const begin = text.data();
    forEachLine(withoutBom(text), [&](size_t lineNo, std::string_view line) {
        if (lineNo % 65536 == 0 && read.progress && !read.progress(double(line.data() - begin) / double(text.size())))
            throw Cancelled();
        if (isBlankLine(line))
            return true;
        const FoldedLine f = splitLine(line);
        int64_t count = 0;
        if (!f.hasSeparator || !parseCount(f.count, &count))
            throw ProfileError(sourceName + ": line " + std::to_string(lineNo) +
                               ": not folded stacks: expected 'frame;frame;... COUNT' with a whole-number count, got '" +
                               std::string(line.substr(0, 80)) + (line.size() > 80 ? "...'" : "'"));
        builder.addStack(f.stack, ';', &count);
        return true;
    });
    if (builder.stackCount() == 0)
        throw ProfileError(sourceName + ": no stacks: the folded input has no lines");
    return builder.build(sourceName);
}

}   // namespace qflame
