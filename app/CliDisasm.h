// `qflame disasm` and `qflame diff --disasm`: the cost of every instruction (model/disasm), printed by
// model/report's DisasmReport.
#pragma once

#include <string>
#include <vector>

namespace qflame {

// runDisasm and runDiffDisasm are in CliVerbs.h.

}   // namespace qflame
