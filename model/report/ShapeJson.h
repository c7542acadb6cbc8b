// The `--json` of the verbs whose results are shapes rather than tables: `graph` (and `diff --graph`), `heatmap`
// and `disasm`. Each holds the numbers the verb's --tsv prints, in its order (docs/json.md is the schema); JsonOut
// keeps the integers exact.
#pragma once

#include "disasm/Disasm.h"
#include "disasm/DisasmDiff.h"
#include "graph/CallGraph.h"
#include "time/Heatmap.h"

#include <string>

namespace qflame {

// {"sample_type", "unit", "total", "diff", "nodes": [...], "edges": [...]}: a node {"name", "flat", "cum"}, an
// edge {"caller", "callee", "weight", "kind"}; in a comparison each value is before_X, after_X and delta_X, and a
// node and an edge have "class".
std::string graphJson(const CallGraph &graph);
// {"sample_type", "unit", "column_ns", "rows", "columns", "max", "cells": [{"column_start_ns", "row", "value"}]},
// only the non-empty cells, in time order.
std::string heatmapJson(const Heatmap &heatmap, const std::string &sampleType, const std::string &unit);
// {"sample_type", "unit", "total", "routines": [{"name", "binary", "flat", "cum", "instructions": [{"address"
// (hex text), "flat", "cum", "file", "line", "text"}]}]}.
std::string disasmJson(const Disassembly &d);
// diff --disasm: {"sample_type", "unit", "before_total", "after_total", "noise_k", "counts_known", "groups": [{
// "routine", "function", "file", "line", "before_cum", "after_cum", "delta_cum", "class", "same_code",
// "before": [instruction], "after": [instruction], "paired": [{"flat_delta", "cum_delta", "class"}] (one per
// instruction where the code is the same), "became_inlined": [callee, ...]}]}; an instruction {"address" (hex
// text), "flat", "cum", "text"}.
std::string disasmDiffJson(const DisasmDiff &d);

}   // namespace qflame
