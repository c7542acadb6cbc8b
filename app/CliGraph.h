// `qflame graph FILE...` and `qflame diff BASE NEW --graph`: the call graph of the model (graph/CallGraph.h),
// printed as GraphReport renders it (--tsv, --dot) or drawn by the window's painter (--svg, --png, qflame-gui).
#pragma once

#include "graph/CallGraph.h"

#include <memory>
#include <string>
#include <vector>

namespace qflame {

// runGraph and runDiffGraph (diff's arguments, --graph among them) are in CliVerbs.h.

// The picture of a graph (laid out by Graphviz, painted by ui/graphview): registered by qflame-gui, as
// CliRender.h's diff picture writer is. Returns an error message, or "".
using GraphPictureWriter = std::string (*)(std::shared_ptr<const CallGraph> graph, const std::string &path,
                                           bool svg);
void setGraphPictureWriter(GraphPictureWriter writer);

}   // namespace qflame
