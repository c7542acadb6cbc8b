// Regexes as pprof's options take them: Go RE2 syntax, matched anywhere in the text (regexp.MatchString).
//
// They are compiled with PCRE2 (io/Regex.h), which accepts every RE2 construct and more (lookaround,
// backreferences). Differences on the same pattern: PCRE's `$` (without (?m)) also matches before a final "\n"
// where Go's matches only at the very end, and PCRE's `\s` also matches "\v". Text is matched as code points,
// with each byte that is not UTF-8 read as U+FFFD, as Go reads it.
#pragma once

#include "io/Regex.h"

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
std::optional<Regex> compilePprofRegex(const std::string &pattern, const char *option);

// Compiles a regex that must exist (an empty pattern matches everything, as in Go).
Regex compileRequiredPprofRegex(const std::string &pattern, const char *option);

// regexp.MatchString on pprof's byte strings.
inline bool pprofMatch(const Regex &re, std::string_view text)
{
    return re.matches(text);
}

}   // namespace qflame
