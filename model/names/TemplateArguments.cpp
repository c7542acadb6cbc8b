#include "names/TemplateArguments.h"

#include "names/Demangle.h"

#include <cstring>

namespace qflame {

namespace {

bool isIdentifier(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$';
}

// The '>' that closes the '<' at `open`, or npos when unbalanced. "->" (a Rust fn type's return, a C++ trailing
// return type) closes nothing.
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

// Where the name of the operator that starts at `i` ("operator" as a whole word) ends: its symbol
// ("<", "<<=", "<=>", "->*", ...) or the call and subscript operators' "()" and "[]". npos when `i` starts no
// operator; a conversion operator ("operator int") ends right after the word, its type read as any name.
size_t operatorEnd(std::string_view s, size_t i)
{
    constexpr std::string_view word = "operator";
    if (s.compare(i, word.size(), word) != 0 || (i > 0 && isIdentifier(s[i - 1])))
        return std::string_view::npos;
    size_t j = i + word.size();
    if (j < s.size() && isIdentifier(s[j]))
        return std::string_view::npos;   // "operators", "operator_x": a plain identifier
    const size_t symbol = j;
    while (j < s.size() && std::strchr("<>=-!+*/%^&|~,", s[j]))
        ++j;
    if (j == symbol && s.compare(j, 2, "()") == 0)
        j += 2;
    else if (j == symbol && s.compare(j, 2, "[]") == 0)
        j += 2;
    return j;
}

// Both rewritings walk the name once; `keepBrackets` says whether a list becomes "<>" or goes.
std::string rewriteArgumentLists(std::string_view s, bool keepBrackets)
{
    std::string out;
    out.reserve(s.size());
    const std::string_view emptyList = keepBrackets ? "<>" : "";
    size_t i = 0;
    while (i < s.size()) {
        if (const size_t end = operatorEnd(s, i); end != std::string_view::npos) {
            out.append(s.substr(i, end - i));
            i = end;
            // The operator's own template arguments: "operator< <long>" (libiberty's space keeps them apart from
            // the operator's brackets), "operator()<int>".
            const size_t open = i < s.size() && s[i] == '<' ? i : i + 1 < s.size() && s[i] == ' ' && s[i + 1] == '<' ? i + 1
                                                                                                                 : std::string_view::npos;
            if (open != std::string_view::npos) {
                if (const size_t close = closingAngle(s, open); close != std::string_view::npos) {
                    if (keepBrackets)
                        out.append(s.substr(i, open - i)).append(emptyList);
                    i = close + 1;
                }
            }
            continue;
        }
        if (s[i] == '<') {
            const bool turbofish = out.size() >= 2 && out.compare(out.size() - 2, 2, "::") == 0;
            const bool afterName = !out.empty() && isIdentifier(out.back());
            const size_t close = closingAngle(s, i);
            if ((turbofish || afterName) && close != std::string_view::npos) {
                if (turbofish && !keepBrackets)
                    out.resize(out.size() - 2);
                out.append(emptyList);
                i = close + 1;
                continue;
            }
        }
        out += s[i++];
    }
    return out;
}

}   // namespace

std::string withoutTemplateArguments(std::string_view name)
{
    return rewriteArgumentLists(name, false);
}

std::string collapseTemplateArguments(std::string_view name)
{
    if (name.find('<') == std::string_view::npos)
        return std::string(name);
    return rewriteArgumentLists(name, true);
}

std::shared_ptr<const Profile> collapseTemplates(std::shared_ptr<const Profile> profile)
{
    return renameFunctions(std::move(profile), [](std::string_view name) -> std::optional<std::string> {
        if (name.find('<') == std::string_view::npos)
            return std::nullopt;
        return collapseTemplateArguments(name);
    });
}

}   // namespace qflame
