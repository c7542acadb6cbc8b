// What a comparison's call graph learns from elsewhere, added to a copy of it:
// - the PGO panel's inlining changes (pgo/InliningChanges.h) on the edges whose caller and callee they name, as the
//   diff flamegraph marks its frames (ui/compare/DiffSource's callMarksOf): a call that became or stopped being
//   inlined between the two profiles;
// - the rounds' measured noise (diff/DiffTable.h's MeasuredNoise) on the nodes whose functions it names, as the
//   diff table of a comparison opened from rounds classes its functions: the node's cum delta in the rounds' unit
//   (per second) against K measured standard errors instead of Poisson's; and on the call edges it names (caller,
//   callee), each edge's weight delta against its own measured error (the spread of the rounds' per-file weights).
#pragma once

#include "graph/CallGraph.h"
#include "pgo/InliningChanges.h"

#include <memory>
#include <optional>
#include <string>

namespace qflame {

// A copy of `graph` whose non-residual edges carry the change of `changes` naming their caller and callee
// (function names, at any granularity). A graph that is not a comparison is returned as it is.
std::shared_ptr<const CallGraph> withInliningChanges(std::shared_ptr<const CallGraph> graph,
                                                     const InliningChanges &changes);

// The inlining change of an edge, if any.
std::optional<InliningChange::Kind> edgeInliningChange(const CallGraph &graph, uint32_t edge);

// "became inlined" etc. for an edge's label, "" when the edge has none.
std::string edgeInliningText(const CallGraph &graph, uint32_t edge);

// A copy of `graph` whose nodes named by `noise` (by name, or by name with pprof's " (inline)") and whose
// non-residual edges named by it (caller and callee name) are classed by the measured errors. A residual edge
// (a path through dropped nodes) keeps Poisson's: its weight is the pruned graph's, not a call's. `scaleBefore` and `scaleAfter` turn the graph's raw values into the unit of the errors
// (DiffTree::beforeScale()/afterScale() of the comparison under noise.normalization). The errors must be > 0.
std::shared_ptr<const CallGraph> withMeasuredNoise(std::shared_ptr<const CallGraph> graph, const MeasuredNoise &noise,
                                                   double scaleBefore, double scaleAfter);

// How many nodes, and how many edges, use a measured error.
size_t measuredNodeCount(const CallGraph &graph);
size_t measuredEdgeCount(const CallGraph &graph);

}   // namespace qflame
