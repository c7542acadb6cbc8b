#include "names/Demangle.h"

#include "names/TemplateArguments.h"

#include <cstdlib>

// libiberty.h (which demangle.h includes) declares basename() unless told that the C library has it, and that
// declaration clashes with glibc's C++ one.
#define HAVE_DECL_BASENAME 1
#include <libiberty/demangle.h>
#include <unordered_map>
#include <vector>

namespace qflame {

namespace {

// libiberty's result, freed here: its buffer comes from malloc.
std::optional<std::string> libiberty(const std::string &mangled, int flags)
{
    char *out = cplus_demangle(mangled.c_str(), flags);
    if (!out)
        return std::nullopt;
    std::string s(out);
    std::free(out);
    return s;
}

}   // namespace

const char *demangleModeName(DemangleMode mode)
{
    switch (mode) {
    case DemangleMode::None: return "none";
    case DemangleMode::Simple: return "simple";
    case DemangleMode::Templates: return "templates";
    case DemangleMode::Full: return "full";
    }
    return "none";
}

std::optional<DemangleMode> parseDemangleMode(std::string_view name)
{
    for (DemangleMode m : {DemangleMode::None, DemangleMode::Simple, DemangleMode::Templates, DemangleMode::Full})
        if (name == demangleModeName(m))
            return m;
    return std::nullopt;
}

bool looksMangled(std::string_view name)
{
    return name.size() > 2 && name[0] == '_' && (name[1] == 'Z' || name[1] == 'R');
}

std::optional<std::string> demangledName(std::string_view name, DemangleMode mode)
{
    if (mode == DemangleMode::None || !looksMangled(name))
        return std::nullopt;
    const std::string mangled(name);
    // c++filt's own flags; without DMGL_PARAMS libiberty leaves out the parameter list and return type, and
    // without DMGL_VERBOSE Rust's hashes and crate disambiguators.
    if (mode == DemangleMode::Full)
        return libiberty(mangled, DMGL_PARAMS | DMGL_ANSI | DMGL_VERBOSE);
    std::optional<std::string> shortName = libiberty(mangled, DMGL_ANSI);
    if (!shortName || mode == DemangleMode::Templates)
        return shortName;
    return withoutTemplateArguments(*shortName);
}

std::shared_ptr<const Profile> renameFunctions(std::shared_ptr<const Profile> profile,
                                               const std::function<std::optional<std::string>(std::string_view)> &rename)
{
    if (!profile)
        return profile;
    const Profile &in = *profile;
    // Each name string once: functions often share one (a name in several files, or inlined copies).
    // Asked-already as one bit per string: a set of them cost a node allocated and freed per function, 9 of the
    // 14 million instructions that `qflame top pprof__large.cpu` (23,038 functions, none mangled) spent here.
    std::unordered_map<uint32_t, std::string> renamed;
    std::vector<bool> asked(in.strings.size());
    for (const Function &f : in.functions) {
        if (f.name < asked.size()) {   // always, in a checked profile
            if (asked[f.name])
                continue;
            asked[f.name] = true;
        }
        if (auto d = rename(in.str(f.name)); d && *d != in.str(f.name))
            renamed.emplace(f.name, std::move(*d));
    }
    if (renamed.empty())
        return profile;
    auto out = std::make_shared<Profile>(in);
    // Interned against the whole table, so a new name equal to a name already there (or to another new one) is
    // the same string index, which is what makes their frames one.
    std::unordered_map<std::string_view, uint32_t> index;
    index.reserve(in.strings.size());
    for (uint32_t i = in.strings.size(); i-- > 0;)
        index[in.strings[i]] = i;   // the lowest index wins, as a reader's interning would give
    std::unordered_map<std::string, uint32_t> added;
    std::unordered_map<uint32_t, uint32_t> newIndex;
    for (auto &[old, name] : renamed) {
        uint32_t s;
        if (auto it = index.find(name); it != index.end())
            s = it->second;
        else if (auto jt = added.find(name); jt != added.end())
            s = jt->second;
        else {
            s = uint32_t(out->strings.size());
            out->strings.push_back(name);
            added.emplace(name, s);
        }
        newIndex.emplace(old, s);
    }
    for (Function &f : out->functions)
        if (auto it = newIndex.find(f.name); it != newIndex.end())
            f.name = it->second;
    return out;
}

std::shared_ptr<const Profile> demangleProfile(std::shared_ptr<const Profile> profile, DemangleMode mode)
{
    if (mode == DemangleMode::None || !profile)
        return profile;
    // Most profiles (Go's) hold no mangled string at all. A search for '_' through all the table's characters at
    // once says so where asking function by function read the table at random: 0.7-1 ms of `qflame top
    // pprof__large.cpu` (23,038 functions), about 4 % of it; string by string in order, 0.6 ms still.
    const StringTable &strings = profile->strings;
    const std::string_view all = strings.chars();
    bool anyMangled = false;
    for (size_t at = all.find('_'); at != std::string_view::npos && !anyMangled; at = all.find('_', at + 1)) {
        if (at + 1 < all.size() && (all[at + 1] == 'Z' || all[at + 1] == 'R')) {
            const size_t i = strings.stringAt(at);
            anyMangled = strings.beginOf(i) == at && looksMangled(strings[i]);
        }
    }
    if (!anyMangled)
        return profile;
    return renameFunctions(std::move(profile), [mode](std::string_view name) { return demangledName(name, mode); });
}

}   // namespace qflame
