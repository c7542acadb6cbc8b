// The run functions of the verb table's rows (VerbTable.h): each takes the arguments the one parser read.
#pragma once

#include "VerbTable.h"

namespace qflame {

int runInfo(const ParsedArgs &args);       // Cli.cpp
int runTop(const ParsedArgs &args);        // Cli.cpp
int runDiff(const ParsedArgs &args);       // CliDiff.cpp
int runDiffGraph(const ParsedArgs &args);  // CliGraph.cpp
int runDiffDisasm(const ParsedArgs &args); // CliDisasm.cpp
int runConvert(const ParsedArgs &args);    // CliFormats.cpp
int runPgo(const ParsedArgs &args);        // CliPgo.cpp
int runRounds(const ParsedArgs &args);     // CliRounds.cpp
int runRoundsGraph(const ParsedArgs &args);   // CliGraph.cpp
int runList(const ParsedArgs &args);       // CliList.cpp
int runDisasm(const ParsedArgs &args);     // CliDisasm.cpp
int runGraph(const ParsedArgs &args);      // CliGraph.cpp
int runHeatmap(const ParsedArgs &args);    // CliHeatmap.cpp

}   // namespace qflame
