#include "CliRender.h"

namespace qflame {

namespace {
DiffPictureWriter g_writer = nullptr;   // set once by qflame-gui's main() before any verb runs
}

void setDiffPictureWriter(DiffPictureWriter writer)
{
    g_writer = writer;
}

std::string renderDiffPicture(std::shared_ptr<const DiffTree> diff, const std::string &path, bool svg, int width)
{
    if (!g_writer)
        return "drawing needs the GUI libraries (internal error: this program has no picture writer)";
    return g_writer(std::move(diff), path, svg, width);
}

}   // namespace qflame
