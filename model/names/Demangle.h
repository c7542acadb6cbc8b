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
#include "names/TemplateArguments.h"   // withoutTemplateArguments, simple mode's step
#include "pprof/Profile.h"

#include <functional>
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

// The profile with every function whose `rename` gives a new name renamed (system names stay). Names are interned,
// so functions whose names become equal are one frame in every tree; samples and their values are untouched.
// `rename` is asked once per distinct name; nothing or the same name keeps it. Returns `profile` itself when no
// name changes.
std::shared_ptr<const Profile> renameFunctions(std::shared_ptr<const Profile> profile,
                                               const std::function<std::optional<std::string>(std::string_view)> &rename);

// The profile with every function whose name arrives mangled renamed to its demangled form (its system name stays
// the mangled one, as in pprof). Names are interned, so functions whose names become equal are one frame in every
// tree; samples and their values are untouched. Returns `profile` itself when no name changes.
std::shared_ptr<const Profile> demangleProfile(std::shared_ptr<const Profile> profile, DemangleMode mode);

}   // namespace qflame
