// qflame-gui: the whole program (GuiMain.cpp), for a desktop launcher and for whatever starts it by name.
#include "WindowHandoff.h"
#include "io/PhaseTrace.h"

int main(int argc, char **argv)
{
    qflame::startPhaseTrace("qflame-gui");
    return qflame::guiMain(argc, argv, nullptr);
}
