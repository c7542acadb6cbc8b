// Branches read from the disassembler's text (binutils' AT&T or AArch64 syntax, or Go's): which instructions jump
// or call, and where to, so the Assembly pane can draw a function's jumps as arrows in lanes that do not overlap
// (as objdump --visualize-jumps and perf annotate do), and a diff can compare code ignoring addresses.
#pragma once

#include "disasm/Objdump.h"

#include <cstddef>
#include <string>
#include <vector>

namespace qflame {

// Sets in.branch, in.target and in.callee from in.text. `routine` and `start` resolve Go's "JMP main.spin(SB)"
// (a jump to the routine's own start, which binutils prints as an address).
void classifyBranch(Instruction &in, const std::string &routine, uint64_t start);

struct JumpArrow {
    size_t from = 0, to = 0;   // instruction indices within the routine
    int lane = 0;              // 0 nearest the instructions; arrows in one lane never overlap
};

// The direct jumps whose target is an instruction of `instructions` (one routine, by address), by source index.
// Lanes: shorter spans first, each in the lowest lane free over its whole span (its ends included, so arrows that
// share an instruction sit in different lanes).
// `jumpTargets[i]`: instruction i's jump target, 0 when it is no direct jump.
std::vector<JumpArrow> jumpArrows(const std::vector<uint64_t> &addresses, const std::vector<uint64_t> &jumpTargets);

template<typename Instructions>
std::vector<JumpArrow> jumpArrows(const Instructions &instructions)
{
    std::vector<uint64_t> addresses, targets;
    for (const Instruction &in : instructions) {
        addresses.push_back(in.address);
        targets.push_back(in.branch == Instruction::Branch::Jump ? in.target : 0);
    }
    return jumpArrows(addresses, targets);
}

// The instruction without what moves when code before it changes: branch targets (a call keeps its callee),
// "<sym+off>" and "# addr" annotations, RIP-relative displacements. Equal keys: the same instruction.
std::string codeKey(const Instruction &in);

}   // namespace qflame
