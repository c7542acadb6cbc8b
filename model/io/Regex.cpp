#include "io/Regex.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <cctype>
#include <cstdint>
#include <new>

namespace qflame {

namespace {

// The length of the valid UTF-8 sequence at `p` (at most `n` bytes), or 0 when none begins there.
size_t sequenceAt(const unsigned char *p, size_t n)
{
    const unsigned char c = p[0];
    if (c < 0x80)
        return 1;
    auto cont = [&](size_t i, unsigned char lo = 0x80, unsigned char hi = 0xBF) {
        return i < n && p[i] >= lo && p[i] <= hi;
    };
    if (c >= 0xC2 && c <= 0xDF)
        return cont(1) ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        // E0 needs A0.. (no overlong forms), ED at most 9F (no surrogates)
        const bool second = c == 0xE0 ? cont(1, 0xA0) : c == 0xED ? cont(1, 0x80, 0x9F) : cont(1);
        return second && cont(2) ? 3 : 0;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        // F0 needs 90.. (no overlong forms), F4 at most 8F (nothing past U+10FFFF)
        const bool second = c == 0xF0 ? cont(1, 0x90) : c == 0xF4 ? cont(1, 0x80, 0x8F) : cont(1);
        return second && cont(2) && cont(3) ? 4 : 0;
    }
    return 0;
}

// What one thread matches with: match data big enough for the largest pattern so far, and a JIT stack of up to
// 512 KiB (QRegularExpression's size; PCRE2's own default is 32 KiB).
struct MatchScratch {
    pcre2_match_data *data = nullptr;
    uint32_t pairs = 0;
    pcre2_jit_stack *stack = nullptr;
    pcre2_match_context *context = nullptr;

    MatchScratch()
    {
        stack = pcre2_jit_stack_create(32 * 1024, 512 * 1024, nullptr);
        context = pcre2_match_context_create(nullptr);
        if (stack && context)
            pcre2_jit_stack_assign(context, nullptr, stack);
    }
    ~MatchScratch()
    {
        pcre2_match_data_free(data);
        pcre2_match_context_free(context);
        pcre2_jit_stack_free(stack);
    }
    pcre2_match_data *dataFor(uint32_t groups)
    {
        if (!data || pairs < groups) {
            pcre2_match_data_free(data);
            pairs = groups;
            data = pcre2_match_data_create(pairs, nullptr);
        }
        return data;
    }
};

MatchScratch &scratch()
{
    thread_local MatchScratch s;
    return s;
}

}   // namespace

struct Regex::Code {
    pcre2_code *code = nullptr;
    uint32_t groups = 1;   // captures + the whole match
    ~Code() { pcre2_code_free(code); }
};

bool isValidUtf8(std::string_view text)
{
    const auto *p = reinterpret_cast<const unsigned char *>(text.data());
    for (size_t i = 0, n = text.size(); i < n;) {
        if (p[i] < 0x80) {
            ++i;
            continue;
        }
        const size_t len = sequenceAt(p + i, n - i);
        if (len == 0)
            return false;
        i += len;
    }
    return true;
}

std::string validUtf8(std::string_view text)
{
    std::string out;
    out.reserve(text.size() + 8);
    const auto *p = reinterpret_cast<const unsigned char *>(text.data());
    for (size_t i = 0, n = text.size(); i < n;) {
        const size_t len = sequenceAt(p + i, n - i);
        if (len == 0) {
            out += "\xEF\xBF\xBD";
            ++i;
        } else {
            out.append(text.data() + i, len);
            i += len;
        }
    }
    return out;
}

std::string regexEscaped(std::string_view text)
{
    std::string out;
    out.reserve(text.size() * 2);
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '\0') {
            out += "\\x00";
            continue;
        }
        if (u < 0x80 && !std::isalnum(u) && c != '_')
            out += '\\';
        out += c;
    }
    return out;
}

Regex::Regex(std::string_view pattern, Text text) : m_text(text)
{
    // A pattern is text from the command line or this program; in Utf8 mode its invalid bytes are read as the
    // subject's are (QRegularExpression got it as a QString, converted the same way).
    const std::string valid = text == Text::Utf8 ? validUtf8(pattern) : std::string(pattern);
    int code = 0;
    PCRE2_SIZE offset = 0;
    pcre2_code *compiled = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(valid.data()), valid.size(),
                                         text == Text::Utf8 ? PCRE2_UTF : 0, &code, &offset, nullptr);
    if (!compiled) {
        PCRE2_UCHAR message[256];
        const int n = pcre2_get_error_message(code, message, sizeof message);
        m_error = n > 0 ? std::string(reinterpret_cast<const char *>(message), size_t(n)) : "cannot compile";
        m_errorOffset = offset;
        return;
    }
    // Most patterns here are matched once per function, mapping, label or line: compiled to machine code now.
    pcre2_jit_compile(compiled, PCRE2_JIT_COMPLETE);   // where JIT is not available, the interpreter matches
    auto c = std::make_shared<Code>();
    c->code = compiled;
    uint32_t captures = 0;
    pcre2_pattern_info(compiled, PCRE2_INFO_CAPTURECOUNT, &captures);
    c->groups = captures + 1;
    m_code = std::move(c);
    m_error.clear();
}

bool Regex::run(std::string_view subject, RegexMatch *out) const
{
    if (!m_code)
        return false;
    std::string converted;
    std::string_view text = subject;
    if (m_text == Text::Utf8 && !isValidUtf8(subject)) {
        converted = validUtf8(subject);
        text = converted;
    }
    MatchScratch &s = scratch();
    pcre2_match_data *data = s.dataFor(m_code->groups);
    if (!data)
        throw std::bad_alloc();
    const int rc = pcre2_match(m_code->code, reinterpret_cast<PCRE2_SPTR>(text.data()), text.size(), 0,
                               m_text == Text::Utf8 ? PCRE2_NO_UTF_CHECK : 0, data, s.context);
    const bool matched = rc >= 0;   // 0: more groups than pairs, which dataFor rules out
    if (out) {
        out->m_matched = matched;
        if (text.data() != subject.data()) {
            out->m_owned = true;
            out->m_copy = std::move(converted);
        } else {
            out->m_subject = subject;
        }
        if (matched) {
            const PCRE2_SIZE *v = pcre2_get_ovector_pointer(data);
            out->m_spans.assign(v, v + 2 * m_code->groups);
            for (size_t &at : out->m_spans)
                if (at == PCRE2_UNSET)
                    at = std::string_view::npos;
        }
    }
    return matched;
}

bool Regex::matches(std::string_view subject) const
{
    return run(subject, nullptr);
}

RegexMatch Regex::match(std::string_view subject) const
{
    RegexMatch m;
    run(subject, &m);
    return m;
}

std::string_view RegexMatch::captured(int n) const
{
    const size_t i = 2 * size_t(n);
    if (!m_matched || n < 0 || i + 1 >= m_spans.size() || m_spans[i] == std::string_view::npos)
        return {};
    return text().substr(m_spans[i], m_spans[i + 1] - m_spans[i]);
}

size_t RegexMatch::capturedEnd(int n) const
{
    const size_t i = 2 * size_t(n);
    if (!m_matched || n < 0 || i + 1 >= m_spans.size() || m_spans[i + 1] == std::string_view::npos)
        return 0;
    return m_spans[i + 1];
}

}   // namespace qflame
