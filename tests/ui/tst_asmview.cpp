// The Assembly pane (ui/asmview): a Go program built and profiled here, its main.spin disassembled off the GUI
// thread; the instructions' cells are model/disasm's (the CLI's numbers), source lines interleaved where they
// change, the hottest instruction current and in view; a missing binary is the pane's one line. With
// QFLAME_SCREENSHOT set, the pane is saved there as a PNG to look at.
#include "GoToolchain.h"
#include "asmview/AsmDelegates.h"
#include "asmview/AsmView.h"
#include "formats/ProfileInput.h"
#include "pprof/PprofLabels.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <map>
#include <set>

using namespace qflame;
using namespace qflame::pgotest;

class tst_AsmView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void goProgram();
};

void tst_AsmView::goProgram()
{
    REQUIRE_GO(go);
    QTemporaryDir dir;
    QVERIFY(QFile::copy(QStringLiteral(QFLAME_TEST_DATA "/pgo-inlining/main.go"), dir.filePath("main.go")));
    const Run build = runGo(go, {QStringLiteral("build"), QStringLiteral("-o"), QStringLiteral("prog"), QStringLiteral("main.go")},
                            dir.path());
    QVERIFY2(build.code == 0, build.err.constData());
    QProcess run;
    run.start(dir.filePath("prog"), {QStringLiteral("-o"), dir.filePath("cpu.pprof"), QStringLiteral("-s"), QStringLiteral("1")});
    QVERIFY(run.waitForFinished(60000));
    const auto profile = readProfileFile(dir.filePath("cpu.pprof"), ReadOptions{});

    AsmView view;
    view.resize(900, 560);
    QSignalSpy ready(&view, &AsmView::disassemblyReady);
    view.showFunction({profile}, profile->sampleTypes.size() - 1, "main.spin");
    QVERIFY(view.isDisassembling());
    QVERIFY(ready.wait(60000));
    QVERIFY2(view.titleText().startsWith(QStringLiteral("main.spin: ")), qPrintable(view.titleText()));

    // The same numbers as the CLI's: the model's result, instruction for instruction, and the source lines between.
    const AsmResult r = disassembleFunction({profile}, profile->sampleTypes.size() - 1, "main.spin");
    QVERIFY(r.disassembly && r.disassembly->routines.size() == 1);
    const DisasmRoutine &routine = r.disassembly->routines.front();
    int instructions = 0, sources = 0;
    const QTreeWidget *tree = view.tree();
    std::vector<int> rowOf;   // the tree row of each instruction
    for (int i = 1; i < tree->topLevelItemCount(); ++i) {   // row 0: the routine's header
        const QTreeWidgetItem *item = tree->topLevelItem(i);
        if (item->data(4, asmview::kSourceRole).toBool()) {
            ++sources;
            continue;
        }
        const DisasmInstruction &in = routine.instructions[size_t(instructions++)];
        QCOMPARE(item->text(2), QString::number(in.address, 16));
        QCOMPARE(item->text(4), QString::fromStdString(in.text));
        rowOf.push_back(i);
    }
    QCOMPARE(size_t(instructions), routine.instructions.size());
    QVERIFY(sources >= 3);
    // The jump gutter (column 3) paints the model's arrows: each jump's row starts one in its lane, the target's
    // row ends it, every row between carries it on; rows outside no arrow span carry nothing.
    QVERIFY(routine.jumps.size() >= 4);
    std::map<int, std::set<int>> expectedPieces;   // tree row -> pieces
    for (const JumpArrow &a : routine.jumps) {
        const int from = rowOf[a.from], to = rowOf[a.to];
        const bool down = to > from;
        expectedPieces[from].insert(a.lane * 8 + (down ? asmview::FromDown : asmview::FromUp));
        expectedPieces[to].insert(a.lane * 8 + (down ? asmview::ToFromAbove : asmview::ToFromBelow));
        for (int r = std::min(from, to) + 1; r < std::max(from, to); ++r)
            expectedPieces[r].insert(a.lane * 8 + asmview::Pass + (down ? 0 : 0x100));
    }
    for (int i = 0; i < tree->topLevelItemCount(); ++i) {
        std::set<int> got;
        for (const QVariant &v : tree->topLevelItem(i)->data(3, asmview::kJumpsRole).toList())
            got.insert(v.toInt());
        QVERIFY2(got == expectedPieces[i], qPrintable(QString::number(i)));
    }
    // The hottest instruction: the first of the largest cum, current.
    const DisasmInstruction *hottest = &routine.instructions.front();
    for (const DisasmInstruction &in : routine.instructions)
        if (in.cum > hottest->cum)
            hottest = &in;
    QVERIFY(view.hottestItem());
    QCOMPARE(view.hottestItem()->text(2), QString::number(hottest->address, 16));
    QCOMPARE(tree->currentItem(), view.hottestItem());
    // The source text is there (the file is on this machine), in the instruction column.
    QVERIFY(tree->findItems(QStringLiteral("acc += mix(acc + i)"), Qt::MatchContains, 4).size() >= 1);
    // Go's own syntax: go tool objdump's text.
    QVERIFY(tree->findItems(QStringLiteral("CALL time.Now(SB)"), Qt::MatchExactly, 4).size() == 1);

    view.show();
    QCoreApplication::processEvents();
    const QRect hot = tree->visualItemRect(view.hottestItem());
    QVERIFY(tree->viewport()->rect().contains(hot.center()));
    if (const QString shots = qEnvironmentVariable("QFLAME_SCREENSHOT"); !shots.isEmpty())
        QVERIFY(view.grab().save(shots));

    // A comparison with the build without inlining: a group row per source line group of the model's diff, each
    // followed by its instructions, the largest |delta| current.
    QDir().mkpath(dir.filePath("noinl"));
    QVERIFY(QFile::copy(dir.filePath("main.go"), dir.filePath("noinl/main.go")));
    const Run buildL = runGo(go, {QStringLiteral("build"), QStringLiteral("-gcflags=-l"), QStringLiteral("-o"),
                                  QStringLiteral("prog"), QStringLiteral("main.go")},
                             dir.filePath("noinl"));
    QVERIFY2(buildL.code == 0, buildL.err.constData());
    QProcess runL;
    runL.start(dir.filePath("noinl/prog"), {QStringLiteral("-o"), dir.filePath("noinl.pprof"), QStringLiteral("-s"), QStringLiteral("1")});
    QVERIFY(runL.waitForFinished(60000));
    const auto after = readProfileFile(dir.filePath("noinl.pprof"), ReadOptions{});
    const size_t type = profile->sampleTypes.size() - 1;
    // The builds side by side, the one without inlining first: a group row per source line group of the model's
    // diff, then max(before, after) rows, instruction i of each side in its columns (before: 0-2, after: 3-5), each
    // instruction's delta (column 6) where the group's code is the same; the largest |delta| current; the call to
    // main.mix, which became inlined, marked.
    view.showFunctionDiff({after}, {profile}, type, "main.spin", 2.0);
    QVERIFY(ready.wait(60000));
    const AsmResult diff = disassembleFunctionDiff({after}, {profile}, type, "main.spin", 2.0);
    QVERIFY2(diff.diff, qPrintable(diff.error));
    QCOMPARE(tree->columnCount(), 7);
    int row = 0, marked = 0, pairedRows = 0;
    size_t paired = 0;
    const DisasmGroup *largest = nullptr;
    for (const DisasmGroup &g : diff.diff->groups) {
        const QTreeWidgetItem *group = tree->topLevelItem(row++);
        QCOMPARE(group->text(0), g.beforeCum ? QString::fromStdString(pprofScaledLabel(g.beforeCum, diff.diff->unit)) : QStringLiteral("."));
        QCOMPARE(group->text(3), g.afterCum ? QString::fromStdString(pprofScaledLabel(g.afterCum, diff.diff->unit)) : QStringLiteral("."));
        QVERIFY(group->text(6).endsWith(QString::fromLatin1(diffClassName(g.cls))));
        for (size_t i = 0; i < std::max(g.before.size(), g.after.size()); ++i) {
            const QTreeWidgetItem *item = tree->topLevelItem(row++);
            QCOMPARE(item->text(1), i < g.before.size() ? QString::number(g.before[i].address, 16) : QString());
            QCOMPARE(item->text(4), i < g.after.size() ? QString::number(g.after[i].address, 16) : QString());
            QCOMPARE(item->text(5), i < g.after.size() ? QString::fromStdString(g.after[i].text) : QString());
            if (i < g.paired.size()) {
                QVERIFY(item->text(6).startsWith(g.paired[i].cumDelta == 0 ? QStringLiteral(".") : QString::fromStdString(
                    (g.paired[i].cumDelta > 0 ? "+" : "") + pprofScaledLabel(g.paired[i].cumDelta, diff.diff->unit))));
                ++pairedRows;
            } else {
                QCOMPARE(item->text(6), QString());
            }
            if (item->text(2).contains(QStringLiteral("became inlined"))) {
                QCOMPARE(QString::fromStdString(g.before[i].text), QStringLiteral("CALL main.mix(SB)"));
                ++marked;
            }
        }
        if (!largest || std::abs(g.cumDelta()) > std::abs(largest->cumDelta()))
            largest = &g;
        paired += g.paired.size();
    }
    QCOMPARE(row, tree->topLevelItemCount());
    QCOMPARE(marked, 1);
    QCOMPARE(size_t(pairedRows), paired);   // none here: the frame's size differs, so every group's code does
    QVERIFY(tree->currentItem() && tree->currentItem() == view.hottestItem());
    QVERIFY(view.hottestItem()->text(6).contains(QString::fromLatin1(diffClassName(largest->cls))));
    QVERIFY(!tree->findItems(QStringLiteral("became inlined here"), Qt::MatchContains, 5).isEmpty());
    view.resize(1280, 640);
    QCoreApplication::processEvents();
    if (const QString shots = qEnvironmentVariable("QFLAME_SCREENSHOT_DIFF"); !shots.isEmpty())
        QVERIFY(view.grab().save(shots));

    // The inlined build against its own profile of another run: the same code everywhere, one row per instruction
    // of both, each with its delta.
    QProcess again;
    again.start(dir.filePath("prog"), {QStringLiteral("-o"), dir.filePath("again.pprof"), QStringLiteral("-s"), QStringLiteral("0.5")});
    QVERIFY(again.waitForFinished(60000));
    const auto second = readProfileFile(dir.filePath("again.pprof"), ReadOptions{});
    view.showFunctionDiff({profile}, {second}, type, "main.spin", 2.0);
    QVERIFY(ready.wait(60000));
    const AsmResult same = disassembleFunctionDiff({profile}, {second}, type, "main.spin", 2.0);
    QVERIFY2(same.diff, qPrintable(same.error));
    size_t instructionsBoth = 0, rowsWithDelta = 0;
    for (const DisasmGroup &g : same.diff->groups) {
        QVERIFY(g.sameCode);
        instructionsBoth += g.paired.size();
    }
    for (int i = 0; i < tree->topLevelItemCount(); ++i)
        rowsWithDelta += !tree->topLevelItem(i)->text(1).isEmpty() && !tree->topLevelItem(i)->text(6).isEmpty();
    QCOMPARE(rowsWithDelta, instructionsBoth);
    QCOMPARE(instructionsBoth, routine.instructions.size());
    QVERIFY(view.titleText().contains(QStringLiteral("(%1 of the same code)").arg(same.diff->groups.size())));

    // A missing binary: the CLI's line in the pane.
    QFile::remove(dir.filePath("prog"));
    view.showFunction({profile}, profile->sampleTypes.size() - 1, "main.spin");
    QVERIFY(ready.wait(60000));
    QCOMPARE(view.titleText(), dir.filePath("prog") + QStringLiteral(": binary not found: give it with --binary FILE or a folder of binaries"));
}

QTEST_MAIN(tst_AsmView)
#include "tst_asmview.moc"
