#include "WindowLauncher.h"

#include "ModuleFinder.h"
#include "WindowFiles.h"
#include "WindowHandoff.h"
#include "io/HelperThread.h"
#include "io/Prefault.h"
#include "names/NameOptions.h"
#include "tree/StagedTree.h"

#include <filesystem>
#include <string>

namespace qflame {

int runWindowProgram(int argc, char **argv)
{
    // The files' reading starts first, on this program's copy of the model, so that it runs while the module
    // and its libraries load; the window's own start (DocumentPane::startEarly) would read them the same way.
    const std::filesystem::path folder = programFolder();
    // QFLAME_WINDOW_MODULE names another module (empty: none, qflame-gui is started instead).
    const std::string module = findModule(folder, "libqflame-window.so", "QFLAME_WINDOW_MODULE");
    WindowHandoff handoff;
    const std::optional<WindowFiles> window =
        module.empty() || noDisplayNamed() ? std::nullopt : windowFilesOf(argc, argv);
    if (window) {
        windowHeap(size_t(256) << 20);   // before the reading threads (io/Prefault.h)
        // The threads the read starts (the job's submitter, the inflating thread, the prefaulter), made before
        // the module's load, which would hold up their making (io/HelperThread.h).
        makeSpareHelperThreads(3);
        ReadOptions options = NameOptions().appliedTo({});   // a tab's defaults (ui/document/PaneReading.cpp)
        if (window->maxReadBytes)
            options.maxDecompressedBytes = *window->maxReadBytes;
        handoff.job = startOpening(window->files, window->inverted, std::move(options));
        handoff.setViewCullDivisor = &StagedTreeBuild::setViewCullDivisor;
    }
    if (const auto entry = reinterpret_cast<WindowEntry>(moduleEntry(module, kWindowEntryName)))
        return entry(argc, argv, window ? &handoff : nullptr);

    handoff.job.view.cancel();
    handoff.job.diff.cancel();
    return execQflameGui(folder, argv);
}

}   // namespace qflame
