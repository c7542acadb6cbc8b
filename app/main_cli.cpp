// qflame: the verbs on files that draw nothing run here, on QtCore alone. Loading and relocating the GUI libraries
// (Widgets, Gui, Svg, keychain and what they pull in: 60 shared libraries in all) took 8 of the 14 ms that every
// `qflame top` spent before reading its file, QtNetwork and its libraries 2.2 ms more. The window, the verbs that
// draw and the ones that ask a server are qflame-gui's, the full program, installed beside this one: it is
// started in this process's place, with the same arguments.
#include "Cli.h"
#include "io/PhaseTrace.h"
#include "io/Prefault.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>

#include <unistd.h>

int main(int argc, char **argv)
{
    qflame::startPhaseTrace("qflame");
    // A verb's arrays and tables on huge pages: on this project's VM a page fault costs 17-22 us, and `qflame
    // top` on a 1-10 MB profile took 3,000-10,000 of them (issue #31: 0.09 -> 0.05 s on pprof__large.cpu).
    qflame::hugePageHeap(size_t(256) << 20);
    if (const std::optional<int> status = qflame::runHeadless(argc, argv))
        return *status;
    // Beside this program's file; without /proc (a chroot, say), wherever PATH finds it, as it found `qflame`
    // (argv[0] is a bare name then, and its directory would be the current one).
    std::error_code error;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
    std::string gui = error ? std::string("qflame-gui") : (self.parent_path() / "qflame-gui").string();
    argv[0] = gui.data();
    execvp(gui.c_str(), argv);
    std::cerr << "qflame: cannot start " << gui << " (the window, pictures and servers need it): "
              << std::strerror(errno) << "\n";
    return 127;
}
