#include "ModuleFinder.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include <dlfcn.h>
#include <unistd.h>

namespace qflame {

std::filesystem::path programFolder()
{
    std::error_code error;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
    return error ? std::filesystem::path() : self.parent_path();
}

std::string findModule(const std::filesystem::path &folder, const char *fileName, const char *overrideVariable)
{
    if (const char *chosen = std::getenv(overrideVariable))
        return *chosen && access(chosen, R_OK) == 0 ? std::string(chosen) : std::string();
    if (folder.empty())
        return {};
    for (const std::filesystem::path &path : {folder / fileName, folder / ".." / "lib" / "qflame" / fileName})
        if (access(path.c_str(), R_OK) == 0)
            return path.string();
    return {};
}

int execQflameGui(const std::filesystem::path &folder, char **argv)
{
    std::string gui = folder.empty() ? std::string("qflame-gui") : (folder / "qflame-gui").string();
    argv[0] = gui.data();
    execvp(gui.c_str(), argv);
    std::cerr << "qflame: cannot start " << gui << " (the window, pictures and servers need it): "
              << std::strerror(errno) << "\n";
    return 127;
}

void *moduleEntry(const std::string &path, const char *entry)
{
    // Lazy binding, as the loader binds a program's own functions; local, so that the module's copies of the
    // static libraries stay its own.
    if (void *module = path.empty() ? nullptr : dlopen(path.c_str(), RTLD_LAZY | RTLD_LOCAL))
        return dlsym(module, entry);
    return nullptr;
}

}   // namespace qflame
