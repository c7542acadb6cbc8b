// Where `qflame`'s modules are (libqflame-cli.so, libqflame-window.so): beside the program (the build tree) or in
// the installed tree's lib/qflame (app/CMakeLists.txt).
#pragma once

#include <filesystem>
#include <string>

namespace qflame {

// This program's folder, from /proc; empty without /proc (a chroot, say).
std::filesystem::path programFolder();

// The module `fileName` in `folder` or ../lib/qflame, or "" when neither is readable. The environment variable
// `overrideVariable`, when set, names the module instead (empty: none).
std::string findModule(const std::filesystem::path &folder, const char *fileName, const char *overrideVariable);

// Starts qflame-gui (which runs every verb and the window) in this process's place: beside this program, or
// wherever PATH finds it without /proc (argv[0] is a bare name then, and its folder would be the current one).
// Returns 127 after one line on standard error when it cannot.
int execQflameGui(const std::filesystem::path &folder, char **argv);

// dlopen's the module (lazy binding, local, so that its copy of the model stays its own) and returns its symbol
// `entry`, or null.
void *moduleEntry(const std::string &path, const char *entry);

}   // namespace qflame
