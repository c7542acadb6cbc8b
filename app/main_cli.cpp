// qflame: `qflame info` and `qflame top` on files run here without loading Qt. Qt Core and the libraries it
// pulls in (ICU, glib, PCRE2-16, double-conversion) took 7-9 ms of every start on this project's VM, and their
// QCoreApplication 1.5 ms more: most of `qflame top` on a small profile (issue #31). Everything else is
// libqflame-cli.so's (CliModule.cpp): the other verbs on QtCore, as this program ran them before, and, through
// it, qflame-gui's window, pictures and servers (WindowLauncher.h). Without the module, qflame-gui (which runs
// every verb) is started in this process's place.
#include "Cli.h"
#include "ModuleFinder.h"
#include "io/PhaseTrace.h"
#include "io/Prefault.h"

#include <string>
#include <vector>

namespace {

using CliEntry = int (*)(int argc, char **argv);

int runElsewhere(int argc, char **argv)
{
    const std::filesystem::path folder = qflame::programFolder();
    // QFLAME_CLI_MODULE names another module (empty: none, qflame-gui is started instead).
    const std::string module = qflame::findModule(folder, "libqflame-cli.so", "QFLAME_CLI_MODULE");
    if (const auto entry = reinterpret_cast<CliEntry>(qflame::moduleEntry(module, "qflame_cli_main")))
        return entry(argc, argv);
    return qflame::execQflameGui(folder, argv);
}

}   // namespace

int main(int argc, char **argv)
{
    qflame::startPhaseTrace("qflame");
    if (argc >= 2 && qflame::isCliVerb(argv[1])) {
        const std::vector<std::string> args(argv + 2, argv + argc);
        qflame::registerCoreVerbs();
        if (qflame::hasVerbRun(argv[1], args) && qflame::verbRunsHere(argv[1], args)) {
            // A verb's arrays and tables on huge pages: on this project's VM a page fault costs 17-22 us, and
            // `qflame top` on a 1-10 MB profile took 3,000-10,000 of them (issue #31: 0.09 -> 0.05 s on
            // pprof__large.cpu).
            qflame::hugePageHeap(size_t(256) << 20);
            qflame::keepVerbHeap();
            qflame::endVerbProcess(qflame::runCli(argv[1], args));
        }
    }
    return runElsewhere(argc, argv);
}
