// The diff flamegraph as a picture, drawn by the window's painter: what qflame-gui registers as the
// DiffPictureWriter of the headless verbs (CliRender.h).
#pragma once

#include "diff/DiffTree.h"

#include <memory>
#include <string>

namespace qflame {

// Needs a QGuiApplication (qflame-gui makes one, offscreen, for verbs that draw). Returns an error message, or "".
std::string writeDiffPicture(std::shared_ptr<const DiffTree> diff, const std::string &path, bool svg, int width);

}   // namespace qflame
