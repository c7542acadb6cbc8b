// StagedTreeBuild (tree/StagedTree.h): the first look's nodes have the whole tree's values, node for node; every
// node at or above the cut is in it; its layout at the initial zoom is the whole tree's, rectangle for rectangle;
// and the complete tree is the one CallTreeBuilder::build makes.
#include "PprofMaker.h"
#include "ProfileFactory.h"

#include "formats/ProfileInput.h"
#include "layout/FlameLayout.h"
#include "tree/StagedTree.h"
#include "SharedCorpus.h"

#include <algorithm>
#include <QScopeGuard>
#include <QtTest>

using namespace qflame;

namespace {

using Profiles = std::vector<std::shared_ptr<const Profile>>;

// The node of `tree` under `parent` with this label, or -1.
int64_t childByLabel(const CallTree &tree, NodeId parent, const std::string &label)
{
    for (NodeId c = tree.firstChild(parent); c < tree.firstChild(parent) + tree.childCount(parent); ++c)
        if (tree.label(c) == label)
            return c;
    return -1;
}

// Every node of the first look found in the whole tree by its path of labels (not by nodesInComplete), or a
// failure.
std::vector<NodeId> byPath(const CallTree &first, const CallTree &whole)
{
    std::vector<NodeId> map(first.size(), CallTree::kRoot);
    for (NodeId n = 1; n < first.size(); ++n) {
        const int64_t m = childByLabel(whole, map[first.parent(n)], first.label(n));
        if (m < 0)
            qFatal("first-look node %u (%s) is not in the whole tree", n, first.label(n).c_str());
        map[n] = NodeId(m);
    }
    return map;
}

void sameTree(const CallTree &a, const CallTree &b)
{
    QCOMPARE(a.size(), b.size());
    QCOMPARE(a.maxDepth(), b.maxDepth());
    QCOMPARE(a.sampleCount(), b.sampleCount());
    QVERIFY(a.isComplete() && b.isComplete());
    for (NodeId n = 0; n < a.size(); ++n) {
        if (a.parent(n) != b.parent(n) || a.frame(n) != b.frame(n) || a.label(n) != b.label(n) ||
            a.firstChild(n) != b.firstChild(n) || a.childCount(n) != b.childCount(n) || a.self(n) != b.self(n) ||
            a.total(n) != b.total(n) || a.depth(n) != b.depth(n) || a.samples(n) != b.samples(n) ||
            a.callKinds(n) != b.callKinds(n))
            QFAIL(qPrintable(QStringLiteral("node %1 differs").arg(n)));
    }
}

// The whole check of one build: values node by node, presence of everything at or above the cut, layouts.
void checkStaged(const Profiles &profiles, const BuildOptions &options, int64_t divisor, bool expectCut)
{
    const auto straight = CallTreeBuilder::build(profiles, 0, options);
    StagedTreeBuild staged(profiles, 0, options, divisor);
    const auto first = staged.firstLook();
    const auto whole = staged.complete();
    sameTree(*whole, *straight);
    QCOMPARE(!first->isComplete(), expectCut);
    if (first->isComplete()) {
        QCOMPARE(first.get(), whole.get());
        return;
    }
    QVERIFY(first->size() < whole->size());
    QCOMPARE(first->maxDepth(), whole->maxDepth());

    const std::vector<NodeId> map = byPath(*first, *whole);
    QCOMPARE(nodesInComplete(*first, *whole), map);
    const FlameLayout wholeLayout(*whole);
    std::vector<uint8_t> present(whole->size(), 0);
    using Wide = unsigned __int128;
    const Wide root = uint64_t(whole->total(CallTree::kRoot));
    for (NodeId n = 0; n < first->size(); ++n) {
        const NodeId m = map[n];
        present[m] = 1;
        if (first->self(n) != whole->self(m) || first->total(n) != whole->total(m) ||
            first->samples(n) != whole->samples(m) || first->selfSamples(n) != whole->selfSamples(m) ||
            first->callKinds(n) != whole->callKinds(m) || first->depth(n) != whole->depth(m))
            QFAIL(qPrintable(QStringLiteral("first-look node %1 (%2) has other values than the whole tree's %3")
                                 .arg(n).arg(QString::fromStdString(first->label(n))).arg(m)));
        // Only a node below the cut waits for its children, and then it keeps their height.
        const bool below = Wide(uint64_t(whole->total(m))) * uint64_t(divisor) < root;
        if (first->childCount(n) != whole->childCount(m)) {
            QVERIFY(below);
            QCOMPARE(first->childCount(n), 0u);
            QVERIFY(first->hidesDescendants(n));
        }
        if (first->childCount(n) == 0)
            QCOMPARE(first->hiddenHeight(n), wholeLayout.height(m));
    }
    for (NodeId m = 0; m < whole->size(); ++m) {
        if (Wide(uint64_t(whole->total(m))) * uint64_t(divisor) >= root && !present[m])
            QFAIL(qPrintable(QStringLiteral("node %1 (%2) is at or above the cut but not in the first look")
                                 .arg(m).arg(QString::fromStdString(whole->label(m)))));
    }

    // The layouts at the initial zoom: the same rectangles, up to views as wide as the divisor in pixels.
    const FlameLayout firstLayout(*first);
    QCOMPARE(firstLayout.maxDepth(), wholeLayout.maxDepth());
    for (const double width : {double(divisor) / 3, 800.0, 1920.0, 3840.0, double(divisor)}) {
        if (width > double(divisor))
            continue;
        const auto a = firstLayout.visible(firstLayout.fullViewport(), width, 1.0, 0, first->maxDepth() + 1,
                                           FlameLayout::Threads::One);
        const auto b = wholeLayout.visible(wholeLayout.fullViewport(), width, 1.0, 0, whole->maxDepth() + 1,
                                           FlameLayout::Threads::One);
        QCOMPARE(a.size(), b.size());
        for (size_t i = 0; i < a.size(); ++i) {
            if (map[a[i].node] != b[i].node || a[i].x != b[i].x || a[i].width != b[i].width ||
                a[i].depth != b[i].depth || a[i].merged != b[i].merged || a[i].rows != b[i].rows)
                QFAIL(qPrintable(QStringLiteral("%1 px: rect %2 differs").arg(width).arg(i)));
        }
    }
}

QString corpusPath(const QString &name)
{
    return qflame::test::sharedPath(QStringLiteral("corpus/") + name);
}

Profiles corpusFile(const QString &name)
{
    return {readProfileFile(corpusPath(name))};
}

}   // namespace

