// Pictures for the headless verbs. The drawing is the window's painting code (ui), which only qflame-gui links:
// it registers it here at start. `qflame` itself stays free of the GUI libraries and hands verbs that draw to
// qflame-gui (main_cli.cpp).
#pragma once

#include "diff/DiffTree.h"

#include <memory>
#include <string>

namespace qflame {

// Writes the whole diff flamegraph (every level, `width` pixels wide) to `path`; SVG when `svg`, else PNG.
// Returns an error message, or "".
using DiffPictureWriter = std::string (*)(std::shared_ptr<const DiffTree> diff, const std::string &path, bool svg,
                                          int width);
void setDiffPictureWriter(DiffPictureWriter writer);

// Calls the registered writer; an error message when there is none (a program without the GUI libraries).
std::string renderDiffPicture(std::shared_ptr<const DiffTree> diff, const std::string &path, bool svg, int width = 1600);

}   // namespace qflame
