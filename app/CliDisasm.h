// `qflame disasm` and `qflame diff --disasm`: the cost of every instruction (model/disasm), printed by
// model/report's DisasmReport.
#pragma once

#include <string>
#include <vector>

namespace qflame {

int runDisasm(const std::vector<std::string> &args);
int runDiffDisasm(const std::vector<std::string> &args);

}   // namespace qflame
