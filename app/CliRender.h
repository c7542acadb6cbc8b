// Pictures for the headless verbs: the diff flamegraph as PNG or SVG, from the window's painting code.
#pragma once

#include "DiffTree.h"

#include <memory>
#include <string>

namespace qflame {

// Writes the whole diff flamegraph (every level, `width` pixels wide) to `path`; SVG when `svg`, else PNG.
// Needs a QGuiApplication (main() makes one, offscreen, for verbs that draw). Returns an error message, or "".
std::string renderDiffPicture(std::shared_ptr<const DiffTree> diff, const std::string &path, bool svg, int width = 1600);

}   // namespace qflame
