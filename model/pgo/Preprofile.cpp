#include "pgo/Preprofile.h"

#include "io/ReadOptions.h"

namespace qflame {

std::string preprofileText(const PgoEdges &edges)
{
    if (!edges.hasStartLines && !edges.edges.empty())
        throw ProfileError("no Function.start_line in the profile: go tool preprofile and go build -pgo reject it, "
                           "so no preprofile is written");
    std::string out = "GO PREPROFILE V1\n";
    for (const PgoEdge &e : edges.edges) {
        for (const std::string *name : {&e.caller, &e.callee}) {
            if (name->find('\n') != std::string::npos)
                throw ProfileError("the function name '" + name->substr(0, name->find('\n')) +
                                   "...' holds a newline, which a preprofile cannot carry");
            out += *name;
            out += '\n';
        }
        out += std::to_string(e.offset) + ' ' + std::to_string(e.weight) + '\n';
    }
    return out;
}

}   // namespace qflame
