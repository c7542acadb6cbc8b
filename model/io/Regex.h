// Regular expressions on std::string_view, with PCRE2 (the library QRegularExpression wraps), so that the code a
// `qflame top` runs loads no Qt: Qt Core and the libraries it pulls in (ICU, glib, PCRE2-16) cost 7-9 ms of
// every start on this project's VM, more than reading a small profile takes (issue #31).
//
// Two ways to read the text, as the callers need them:
// - Utf8: the text is code points, as Go's regexp and QRegularExpression read it. Bytes that are not valid UTF-8
//   are each read as U+FFFD (Go reads them so: utf8.DecodeRune gives RuneError with width 1). Matches report
//   offsets in the text as matched, which differs from the subject only where such bytes were replaced.
// - Bytes: one character per byte (Latin-1), for the legacy pprof formats, whose lines may hold any byte.
// Neither sets PCRE2_UCP: \w, \d, \s and [[:alpha:]] are ASCII, as QRegularExpression's defaults were.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace qflame {

class Regex;

// The groups of one match. In Utf8 mode with replaced bytes it owns the text it matched (text()); otherwise its
// views point into the subject given to match(), which must outlive it.
class RegexMatch {
public:
    bool hasMatch() const { return m_matched; }
    // Group `n` (0: the whole match), or empty when it did not take part.
    std::string_view captured(int n) const;
    // The offset just after group `n`, in text(); 0 when it did not take part.
    size_t capturedEnd(int n = 0) const;
    std::string_view text() const { return m_owned ? std::string_view(m_copy) : m_subject; }

private:
    friend class Regex;
    bool m_matched = false;
    bool m_owned = false;
    std::string_view m_subject;
    std::string m_copy;
    std::vector<size_t> m_spans;   // begin, end per group; npos when unset
};

class Regex {
public:
    enum class Text { Utf8, Bytes };

    Regex() = default;   // no pattern: isValid() is false and nothing matches
    explicit Regex(std::string_view pattern, Text text = Text::Utf8);

    bool isValid() const { return m_code != nullptr; }
    // PCRE2's message ("missing closing parenthesis") and the offset in the pattern where it stopped.
    const std::string &errorString() const { return m_error; }
    size_t errorOffset() const { return m_errorOffset; }

    // Whether the pattern matches anywhere in `subject` (regexp.MatchString).
    bool matches(std::string_view subject) const;
    RegexMatch match(std::string_view subject) const;

private:
    struct Code;
    std::shared_ptr<const Code> m_code;
    Text m_text = Text::Utf8;
    std::string m_error = "no pattern";
    size_t m_errorOffset = 0;

    bool run(std::string_view subject, RegexMatch *out) const;
};

// `text` with every byte that does not begin a valid UTF-8 sequence (overlong forms, surrogates and code points
// past U+10FFFF included) replaced by U+FFFD; `text` itself when it is valid.
std::string validUtf8(std::string_view text);
bool isValidUtf8(std::string_view text);

// `text` as a pattern that matches it literally: every ASCII character but letters, digits and '_' escaped.
std::string regexEscaped(std::string_view text);

}   // namespace qflame
