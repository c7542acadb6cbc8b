// The run function of every verb that reads files, registered in the verb table: qflame-gui's, the window
// module's and libqflame-cli.so's (runHeadless registers them). `qflame` itself registers only the verbs its
// Qt-free core runs (registerCoreVerbs).
#include "Cli.h"
#include "CliVerbs.h"
#include "VerbTable.h"

namespace qflame {

void registerFileVerbs()
{
    registerCoreVerbs();
    setVerbRun("diff", nullptr, runDiff);
    setVerbRun("diff", "--graph", runDiffGraph);
    setVerbRun("diff", "--disasm", runDiffDisasm);
    setVerbRun("convert", nullptr, runConvert);
    setVerbRun("pgo", nullptr, runPgo);
    setVerbRun("rounds", nullptr, runRounds);
    setVerbRun("rounds", "--graph", runRoundsGraph);
    setVerbRun("list", nullptr, runList);
    setVerbRun("graph", nullptr, runGraph);
    setVerbRun("disasm", nullptr, runDisasm);
    setVerbRun("heatmap", nullptr, runHeatmap);
}

}   // namespace qflame
