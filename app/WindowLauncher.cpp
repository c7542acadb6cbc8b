#include "WindowLauncher.h"

#include "WindowFiles.h"
#include "WindowHandoff.h"
#include "io/Prefault.h"
#include "names/NameOptions.h"
#include "tree/StagedTree.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <dlfcn.h>
#include <unistd.h>

namespace qflame {

namespace {

// This program's folder, from /proc; empty without /proc (a chroot, say).
std::filesystem::path programFolder()
{
    std::error_code error;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
    return error ? std::filesystem::path() : self.parent_path();
}

// Where the module may be: QFLAME_WINDOW_MODULE when set (empty: none, qflame-gui is started instead), else beside
// this program (the build tree) and in the installed tree's lib/qflame (app/CMakeLists.txt).
std::vector<std::string> moduleCandidates(const std::filesystem::path &folder)
{
    if (const char *chosen = std::getenv("QFLAME_WINDOW_MODULE"))
        return *chosen ? std::vector<std::string>{chosen} : std::vector<std::string>();
    if (folder.empty())
        return {};
    return {(folder / "libqflame-window.so").string(), (folder / ".." / "lib" / "qflame" / "libqflame-window.so").string()};
}

// The first candidate there is, or "" (then qflame-gui is started, and nothing is read here first).
std::string findWindowModule(const std::filesystem::path &folder)
{
    for (const std::string &path : moduleCandidates(folder))
        if (access(path.c_str(), R_OK) == 0)
            return path;
    return {};
}

WindowEntry loadWindowModule(const std::string &path)
{
    // Lazy binding, as the loader binds qflame-gui's own functions; local, so that the module's copy of the
    // model stays its own.
    if (void *module = path.empty() ? nullptr : dlopen(path.c_str(), RTLD_LAZY | RTLD_LOCAL))
        if (void *entry = dlsym(module, kWindowEntryName))
            return reinterpret_cast<WindowEntry>(entry);
    return nullptr;
}

}   // namespace

int runWindowProgram(int argc, char **argv)
{
    // The files' reading starts first, on this program's copy of the model, so that it runs while the module
    // and its libraries load; the window's own start (DocumentPane::startEarly) would read them the same way.
    const std::filesystem::path folder = programFolder();
    const std::string module = findWindowModule(folder);
    WindowHandoff handoff;
    const std::optional<WindowFiles> window =
        module.empty() || noDisplayNamed() ? std::nullopt : windowFilesOf(argc, argv);
    if (window) {
        windowHeap(size_t(256) << 20);   // before the reading threads (io/Prefault.h)
        ReadOptions options = NameOptions().appliedTo({});   // a tab's defaults (ui/document/PaneReading.cpp)
        if (window->maxReadBytes)
            options.maxDecompressedBytes = *window->maxReadBytes;
        handoff.job = startOpening(window->files, window->inverted, std::move(options));
        handoff.setViewCullDivisor = &StagedTreeBuild::setViewCullDivisor;
    }
    if (const WindowEntry entry = loadWindowModule(module))
        return entry(argc, argv, window ? &handoff : nullptr);

    handoff.job.view.cancel();
    handoff.job.diff.cancel();
    // Beside this program's file; without /proc, wherever PATH finds it, as it found `qflame` (argv[0] is a bare
    // name then, and its directory would be the current one).
    std::string gui = folder.empty() ? std::string("qflame-gui") : (folder / "qflame-gui").string();
    argv[0] = gui.data();
    execvp(gui.c_str(), argv);
    std::cerr << "qflame: cannot start " << gui << " (the window, pictures and servers need it): "
              << std::strerror(errno) << "\n";
    return 127;
}

}   // namespace qflame
