// libqflame-cli.so's one exported symbol (everything else is local: app/cli.map): what `qflame` does not run
// without Qt. The verbs on files other than info and top run here on QtCore, as `qflame` ran them before it
// was built without Qt; the window, the verbs that draw and those that ask a server go on to qflame-gui's code
// (WindowLauncher.h).
#include "Cli.h"
#include "WindowLauncher.h"
#include "io/PhaseTrace.h"
#include "io/Prefault.h"

#include <string>
#include <vector>

extern "C" __attribute__((visibility("default"))) int qflame_cli_main(int argc, char **argv)
{
    qflame::startPhaseTrace("cli module");
    // A verb's arrays and tables on huge pages (main_cli.cpp says why); not for what qflame-gui's code runs in
    // this process (the window, pictures, servers): a window that reads files gets the window's heap instead
    // (runWindowProgram), the others malloc's usual one.
    if (argc >= 2 && qflame::isCliVerb(argv[1]) &&
        qflame::verbRunsHere(argv[1], std::vector<std::string>(argv + 2, argv + argc)))
        qflame::hugePageHeap(size_t(256) << 20);
    if (const std::optional<int> status = qflame::runHeadless(argc, argv))
        return *status;
    return qflame::runWindowProgram(argc, argv);
}
