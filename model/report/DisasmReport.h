// `qflame disasm` and `qflame diff --disasm` rendered: TSV (exact integers, addresses in hex) and text for people
// (pprof's -disasm layout: flat, cum, address, instruction, the source line where it changes).
#pragma once

#include "disasm/Disasm.h"
#include "disasm/DisasmDiff.h"
#include "report/Report.h"

namespace qflame {

// function<TAB>address<TAB>flat<TAB>cum<TAB>file:line<TAB>instruction per instruction.
void writeDisasmTsv(const Disassembly &d, const TextSink &out);
void writeDisasmText(const Disassembly &d, const TextSink &out);

// group<TAB>routine<TAB>function<TAB>file:line<TAB>before<TAB>after<TAB>delta<TAB>class (cum), then each side's
// instructions: before|after<TAB>address<TAB>flat<TAB>cum<TAB>instruction.
void writeDisasmDiffTsv(const DisasmDiff &d, const TextSink &out);
// Text: per group its cum before, after, delta and class, then both sides' instructions side by side; where the
// group's code is the same, each instruction's cum delta (and class unless unchanged) at the row's end; calls that
// became inlined marked "<- became inlined (callee)", the new build's inline frame of such a callee "(... here)".
void writeDisasmDiffText(const DisasmDiff &d, const TextSink &out);

}   // namespace qflame
