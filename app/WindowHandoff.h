// `qflame FILE` opens its window without a second program: it starts reading the files, then loads the window
// (libqflame-window.so, the whole of qflame-gui as a library) and hands the reading job over. Loading the GUI
// libraries took the 20-30 ms before qflame-gui's main (its 67 libraries, relocated and paged in) in which
// nothing was read; now they load on the main thread while the reading threads work (issue #31).
//
// The module has its own copy of the model, hidden behind its one exported function: the job runs on
// `qflame`'s, and only these plain values cross (both sides are built from one tree: `version` and `size`, first
// and of fixed types, let a module of another build refuse the rest).
#pragma once

#include "LoadJob.h"

#include <cstddef>
#include <cstdint>

namespace qflame {

struct WindowHandoff {
    const char *version = QFLAME_VERSION;
    size_t size = sizeof(WindowHandoff);
    OpeningJob job;
    // The reading side's StagedTreeBuild::setViewCullDivisor: the window works out the divisor from its
    // screens, and the job's first look must see it (the module's own setting would not reach that copy).
    void (*setViewCullDivisor)(int64_t divisor) = nullptr;
};

// The module's entry: qflame-gui's main, with the job `qflame` started (null when it started none).
using WindowEntry = int (*)(int argc, char **argv, WindowHandoff *handoff);
constexpr const char *kWindowEntryName = "qflame_window_main";

// qflame-gui's main (GuiMain.cpp), in qflame-gui and in the module.
int guiMain(int argc, char **argv, WindowHandoff *handoff);

}   // namespace qflame
