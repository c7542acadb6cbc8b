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
    // Filled by classifyBranch (disasm/Jumps.h) from the text: a direct jump's or call's destination (0: none or
    // indirect), and a call's callee symbol as the disassembler names it.
    enum class Branch : uint8_t { None, Jump, Call };
    Branch branch = Branch::None;
    uint64_t target = 0;
    std::string callee;
};

// The instructions of [start, end). Throws ProfileError when objdump fails. A Go binary's text is `go tool
// objdump`'s (Go's own syntax, as its users read it) where the go command is there, with the function and line of
// binutils' line tables (go tool objdump names no inline frames); binutils' objdump alone otherwise. The addresses
// are the same either way: both decode the same bytes, so the costs per address do not depend on the choice.
enum class Disassembler { Auto, Binutils, Go };
std::vector<Instruction> disassemble(const BinaryInfo &binary, uint64_t start, uint64_t end,
                                     Disassembler which = Disassembler::Auto);

// go tool objdump's text parsed (exposed for tests): "  main.go:22\t0x4b2120\t493b6610\tCMPQ 0x10(R14), SP".
std::vector<Instruction> parseGoObjdump(const QByteArray &text);

// objdump's text parsed (exposed for tests): instruction lines, "FUNCTION():" and "FILE:LINE" lines.
std::vector<Instruction> parseObjdump(const QByteArray &text);

}   // namespace qflame