class TestStagedTree : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Hand-computed: total 100, divisor 16, so a node is cut below 100 / 16 = 6.25.
    void handMade()
    {
        const Profiles p{test::profileFromFolded("main;a;b;c 60\n"
                                                 "main;a;b;d 30\n"
                                                 "main;a;e 5\n"
                                                 "main;f;g;h;i 2\n"
                                                 "main;f;j 1\n"
                                                 "main 2\n")};
        StagedTreeBuild staged(p, 0, {}, 16);
        const auto first = staged.firstLook();
        // Breadth-first, children by label: root, main, a, f, b, e, c, d; f (3) and e (5) are below the cut.
        QCOMPARE(first->size(), size_t(8));
        const char *labels[] = {"", "main", "a", "f", "b", "e", "c", "d"};
        const int64_t totals[] = {100, 100, 95, 3, 90, 5, 60, 30};
        const int64_t selfs[] = {0, 2, 0, 0, 0, 5, 60, 30};
        const uint64_t samples[] = {6, 6, 3, 2, 2, 1, 1, 1};
        const uint64_t selfSamples[] = {0, 1, 0, 0, 0, 1, 1, 1};
        const uint32_t hidden[] = {0, 0, 0, 3, 0, 0, 0, 0};   // f keeps the rows of g, h, i
        for (NodeId n = 1; n < 8; ++n) {
            QCOMPARE(first->label(n), std::string(labels[n]));
            QCOMPARE(first->total(n), totals[n]);
            QCOMPARE(first->self(n), selfs[n]);
            QCOMPARE(first->samples(n), samples[n]);
            QCOMPARE(first->selfSamples(n), selfSamples[n]);
            QCOMPARE(first->hiddenHeight(n), hidden[n]);
        }
        QCOMPARE(first->total(0), int64_t(100));
        QCOMPARE(first->childCount(3), 0u);
        QVERIFY(first->hidesDescendants(3));
        QVERIFY(!first->hidesDescendants(5));   // e has no children: nothing waits
        QVERIFY(!first->isComplete());
        QCOMPARE(first->maxDepth(), 5u);   // main f g h i
        const FlameLayout layout(*first);
        QCOMPARE(layout.height(3), 3u);
        QCOMPARE(layout.height(1), 4u);

        const auto whole = staged.complete();
        QCOMPARE(whole->size(), size_t(12));
        // The whole tree's second level is a's children and f's (b, e, g, j), so c and d come after them.
        QCOMPARE(nodesInComplete(*first, *whole), (std::vector<NodeId>{0, 1, 2, 3, 4, 5, 8, 9}));
        QVERIFY(whole->isComplete());
        QCOMPARE(whole->childCount(3), 2u);   // g, j
        QCOMPARE(whole->label(whole->firstChild(3)), std::string("g"));
        QCOMPARE(whole->selfSamples(3), uint64_t(0));
        checkStaged(p, {}, 16, true);
    }

    // A stack's levels below the node it leaves the first look at are counted from each location's frames: a byte
    // each (Source::locLevels) where every location has fewer than 255 frames, else from the frames' offsets. Here
    // one location holds 300 frames (f0 calls f1 ... f299, all inlined), so the offsets count; the same stacks
    // with 200 frames take the bytes. Total 1,100, divisor 16: a node is cut below 68.75.
    void levelsOfManyInlinedFrames_data()
    {
        QTest::addColumn<int>("inlined");
        QTest::newRow("300 frames: offsets") << 300;
        QTest::newRow("200 frames: bytes") << 200;
    }
    void levelsOfManyInlinedFrames()
    {
        QFETCH(int, inlined);
        test::PprofMaker m;
        const uint64_t fMain = m.fn("main"), fA = m.fn("a"), fLeaf = m.fn("leaf");
        std::vector<std::pair<uint64_t, int64_t>> lines;   // innermost first
        for (int k = inlined - 1; k >= 0; --k)
            lines.emplace_back(m.fn("f" + std::to_string(k)), k + 1);
        const uint64_t lMain = m.loc({{fMain, 1}}), lA = m.loc({{fA, 1}}), lLeaf = m.loc({{fLeaf, 1}});
        const uint64_t lDeep = m.loc(lines);
        m.sample({lMain}, {600});
        m.sample({lLeaf, lDeep, lMain}, {499});    // main f0 ... f(n-1) leaf: kept all the way
        m.sample({lLeaf, lDeep, lA, lMain}, {1});   // main a f0 ... leaf: a is cut and keeps n + 1 rows
        const Profiles p{m.profile()};
        StagedTreeBuild staged(p, 0, {}, 16);
        const auto first = staged.firstLook();
        const int64_t a = childByLabel(*first, 1, "a");
        QVERIFY(a > 0);
        QVERIFY(first->hidesDescendants(NodeId(a)));
        QCOMPARE(first->hiddenHeight(NodeId(a)), uint32_t(inlined + 1));
        QCOMPARE(first->maxDepth(), uint32_t(inlined + 3));   // main, a, then a's hidden rows
        checkStaged(p, {}, 16, true);
    }

    // A profile large enough to be walked (65,536 stacks or more; smaller ones are counted level by level), made
    // here so that a clone without the shared corpus checks the walk too: 80,000 stacks, 2 to 30 locations deep,
    // that mostly follow one callee per caller (so that the walk's heavy paths carry most steps) and now and then
    // take another; some locations hold inlined frames, and some functions have two locations (two lines), which
    // are one frame by function and two by line. Checked node for node against the whole tree, top-down and
    // bottom-up, by functions and by lines. The walk takes a stack's levels below where it leaves the guesses
    // from the stack's count (tree/StackLevels.h) for the stacks counted while it guessed, else from the rest of
    // the stack: `counted` sets how many are (QFLAME_STACK_LEVELS), all of them, the first half or none.
    void walkedStacks_data()
    {
        QTest::addColumn<bool>("inverted");
        QTest::addColumn<int>("granularity");
        QTest::addColumn<int>("counted");
        for (const auto &[name, counted] : {std::pair{"all counted", 80000}, {"half counted", 40000}, {"none", 0}}) {
            QTest::addRow("top-down, functions, %s", name) << false << int(Granularity::Functions) << counted;
            QTest::addRow("bottom-up, functions, %s", name) << true << int(Granularity::Functions) << counted;
            QTest::addRow("top-down, lines, %s", name) << false << int(Granularity::Lines) << counted;
            QTest::addRow("bottom-up, lines, %s", name) << true << int(Granularity::Lines) << counted;
        }
    }
    void walkedStacks()
    {
        QFETCH(bool, inverted);
        QFETCH(int, granularity);
        QFETCH(int, counted);
        qputenv("QFLAME_STACK_LEVELS", QByteArray::number(counted));
        const auto unset = qScopeGuard([] { qunsetenv("QFLAME_STACK_LEVELS"); });
        test::PprofMaker m;
        constexpr int kFunctions = 48;
        std::vector<uint64_t> fns;
        for (int f = 0; f < kFunctions; ++f)
            fns.push_back(m.fn("f" + std::to_string(f)));
        std::vector<uint64_t> locs;   // location k calls into function k % 48 (at line 1 + k / 48)
        for (int k = 0; k < 2 * kFunctions; ++k)
            locs.push_back(m.loc({{fns[size_t(k % kFunctions)], 1 + k / kFunctions}}));
        for (int k = 0; k < 8; ++k)   // f(k) inlined into f(k + 20), in one location
            locs.push_back(m.loc({{fns[size_t(k)], 7}, {fns[size_t(k + 20)], 9}}));
        uint32_t state = 12345;
        const auto next = [&state](uint32_t below) {
            state = state * 1103515245u + 12345u;
            return (state >> 8) % below;
        };
        for (int i = 0; i < 80000; ++i) {
            std::vector<uint64_t> stack;   // root first here; the sample wants the leaf first
            const uint32_t depth = 2 + next(29);
            uint32_t k = 0;
            for (uint32_t d = 0; d < depth; ++d) {
                stack.push_back(locs[k]);
                const uint32_t roll = next(100);
                k = roll < 80 ? (k * 7 + 3) % 48 : roll < 90 ? 48 + (k * 5 + 1) % 48 : next(uint32_t(locs.size()));
            }
            std::reverse(stack.begin(), stack.end());
            m.sample(stack, {int64_t(1 + next(1000) * next(1000) / 100)});
        }
        const Profiles p{m.profile()};
        QCOMPARE(p.front()->sampleCount(), size_t(80000));
        BuildOptions options;
        options.filters.inverted = inverted;
        options.granularity = Granularity(granularity);
        checkStaged(p, options, 2048, true);
    }

    void nothingToCut()
    {
        const Profiles p{test::profileFromFolded("main;a 10\nmain;b 10\n")};
        checkStaged(p, {}, 16, false);   // the smallest node is half the total
        StagedTreeBuild staged(p, 0, {}, 16);
        const auto first = staged.firstLook();
        QVERIFY(first->isComplete());
        QCOMPARE(staged.complete().get(), first.get());
    }

    // A negative value (a -diff_base merge): a child may be wider than its parent, so nothing is cut.
    void negativeValues()
    {
        const Profiles p{test::profileFromFolded("main;a;b 1000\nmain;c;d 1\nmain;c;e -1\n")};
        checkStaged(p, {}, 16, false);
    }

    void corpus_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("granularity");
        QTest::addColumn<bool>("collapse");
        QTest::newRow("r64 functions") << "gen__gotypes-stdlib.allocs-r64.pb.gz" << int(Granularity::Functions) << false;
        QTest::newRow("r2048 lines") << "gen__gotypes-stdlib.allocs-r2048.pb.gz" << int(Granularity::Lines) << false;
        QTest::newRow("r2048 collapsed") << "gen__gotypes-stdlib.allocs-r2048.pb.gz" << int(Granularity::Functions) << true;
        QTest::newRow("large.cpu functions") << "pprof__large.cpu" << int(Granularity::Functions) << false;
        QTest::newRow("large.cpu addresses") << "pprof__large.cpu" << int(Granularity::Addresses) << false;
        QTest::newRow("heap collapsed") << "pyro__heap_go_truncated_3.pb.gz" << int(Granularity::Functions) << true;
    }
    void corpus()
    {
        QFETCH(QString, file);
        QFETCH(int, granularity);
        QFETCH(bool, collapse);
        BuildOptions options;
        options.granularity = Granularity(granularity);
        options.filters.collapseRecursion = collapse;
        QFLAME_SKIP_WITHOUT_SHARED(corpusPath(file));
        checkStaged(corpusFile(file), options, StagedTreeBuild::kCullDivisor, true);
    }

    // The window's cut (app/main.cpp): a power of two at or above the desktop's width, from 2048 to 16384.
    void viewCut()
    {
        QCOMPARE(StagedTreeBuild::cullDivisorForWidth(0), int64_t(2048));
        QCOMPARE(StagedTreeBuild::cullDivisorForWidth(1920), int64_t(2048));
        QCOMPARE(StagedTreeBuild::cullDivisorForWidth(2048), int64_t(2048));
        QCOMPARE(StagedTreeBuild::cullDivisorForWidth(2049), int64_t(4096));
        QCOMPARE(StagedTreeBuild::cullDivisorForWidth(3840), int64_t(4096));
        QCOMPARE(StagedTreeBuild::cullDivisorForWidth(4096), int64_t(4096));
        QCOMPARE(StagedTreeBuild::cullDivisorForWidth(4097), int64_t(8192));
        QCOMPARE(StagedTreeBuild::cullDivisorForWidth(5760), int64_t(8192));
        QCOMPARE(StagedTreeBuild::cullDivisorForWidth(15360), int64_t(16384));
        QCOMPARE(StagedTreeBuild::cullDivisorForWidth(40000), int64_t(16384));
        QCOMPARE(StagedTreeBuild::viewCullDivisor(), StagedTreeBuild::kCullDivisor);   // until the window sets it
        // The largest profile at the cut of a 1920 and of a 3840 pixel desktop: the same checks as at 16384.
        const QString file = corpusPath(QStringLiteral("gen__gotypes-stdlib.allocs-r64.pb.gz"));
        QFLAME_SKIP_WITHOUT_SHARED(file);
        const Profiles r64{readProfileFile(file)};
        BuildOptions inverted;
        inverted.filters.inverted = true;
        for (const int64_t divisor : {2048, 4096}) {
            checkStaged(r64, {}, divisor, true);
            checkStaged(r64, inverted, divisor, true);
        }
    }

    // Two profiles merged: the cut is of the merged total.
    void merged()
    {
        const QString file = corpusPath(QStringLiteral("gen__gotypes-stdlib.allocs-r2048.pb.gz"));
        QFLAME_SKIP_WITHOUT_SHARED(file);
        Profiles p{readProfileFile(file), readProfileFile(file)};
        checkStaged(p, {}, StagedTreeBuild::kCullDivisor, true);
    }
};

QTEST_GUILESS_MAIN(TestStagedTree)
#include "tst_stagedtree.moc"
