// Template (and Rust generic) argument lists of readable names, dropped or collapsed. Two uses:
//
//   withoutTemplateArguments   demangle mode `simple`:   std::vector<int, std::allocator<int> >::size -> std::vector::size
//   collapseTemplateArguments  "collapse templates":      std::vector<int, std::allocator<int> >::size() const
//                                                          -> std::vector<>::size() const
//
// Collapsing (KDAB/hotspot#227's toggle) acts on every name, also on names that arrive readable (perf script,
// speedscope, a pprof symbolized with demangling), so that frames differing only inside <...> become one frame.
// It keeps the brackets, so the name still says a template was there; pprof, for names that arrive demangled,
// removes the brackets with what is inside (symbolizer.go's removeMatching), as `simple` does for mangled ones.
//
// What is not an argument list stays: the operators whose names hold angle brackets (operator<, operator<<,
// operator<=>, operator->, operator>>=), a bracket that follows no name (Rust's "<T as Trait>::f", Java's
// "Foo.<init>", "<unknown>"), and unbalanced brackets. "->" inside a list (a Rust fn type's return, a C++
// trailing return type) closes nothing.
#pragma once

#include "pprof/Profile.h"

#include <memory>
#include <string>
#include <string_view>

namespace qflame {

// "a<b<c>>::d<e>" -> "a::d"; Rust's turbofish "f::<T>" -> "f".
std::string withoutTemplateArguments(std::string_view name);

// "a<b<c>>::d<e>" -> "a<>::d<>"; Rust's turbofish "f::<T>" -> "f::<>"; "operator< <long>" -> "operator< <>".
std::string collapseTemplateArguments(std::string_view name);

// The profile with every function's name collapsed (system names stay as they are). Names are interned, so
// functions whose names become equal are one frame in every tree, and their values sum; samples are untouched.
// Returns `profile` itself when no name changes.
std::shared_ptr<const Profile> collapseTemplates(std::shared_ptr<const Profile> profile);

}   // namespace qflame
