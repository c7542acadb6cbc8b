// The option groups several verbs share, for the table's rows (VerbTable.cpp, VerbRows.cpp).
#pragma once

#include "VerbTable.h"

#include <initializer_list>

namespace qflame {

using Options = std::vector<OptionSpec>;

Options join(std::initializer_list<Options> groups);

extern const OptionSpec kSample, kGranularity, kTsv, kCsv, kJson, kNoise, kMaxSize, kInverted;

Options common();        // --demangle, --collapse-templates, --profile: every verb
Options fetching();      // how to fetch URL FILEs
Options files();         // --max-size, common() and fetching(): the verbs that read files
Options timeRange();     // --from, --to over sample times
Options filters();       // pprof's --focus ... --tagignore
Options labelFrames();   // --tagroot, --tagleaf
Options server(bool query = true);   // a server's connection (and, with `query`, --query, --from, --to)
Options graphPruning();   // --nodecount, --nodefraction, --edgefraction
Options graphOutputs();   // --tsv, --json, --dot, --svg, --png
Options graphOptions();
Options roundOutputs();

// The longer rows (VerbRows.cpp).
VerbSpec diffForm();
VerbSpec diffGraphForm();
VerbSpec diffDisasmForm();
VerbSpec convertForm();
VerbSpec pgoForm();
VerbSpec roundsForm();
VerbSpec roundsGraphForm();
VerbSpec listForm();
VerbSpec disasmForm();
VerbSpec heatmapForm();

}   // namespace qflame
