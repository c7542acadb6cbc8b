// Two builds of the same functions compared instruction by instruction: each side's routines of that name, their
// instructions grouped by source line and inline frame (objdump's function, file and line), before, after and the
// cum delta per group, classed with the diff's noise rule (diff/DiffTree's classifyDelta; the Poisson standard
// error from both sides' samples/count, as the source listing's lines).
#pragma once

#include "diff/DiffTree.h"
#include "disasm/Disasm.h"

#include <cstdint>
#include <string>
#include <vector>

namespace qflame {

struct DisasmGroup {
    std::string routine;          // the ROUTINE (symbol) it belongs to
    std::string function, file;   // the inline frame and its source line (matched by the file's base name, the
                                  // baseline's path shown); empty without line information
    int64_t line = 0;
    int64_t beforeFlat = 0, beforeCum = 0, afterFlat = 0, afterCum = 0;
    double standardError = 0;
    DiffClass cls = DiffClass::Unchanged;
    bool sameCode = false;        // both sides have the same instruction texts, in order
    std::vector<DisasmInstruction> before, after;
    int64_t cumDelta() const { return wrappingAdd(afterCum, -beforeCum); }
};

struct DisasmDiff {
    std::string sampleType, unit;
    int64_t beforeTotal = 0, afterTotal = 0;
    bool countsKnown = false;
    double noiseK = 2.0;
    std::vector<DisasmGroup> groups;   // by routine, then file, line and function
};

DisasmDiff diffDisassembly(const Disassembly &before, const Disassembly &after, double noiseK);

}   // namespace qflame
