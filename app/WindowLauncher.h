// How `qflame` runs what it does not do itself (the window, the verbs that draw or ask a server): qflame-gui's
// main, loaded as libqflame-window.so beside the files' reading (WindowHandoff.h), or qflame-gui started in this
// process's place where the module cannot be loaded.
#pragma once

namespace qflame {

// Runs the window or verb the arguments ask for; returns its status (or, when even qflame-gui cannot be started,
// 127 after one line on standard error).
int runWindowProgram(int argc, char **argv);

}   // namespace qflame
