// qflame-gui: the whole program (GuiMain.cpp), for a desktop launcher and for whatever starts it by name.
#include "WindowFiles.h"
#include "WindowHandoff.h"
#include "io/PhaseTrace.h"
#include "io/Prefault.h"

#include <cstddef>

int main(int argc, char **argv)
{
    qflame::startPhaseTrace("qflame-gui");
    if (!qflame::noDisplayNamed() && qflame::windowFilesOf(argc, argv))   // a window that reads files at once
        qflame::windowHeap(size_t(256) << 20);                             // before any thread (io/Prefault.h)
    return qflame::guiMain(argc, argv, nullptr);
}
