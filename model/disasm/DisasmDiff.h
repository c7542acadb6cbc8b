// Two builds of the same functions compared instruction by instruction: each side's routines of that name, their
// instructions grouped by source line and inline frame (objdump's function, file and line), before, after and the
// cum delta per group, classed with the diff's noise rule (diff/DiffTree's classifyDelta; the Poisson standard
// error from both sides' samples/count, as the source listing's lines).
#pragma once

#include "diff/DiffTree.h"
#include "disasm/Disasm.h"
#include "pgo/InliningChanges.h"

#include <cstdint>
#include <string>
#include <vector>

namespace qflame {

// Instruction i of both sides of a group whose code is the same: its own delta, classed as the groups are.
struct InstructionDelta {
    int64_t flatDelta = 0, cumDelta = 0;
    double standardError = 0;
    DiffClass cls = DiffClass::Unchanged;
};

// A call of the baseline whose call edge became (partly) inlined in the new build (pgo/InliningChanges).
struct InlinedCall {
    size_t instruction = 0;   // index into the group's `before`
    std::string callee;
    InliningChange::Kind kind = InliningChange::Kind::BecameInlined;
};

struct DisasmGroup {
    std::string routine;          // the ROUTINE (symbol) it belongs to
    std::string function, file;   // the inline frame and its source line (matched by the file's base name, the
                                  // baseline's path shown); empty without line information
    int64_t line = 0;
    int64_t beforeFlat = 0, beforeCum = 0, afterFlat = 0, afterCum = 0;
    double standardError = 0;
    DiffClass cls = DiffClass::Unchanged;
    bool sameCode = false;        // both sides have the same instructions, in order, ignoring addresses (codeKey)
    std::vector<DisasmInstruction> before, after;
    std::vector<InstructionDelta> paired;   // one per instruction when sameCode, else empty
    std::vector<InlinedCall> inlinedCalls;  // filled by markInliningChanges
    // The group is the inline frame of a callee that became (partly) inlined into its routine: -1 when not, else
    // an InliningChange::Kind.
    int inlinedHere = -1;
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

// The inlining changes of the two profiles (as the PGO panel and the graph's marks compute them) on the code:
// a baseline call whose (caller, callee) became inlined or partly inlined, the caller being the call's inline
// frame (its routine without line information); and the new build's groups that are that callee's inline frame.
// Names are compared without C++ parameter lists (objdump -C prints them, profiles may not).
void markInliningChanges(DisasmDiff &diff, const InliningChanges &changes);

}   // namespace qflame
