// A call graph (CallGraph.h) as text: the exact TSV of `qflame graph --tsv` and the Graphviz dot file of
// `--dot`. The CLI prints these; the window reads the same CallGraph, so both show the same graph.
#pragma once

#include "graph/CallGraph.h"

#include <string>
#include <vector>

namespace qflame {

// node<TAB>NAME<TAB>flat<TAB>cum per node (cum descending, then name), then
// edge<TAB>CALLER<TAB>CALLEE<TAB>weight<TAB>KIND per edge (weight descending, then caller, callee), KIND call,
// inline or residual. In a comparison: node NAME before_flat after_flat delta_flat before_cum after_cum delta_cum
// class, edge CALLER CALLEE before after delta class KIND, sorted by |delta|; under a normalisation the values
// are the scaled ones as diff --tsv prints them (shortest exact decimals). Names escape backslash, tab, newline and carriage return as \\ \t \n \r.
std::string graphTsv(const CallGraph &graph);

// A dot file Graphviz's dot lays out: boxes labelled with the short name, flat and cum, font size by flat,
// edges with their weight, pen width by weight, residual edges dotted, inline edges marked; a comparison in
// the diff colours (red more cost, green less, grey within noise).
// An edge with an inlining change (graph/GraphMarks.h) says it on a line of its label, in kInliningChangeColor.
std::string graphDot(const CallGraph &graph);

// The purple the diff flamegraph marks inlining changes with (ui/flame/FlamePainter), for the graph's edges too.
inline constexpr const char *kInliningChangeColor = "#7b1fa2";

// The order graphTsv prints: node indexes, then edge indexes.
std::vector<uint32_t> tsvNodeOrder(const CallGraph &graph);
std::vector<uint32_t> tsvEdgeOrder(const CallGraph &graph);

// pprof's ShortenFunctionName: a Go, Java or C++ name without its package path or namespace ("main.run" for
// "github.com/x/y/main.run"), for labels.
std::string shortFunctionName(const std::string &name);

// A node's label lines as pprof draws them: the short name split at '.' and "::", then file or address parts.
std::vector<std::string> nodeNameLines(const CallGraph &graph, uint32_t node);

// A raw value in the sample unit for people ("1.20s", "35MB": the pruning's cutoffs), a shown value (a delta under
// the comparison's normalisation: "+1.5 cores" per second, as the diff writes it; the raw value otherwise), and
// a shown value's share of the graph's shown total ("12.5%").
std::string graphValueText(const CallGraph &graph, int64_t value);
std::string graphDeltaText(const CallGraph &graph, double value);
std::string graphPercentText(const CallGraph &graph, double value);
// "Normalisation: total: the share view, ..." (the diff's sentence) when the graph is normalised, else "".
std::string graphNormalizationLine(const CallGraph &graph);

}   // namespace qflame
