// The columns of pprof's listings (`-list`, `-disasm`, and their diffs): values scaled to pprof's units, "." for
// zero as pprof prints it, right-aligned in a field. One definition for `list` and `disasm`, so that their columns
// cannot drift apart.
#pragma once

#include <cstdint>
#include <string>

namespace qflame {

// `s` right-aligned in `width` characters (never cut).
std::string padLeft(const std::string &s, size_t width);

// pprof's scaled label of `v` in `unit`, or "." for zero.
std::string valueOrDot(int64_t v, const std::string &unit);

// The same with a "+" before a positive value: a change.
std::string signedValue(int64_t v, const std::string &unit);

}   // namespace qflame
