// The Assembly pane: one function's instructions as model/disasm gives them (flat and cum as go tool pprof -disasm
// counts them, objdump's instructions), with heat bars in the flat and cum columns, the source line (and its text,
// when the file is on this machine) interleaved where it changes, and the hottest instruction scrolled into view.
// The disassembly runs off the GUI thread; a missing binary, another build id or a stripped binary is the pane's one
// line, in the CLI's words.
#pragma once

#include "controls/LatestJob.h"
#include "disasm/Disasm.h"
#include "disasm/DisasmDiff.h"

#include <QWidget>

#include <map>
#include <memory>
#include <string>
#include <vector>

class QLabel;
class QStyledItemDelegate;
class QTreeWidget;
class QTreeWidgetItem;

namespace qflame {

struct AsmResult {
    std::shared_ptr<const Disassembly> disassembly;
    std::map<std::string, std::vector<QString>> sources;   // the source files' lines, where readable
    std::shared_ptr<const DisasmDiff> diff;   // a comparison's: the two builds grouped by source line
    QString error;
};

// The work of the job, exposed for tests: disassembles the function named exactly `function`.
AsmResult disassembleFunction(const std::vector<std::shared_ptr<const Profile>> &profiles, size_t type,
                              const std::string &function);

// A comparison's: each side disassembled from its own binary, grouped by source line and inline frame.
AsmResult disassembleFunctionDiff(const std::vector<std::shared_ptr<const Profile>> &before,
                                  const std::vector<std::shared_ptr<const Profile>> &after, size_t type,
                                  const std::string &function, double noiseK);

class AsmView : public QWidget {
    Q_OBJECT

public:
    explicit AsmView(QWidget *parent = nullptr);

    // Disassembles `function` of the tab's profiles off the GUI thread, then shows it; a newer request wins.
    void showFunction(std::vector<std::shared_ptr<const Profile>> profiles, size_t type, std::string function);
    // A comparison: the two builds side by side, per source line group its cum before and after and the delta in
    // the diff's class, then the group's instructions of each side in its column; where the code is the same, each
    // instruction's delta; calls that became inlined (the PGO panel's inlining changes) marked.
    void showFunctionDiff(std::vector<std::shared_ptr<const Profile>> before,
                          std::vector<std::shared_ptr<const Profile>> after, size_t type, std::string function,
                          double noiseK);
    void setResult(const AsmResult &result);
    bool isDisassembling() const { return m_job.running(); }

    // For tests: what is shown.
    QString titleText() const;
    QTreeWidget *tree() const { return m_tree; }
    QTreeWidgetItem *hottestItem() const { return m_hottest; }

Q_SIGNALS:
    void disassemblyReady();

private:
    void useSingleColumns();
    void showDiff(const DisasmDiff &d);   // AsmViewDiff.cpp
    LatestJob<AsmResult> m_job{this};
    QLabel *m_title;
    QTreeWidget *m_tree;
    QTreeWidgetItem *m_hottest = nullptr;
    QStyledItemDelegate *m_heat, *m_heatAfter, *m_jumps;
};

}   // namespace qflame
