// Which local files a window is asked to open on the command line (`qflame FILE`, `qflame BASE NEW`), known before
// any window exists: their reading starts at once (DocumentPane::startEarly, or `qflame` itself: WindowLauncher).
#pragma once

#include <QStringList>

#include <cstdint>
#include <optional>

namespace qflame {

struct WindowFiles {
    QStringList files;                      // one profile, or a comparison's base and new
    bool inverted = false;                  // --inverted: the profile bottom-up
    std::optional<uint64_t> maxReadBytes;   // --max-size MIB
};

// The files when the arguments after the program's name are one or two existing files with no options but
// --time-to-paint, --inverted and --max-size (a valid one); nothing for anything else (a verb, a URL, Qt's own
// options, a server, a wrong --max-size: the window says what is wrong, as before).
std::optional<WindowFiles> windowFilesOf(int argc, char **argv);

// Whether Qt would look for an X11 or Wayland display and find none named in the environment.
bool noDisplayNamed();

}   // namespace qflame
