// `qflame disasm`: the functions a regex picks, disassembled from the profile's binaries, each instruction with its
// flat and cum exactly as `go tool pprof -disasm REGEX` prints them (report.PrintAssembly): the binaries of the
// mappings that hold a matching node (pprof's printable name), their symbols matching the regex (the raw name,
// then its demangled forms) and holding a node, the nodes of [start, end - 1) summed into the instruction at or
// before their object address. The instructions are objdump's; costs come from the profile alone.
#pragma once

#include "disasm/AddressCosts.h"
#include "disasm/Binary.h"
#include "disasm/Jumps.h"
#include "disasm/Objdump.h"
#include "io/Regex.h"
#include "pprof/Profile.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace qflame {

struct DisasmInstruction : Instruction {
    int64_t flat = 0, cum = 0;
    int64_t countCum = 0;    // the cum of samples/count where the profile has it (a diff's noise)
};

struct DisasmRoutine {
    std::string name;        // the symbol's name as the regex matched it (pprof's ROUTINE)
    std::string binary;      // the file disassembled
    uint64_t start = 0, end = 0;
    int64_t flat = 0, cum = 0;   // sums over the instructions (pprof's ROUTINE header)
    std::vector<DisasmInstruction> instructions;
    std::vector<JumpArrow> jumps;   // the jumps within the routine, in lanes (the pane draws them)
};

struct Disassembly {
    std::string sampleType, unit;
    int64_t total = 0;
    bool countsKnown = false;             // countCum filled
    std::vector<DisasmRoutine> routines;  // by name, then start
    std::vector<std::string> warnings;    // mappings skipped (binary missing) while others were found
};

// Throws ProfileError: no match ("no matches found for regexp: R", pprof's words), a binary missing, of another
// build id or stripped, objdump failing.
Disassembly disassembleProfiles(const std::vector<std::shared_ptr<const Profile>> &profiles, size_t sampleType,
                                const Regex &functions, const BinarySearch &search,
                                const std::string &regexText, Disassembler disassembler = Disassembler::Auto);

// pprof's symbol match: the first name of the symbol the regex matches, raw or demangled (c++filt's, then
// without parameters, then without template arguments either); empty when none does.
std::string matchSymbol(const Symbol &symbol, const Regex &functions);

}   // namespace qflame
