// libqflame-window.so's one exported symbol (WindowHandoff.h; everything else is local: app/window.map).
#include "WindowHandoff.h"
#include "io/PhaseTrace.h"

#include <cstring>

extern "C" __attribute__((visibility("default"))) int qflame_window_main(int argc, char **argv,
                                                                          qflame::WindowHandoff *handoff)
{
    qflame::startPhaseTrace("window module");
    // A `qflame` of another build: its job's layout may differ from this one's, so it is left alone (it reads
    // on, unused, until the process ends) and the window reads the files itself.
    if (handoff && (std::strcmp(handoff->version, QFLAME_VERSION) != 0 || handoff->size != sizeof(*handoff)))
        handoff = nullptr;
    return qflame::guiMain(argc, argv, handoff);
}
