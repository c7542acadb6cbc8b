// qflame-test-handoff MODE FILE: opens FILE's window as `qflame` does (WindowLauncher.cpp): the reading job
// started first, then the window module loaded and handed it. MODE "same" hands it as `qflame` does; "version"
// and "size" as a `qflame` of another build would (WindowHandoff.h), which the module must refuse, reading the
// file itself. For tst_windowargs::foreignHandoffRefused; the window paints once and exits (--time-to-paint).
#include "WindowHandoff.h"
#include "io/PhaseTrace.h"
#include "tree/StagedTree.h"

#include <dlfcn.h>

#include <cstdio>
#include <string>

int main(int argc, char **argv)
{
    if (argc != 3)
        return 64;
    qflame::startPhaseTrace("qflame");
    const std::string mode = argv[1];
    qflame::WindowHandoff handoff;
    handoff.job = qflame::startOpening({QString::fromLocal8Bit(argv[2])}, false, qflame::ReadOptions());
    handoff.setViewCullDivisor = &qflame::StagedTreeBuild::setViewCullDivisor;
    if (mode == "version")
        handoff.version = "0.0.0-another-build";
    else if (mode == "size")
        handoff.size -= sizeof(void *);
    else if (mode != "same")
        return 64;
    // The job done before the window starts: its "read" mark comes first, whether the window takes it or not.
    handoff.job.view.waitForFinished();
    void *module = dlopen(QFLAME_WINDOW_MODULE, RTLD_NOW | RTLD_LOCAL);
    const auto entry = module ? reinterpret_cast<qflame::WindowEntry>(dlsym(module, qflame::kWindowEntryName)) : nullptr;
    if (!entry) {
        std::fprintf(stderr, "cannot load %s: %s\n", QFLAME_WINDOW_MODULE, dlerror());
        return 70;
    }
    char paint[] = "--time-to-paint";
    char *args[] = {argv[0], paint, argv[2], nullptr};
    return entry(3, args, &handoff);
}
