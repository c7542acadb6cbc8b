// `qflame pgo` and `qflame diff --inlining`: Go's PGO edges with their readiness and devirtualisation candidates,
// and the calls whose inlining changed between two profiles, for people, as TSV and as JSON.
#pragma once

#include "pgo/InliningChanges.h"
#include "pgo/PgoEdges.h"
#include "pgo/PgoReadiness.h"
#include "report/Report.h"

#include <string>
#include <vector>

namespace qflame {

// caller<TAB>callee<TAB>offset<TAB>weight<TAB>hot (1 or 0) per edge, in the compiler's order.
void writePgoTsv(const PgoEdges &edges, const TextSink &out);

// The readiness lines, the edge table (rank, caller, callee, offset, weight, share%, cum%, hot) at `threshold`,
// then the devirtualisation candidates.
void writePgoText(const PgoEdges &edges, const std::vector<PgoReadinessLine> &readiness, double threshold,
                  const TextSink &out);

// {"report":"pgo","version":1,"sample_type","threshold","total_weight","hot_count","readiness":[...],
//  "edges":[{caller,callee,offset,weight,cum_weight,hot}],"candidates":[...]}
std::string pgoJson(const PgoEdges &edges, const std::vector<PgoReadinessLine> &readiness, double threshold);

// inlining<TAB>KIND<TAB>caller<TAB>callee<TAB>base_called<TAB>base_inlined<TAB>new_called<TAB>new_inlined, then
// hot<TAB>appeared|vanished<TAB>caller<TAB>callee<TAB>offset<TAB>base_weight<TAB>new_weight.
void writeInliningTsv(const InliningChanges &changes, const TextSink &out);
void writeInliningText(const InliningChanges &changes, const std::string &baseName, const std::string &newName,
                       const TextSink &out);
// {"report":"inlining","version":1,"sample_type","base","new","inlining":[...],"hot_edges":[...]}
std::string inliningJson(const InliningChanges &changes, const std::string &baseName, const std::string &newName);

}   // namespace qflame
