// Regexes as pprof's options take them: Go RE2 syntax, matched anywhere in the text (regexp.MatchString).
//
// They are compiled with QRegularExpression (PCRE2), which accepts every RE2 construct and more (lookaround,
// backreferences). Differences on the same pattern: PCRE's `$` (without (?m)) also matches before a final "\n"
// where Go's matches only at the very end, and PCRE's `\s` also matches "\v". Text is matched as UTF-16, with
// invalid UTF-8 read as U+FFFD, as Go reads it.
#pragma once

#include <QRegularExpression>

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace qflame {

// An option that cannot be used: a regex that does not compile, a number out of range. One line.
class FilterError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Compiles one regex option as pprof does: an empty pattern means "unset" (nullopt). Throws FilterError naming
// `option`: "parsing focus regexp: missing closing parenthesis at offset 3".
std::optional<QRegularExpression> compilePprofRegex(const std::string &pattern, const char *option);

// Compiles a regex that must exist (an empty pattern matches everything, as in Go).
QRegularExpression compileRequiredPprofRegex(const std::string &pattern, const char *option);

// regexp.MatchString on pprof's byte strings.
inline bool pprofMatch(const QRegularExpression &re, std::string_view text)
{
    return re.match(QString::fromUtf8(text.data(), qsizetype(text.size()))).hasMatch();
}

}   // namespace qflame
