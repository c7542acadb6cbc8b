// qflame: the verbs on files that draw nothing run here, on QtCore alone. Loading and relocating the GUI libraries
// (Widgets, Gui, Svg, keychain and what they pull in: 60 shared libraries in all) took 8 of the 14 ms that every
// `qflame top` spent before reading its file, QtNetwork and its libraries 2.2 ms more. The window, the verbs that
// draw and the ones that ask a server are qflame-gui's, the full program: loaded as a library once the window's
// files are being read, or started in this process's place (WindowLauncher.h).
#include "Cli.h"
#include "io/PhaseTrace.h"
#include "io/Prefault.h"
#include "WindowLauncher.h"

#include <string>
#include <vector>

int main(int argc, char **argv)
{
    qflame::startPhaseTrace("qflame");
    // A verb's arrays and tables on huge pages: on this project's VM a page fault costs 17-22 us, and `qflame
    // top` on a 1-10 MB profile took 3,000-10,000 of them (issue #31: 0.09 -> 0.05 s on pprof__large.cpu). Not
    // for what qflame-gui's code runs in this process (the window, pictures, servers): a window that reads files
    // gets the window's heap instead (runWindowProgram), the others malloc's usual one.
    if (argc >= 2 && qflame::isCliVerb(argv[1]) &&
        qflame::verbRunsHere(argv[1], std::vector<std::string>(argv + 2, argv + argc)))
        qflame::hugePageHeap(size_t(256) << 20);
    if (const std::optional<int> status = qflame::runHeadless(argc, argv))
        return *status;
    return qflame::runWindowProgram(argc, argv);
}
