// A function's instructions as binutils' objdump prints them (-d -l -C --no-show-raw-insn), with the source line
// and (inlined) function objdump's line tables give each: the disassembler is objdump's, never ours.
#pragma once

#include "disasm/Binary.h"

#include <QByteArray>

#include <cstdint>
#include <string>
#include <vector>

namespace qflame {

struct Instruction {
    uint64_t address = 0;     // in the object file (pprof's ObjAddr space)
    std::string text;         // "mov    %rbp,0x50(%rsp)"
    std::string function;     // objdump's function of the line table: the innermost inlined one
    std::string file;         // the source file's path as the line table has it; empty without line information
    int64_t line = 0;
};

// The instructions of [start, end). Throws ProfileError when objdump fails.
std::vector<Instruction> disassemble(const BinaryInfo &binary, uint64_t start, uint64_t end);

// objdump's text parsed (exposed for tests): instruction lines, "FUNCTION():" and "FILE:LINE" lines.
std::vector<Instruction> parseObjdump(const QByteArray &text);

}   // namespace qflame
