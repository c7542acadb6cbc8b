// The Assembly pane (ui/asmview): a Go program built and profiled here, its main.spin disassembled off the GUI
// thread; the instructions' cells are model/disasm's (the CLI's numbers), source lines interleaved where they
// change, the hottest instruction current and in view; a missing binary is the pane's one line. With
// QFLAME_SCREENSHOT set, the pane is saved there as a PNG to look at.
#include "GoToolchain.h"
#include "asmview/AsmView.h"
#include "formats/ProfileInput.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

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
    for (int i = 1; i < tree->topLevelItemCount(); ++i) {   // row 0: the routine's header
        const QTreeWidgetItem *item = tree->topLevelItem(i);
        if (item->isFirstColumnSpanned()) {
            ++sources;
            continue;
        }
        const DisasmInstruction &in = routine.instructions[size_t(instructions++)];
        QCOMPARE(item->text(2), QString::number(in.address, 16));
        QCOMPARE(item->text(3), QString::fromStdString(in.text));
    }
    QCOMPARE(size_t(instructions), routine.instructions.size());
    QVERIFY(sources >= 3);
    // The hottest instruction: the first of the largest cum, current.
    const DisasmInstruction *hottest = &routine.instructions.front();
    for (const DisasmInstruction &in : routine.instructions)
        if (in.cum > hottest->cum)
            hottest = &in;
    QVERIFY(view.hottestItem());
    QCOMPARE(view.hottestItem()->text(2), QString::number(hottest->address, 16));
    QCOMPARE(tree->currentItem(), view.hottestItem());
    // The source text is there: the file is on this machine.
    QVERIFY(tree->findItems(QStringLiteral("acc += mix(acc + i)"), Qt::MatchContains).size() >= 1);

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
    view.showFunctionDiff({profile}, {after}, type, "main.spin", 2.0);
    QVERIFY(ready.wait(60000));
    const AsmResult diff = disassembleFunctionDiff({profile}, {after}, type, "main.spin", 2.0);
    QVERIFY2(diff.diff, qPrintable(diff.error));
    size_t rows = 0;
    const DisasmGroup *largest = nullptr;
    for (const DisasmGroup &g : diff.diff->groups) {
        rows += 1 + g.before.size() + g.after.size();
        if (!largest || std::abs(g.cumDelta()) > std::abs(largest->cumDelta()))
            largest = &g;
    }
    QCOMPARE(size_t(tree->topLevelItemCount()), rows);
    QVERIFY(tree->currentItem() && tree->currentItem() == view.hottestItem());
    QVERIFY(view.hottestItem()->text(3).contains(QString::fromLatin1(diffClassName(largest->cls))));
    QCoreApplication::processEvents();
    if (const QString shots = qEnvironmentVariable("QFLAME_SCREENSHOT_DIFF"); !shots.isEmpty())
        QVERIFY(view.grab().save(shots));

    // A missing binary: the CLI's line in the pane.
    QFile::remove(dir.filePath("prog"));
    view.showFunction({profile}, profile->sampleTypes.size() - 1, "main.spin");
    QVERIFY(ready.wait(60000));
    QCOMPARE(view.titleText(), dir.filePath("prog") + QStringLiteral(": binary not found: give it with --binary FILE or a folder of binaries"));
}

QTEST_MAIN(tst_AsmView)
#include "tst_asmview.moc"
