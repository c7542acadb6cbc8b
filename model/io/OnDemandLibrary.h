// Opening a shared library when it is first used, for the calls `qflame` and the window define in place of a
// needed library's (io/IsalOnDemand.cpp, graph/GraphvizOnDemand.cpp): listed among a program's needed libraries,
// the loader maps and relocates it at every start, whether or not the run uses it (issue #31).
#pragma once

#include <dlfcn.h>

#include <string>

namespace qflame {

// The library by the soname the build linked against, first in the folder where the build found it (which spares
// the loader its search through ld.so.cache), then by name; its own needed libraries come with it. Null, with the
// loader's reason in *error, where it cannot be loaded.
inline void *openOnDemand(const std::string &buildFolder, const char *soname, std::string *error)
{
    void *library = dlopen((buildFolder + "/" + soname).c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library)
        library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        *error = why ? why : std::string(soname) + " not found";
    }
    return library;
}

}   // namespace qflame
