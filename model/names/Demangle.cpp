#include "names/Demangle.h"

#include <cstdlib>
#include <cstring>

// libiberty.h (which demangle.h includes) declares basename() unless told that the C library has it, and that
// declaration clashes with glibc's C++ one.
#define HAVE_DECL_BASENAME 1
#include <libiberty/demangle.h>
#include <unordered_map>
#include <vector>

namespace qflame {

namespace {

bool isIdentifier(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$';
}

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

// The '>' that closes the '<' at `open`, or npos when unbalanced. "->" (a Rust fn type's return) closes nothing.
size_t closingAngle(std::string_view s, size_t open)
{
    int depth = 0;
    for (size_t i = open; i < s.size(); ++i) {
        if (s[i] == '<')
            ++depth;
        else if (s[i] == '>' && !(i > 0 && s[i - 1] == '-') && --depth == 0)
            return i;
    }
    return std::string_view::npos;
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

std::string withoutTemplateArguments(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    size_t i = 0;
    while (i < s.size()) {
        // operator<, operator<<, operator<=>, operator->: their brackets are the name, not arguments.
        if (s.compare(i, 8, "operator") == 0 && (i == 0 || !isIdentifier(s[i - 1]))) {
            size_t j = i + 8;
            while (j < s.size() && std::strchr("<>=-!+*/%^&|~", s[j]))
                ++j;
            out.append(s.substr(i, j - i));
            i = j;
            // "operator< <long>": the operator's template arguments, after the space that keeps them apart.
            if (i + 1 < s.size() && s[i] == ' ' && s[i + 1] == '<') {
                if (const size_t close = closingAngle(s, i + 1); close != std::string_view::npos)
                    i = close + 1;
            }
            continue;
        }
        if (s[i] == '<') {
            const bool turbofish = out.size() >= 2 && out.compare(out.size() - 2, 2, "::") == 0;
            const bool afterName = !out.empty() && isIdentifier(out.back());
            const size_t close = closingAngle(s, i);
            if ((turbofish || afterName) && close != std::string_view::npos) {
                if (turbofish)
                    out.resize(out.size() - 2);
                i = close + 1;
                continue;
            }
        }
        out += s[i++];
    }
    return out;
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

std::shared_ptr<const Profile> demangleProfile(std::shared_ptr<const Profile> profile, DemangleMode mode)
{
    if (mode == DemangleMode::None || !profile)
        return profile;
    const Profile &in = *profile;
    // Each name string once: functions often share one (a name in several files, or inlined copies).
    std::unordered_map<uint32_t, std::string> renamed;
    for (const Function &f : in.functions) {
        if (renamed.count(f.name))
            continue;
        if (auto d = demangledName(in.str(f.name), mode); d && *d != in.str(f.name))
            renamed.emplace(f.name, std::move(*d));
    }
    if (renamed.empty())
        return profile;
    auto out = std::make_shared<Profile>(in);
    // Interned against the whole table, so a demangled name equal to a name already there (or to another
    // demangled one) is the same string index, which is what makes their frames one.
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

}   // namespace qflame
