// Readable function names for profiles whose names arrive mangled: eBPF agents, `perf script --no-demangle`,
// pprof files symbolized without demangling. The demangling itself is libiberty's (Debian's libiberty-dev), the
// code binutils' c++filt is built from, so `full` is c++filt's output by construction and Rust legacy and v0
// names are read as well as C++ (Itanium) ones.
//
//   full       c++filt:                      int work::accumulate<int>(std::vector<int, std::allocator<int> > const&, int)
//   templates  no parameter list or return type (Rust: no hash, no crate disambiguators): work::accumulate<int>
//   simple     no template arguments either (pprof's default; Rust: no "::<...>" generics): work::accumulate
//
// Rust's "<T as Trait>::method" paths keep their angle brackets in simple mode (only what follows a name is a
// template or generic argument list); what is inside them loses its own arguments.
#pragma once

#include "io/ReadOptions.h"
#include "pprof/Profile.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace qflame {

const char *demangleModeName(DemangleMode mode);                 // "none", "simple", "templates", "full"
std::optional<DemangleMode> parseDemangleMode(std::string_view name);

// Whether `name` is mangled the way the demangler reads ("_Z..." C++ or Rust legacy, "_R..." Rust v0).
bool looksMangled(std::string_view name);

// The readable form of a mangled name, or nothing when `name` is not mangled, does not demangle, or mode is None.
std::optional<std::string> demangledName(std::string_view name, DemangleMode mode);

// Drops the template (and Rust generic) argument lists of a demangled name: "std::vector<int>::push_back" ->
// "std::vector::push_back"; "operator<" and "operator<<" stay.
std::string withoutTemplateArguments(std::string_view demangled);

// The profile with every function whose name arrives mangled renamed to its demangled form (its system name stays
// the mangled one, as in pprof). Names are interned, so functions whose names become equal are one frame in every
// tree; samples and their values are untouched. Returns `profile` itself when no name changes.
std::shared_ptr<const Profile> demangleProfile(std::shared_ptr<const Profile> profile, DemangleMode mode);

}   // namespace qflame
