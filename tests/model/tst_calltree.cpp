// The call tree, flat table and layout on hand-made profiles whose numbers are worked out by hand.
#include "PprofMaker.h"
#include "formats/ProfileInput.h"
#include "layout/FlameLayout.h"
#include "tree/CallTreeBuilder.h"
#include "tree/FlatTable.h"
#include "tree/Subtree.h"

#include "profile.pb.h"

#include <QTest>

#include <algorithm>
#include <map>

using namespace qflame;
namespace pb = perftools::profiles;

Q_DECLARE_METATYPE(std::vector<std::string>)

namespace {

using Maker = qflame::test::PprofMaker;

QStringList rows(const FlatTable &t);

std::shared_ptr<const FlatTable> flat(std::shared_ptr<const Profile> p, Granularity g = Granularity::Functions)
{
    BuildOptions o;
    o.granularity = g;
    auto fromTree = FlatTable::compute(CallTreeBuilder::build({p}, 0, o));
    // Every hand-computed case holds for the rows taken straight from the samples too.
    auto fromSamples = FlatTable::compute({p}, 0, o);
    if (rows(*fromSamples) != rows(*fromTree) || fromSamples->total() != fromTree->total())
        qFatal("flat rows from the samples differ from the tree's");
    return fromTree;
}

// "name flat cum" per row in the table's order, for compact exact comparisons.
QStringList rows(const FlatTable &t)
{
    QStringList out;
    for (const FlatRow &r : t.rows())
        out << QStringLiteral("%1 %2 %3").arg(QString::fromStdString(t.displayName(r))).arg(r.flat).arg(r.cum);
    return out;
}

// "path self" of every node with a self value, root first and sorted: the stacks a tree holds.
QStringList paths(const CallTree &t)
{
    QStringList out;
    for (NodeId n = 1; n < t.size(); ++n) {
        if (t.self(n) == 0)
            continue;
        QStringList labels;
        for (NodeId step : t.pathTo(n))
            labels << QString::fromStdString(t.label(step));
        out << labels.join(u';') + QStringLiteral(" %1").arg(t.self(n));
    }
    out.sort();
    return out;
}

NodeId childNamed(const CallTree &t, NodeId n, const std::string &label)
{
    for (uint32_t i = 0; i < t.childCount(n); ++i)
        if (t.label(t.firstChild(n) + i) == label)
            return t.firstChild(n) + i;
    return CallTree::kRoot;
}

}   // namespace

class tst_CallTree : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void buildsBreadthFirstSortedTree();
    void cumCountsRecursionOnce();
    void frameTableInternsEachKeyOnce();
    void flatRowsInPprofOrder_data();
    void flatRowsInPprofOrder();
    void marksInlineFrames();
    void flatRowsOnTwoThreads();
    void granularities();
    void namesFramesWithoutFunctions();
    void appliesDropFrames();
    void mergesProfiles();
    void skipsZeroSamplesAndKeepsEmptyStacks();
    void deepStacksDoNotRecurse();
    void countsSamplesPerNode();
    void sharedPrefixesAndCollapsedRecursion();
    void layoutAndHitTesting();
    void levelOfDetailMergesPixelColumns();
    void visibleFramesAreTheSameOnTwoThreads();
};

void tst_CallTree::buildsBreadthFirstSortedTree()
{
    Maker m;
    m.stack("main;a;c", 5);
    m.stack("main;a;b", 10);
    m.stack("main;d", 2);
    m.stack("main;a;b", 1);   // the same stack again: summed
    auto tree = CallTreeBuilder::build({m.profile()}, 0);
    const CallTree &t = *tree;
    QCOMPARE(t.size(), size_t(6));   // root, main, a, d, b, c
    QCOMPARE(t.total(CallTree::kRoot), int64_t(18));
    QCOMPARE(t.label(1), std::string("main"));
    QCOMPARE(t.childCount(1), 2u);
    QCOMPARE(t.label(t.firstChild(1)), std::string("a"));       // sorted by label
    QCOMPARE(t.label(t.firstChild(1) + 1), std::string("d"));
    const NodeId a = t.firstChild(1);
    QCOMPARE(t.total(a), int64_t(16));
    QCOMPARE(t.self(a), int64_t(0));
    QCOMPARE(t.label(t.firstChild(a)), std::string("b"));
    QCOMPARE(t.total(t.firstChild(a)), int64_t(11));
    QCOMPARE(t.total(t.firstChild(a) + 1), int64_t(5));
    QCOMPARE(t.depth(t.firstChild(a)), 3u);
    QCOMPARE(t.maxDepth(), 3u);
    for (NodeId n = 1; n < t.size(); ++n)
        QVERIFY(t.parent(n) < n);   // breadth-first: parents first
    QCOMPARE(t.sampleCount(), size_t(4));
    QCOMPARE(rows(*FlatTable::compute(tree)),
             QStringList({"b 11 11", "c 5 5", "d 2 2", "main 0 18", "a 0 16"}));
}

void tst_CallTree::cumCountsRecursionOnce()
{
    Maker m;
    m.stack("main;f;f;g", 4);
    m.stack("main;f;f", 3);
    m.stack("main;f", 1);
    m.stack("g;f;g", 2);
    // f: flat 3 + 1 = 4; cum 4 + 3 + 1 + 2 = 10 (once per sample although f is on some stacks twice).
    // g: flat 4 + 2 = 6; cum 4 + 2 = 6.  main: cum 8.
    QCOMPARE(rows(*flat(m.profile())), QStringList({"g 6 6", "f 4 10", "main 0 8"}));
}

// pprof orders -top rows by flat, then cum, both descending, then by name (bytes, unsigned). The table sorts
// on a rank of the (flat, cum) pair and 8 name bytes taken after what the pair's names share, and sorts ties
// again further on: each row below aims at one of those steps. Every name is a leaf under "main" (flat = cum =
// its value), so the expected order is the names sorted here by value and then by name.
// Bare names are found by their string id, frames with more to their key through a hash table: interleaved,
// each key gets one frame, and keys that differ anywhere get different ones, through both tables' growth.
void tst_CallTree::frameTableInternsEachKeyOnce()
{
    FrameTable t;
    StringPool &s = t.strings();
    auto keysOf = [&s](int i) {
        FrameKey bare;
        bare.name = s.intern("fn" + std::to_string(i));
        FrameKey lined = bare;
        lined.file = s.intern("f.go");
        lined.line = i % 7 + 1;
        FrameKey nameless;
        nameless.objfile = s.intern("/lib/x.so");
        nameless.startLine = i;
        FrameKey objfiled = bare;   // a name with an object file is not a bare name
        objfiled.objfile = nameless.objfile;
        return std::vector<FrameKey>{bare, lined, nameless, objfiled};
    };
    constexpr int kNames = 3000;
    std::vector<FrameId> ids;
    for (int i = 0; i < kNames; ++i) {
        if (i == kNames / 2)
            t.reserveMore(20000);   // the names' table rebuilt larger halfway: all still found
        for (const FrameKey &k : keysOf(i))
            ids.push_back(t.intern(k, Frame{}));
    }
    QCOMPARE(t.size(), size_t(1 + 4 * kNames));   // the root and one frame per key
    std::vector<FrameId> sorted = ids;
    std::sort(sorted.begin(), sorted.end());
    QVERIFY(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());
    for (int i = kNames - 1; i >= 0; --i) {   // again, in another order: the same frames
        const std::vector<FrameKey> keys = keysOf(i);
        for (size_t j = 0; j < keys.size(); ++j) {
            const FrameId id = t.intern(keys[j], Frame{});
            QCOMPARE(id, ids[size_t(i) * 4 + j]);
            QVERIFY(t.frame(id).key == keys[j]);
        }
    }
    QCOMPARE(t.size(), size_t(1 + 4 * kNames));
    QCOMPARE(t.label(ids[4 * 17]), std::string("fn17"));
    QCOMPARE(t.label(ids[4 * 17 + 1]), std::string("fn17 f.go:4"));
    QCOMPARE(t.label(ids[4 * 17 + 2]), std::string("[x.so]"));
    QCOMPARE(t.label(ids[4 * 17 + 3]), std::string("fn17"));
}

void tst_CallTree::flatRowsInPprofOrder_data()
{
    QTest::addColumn<std::vector<std::string>>("names");
    QTest::addColumn<int>("values");   // name i gets value 10 * (1 + i % values)

    auto numbered = [](const std::string &stem, int n, const std::string &suffix = "") {
        std::vector<std::string> v;
        for (int i = 0; i < n; ++i)
            v.push_back(stem + std::to_string(i) + suffix);
        return v;
    };
    auto plus = [](std::vector<std::string> a, const std::vector<std::string> &b) {
        a.insert(a.end(), b.begin(), b.end());
        return a;
    };
    QTest::newRow("names sharing 22 bytes, one group") << numbered("main.setFunctions.func", 3000) << 1;
    QTest::newRow("names sharing 22 bytes, three groups") << numbered("main.setFunctions.func", 3000) << 3;
    // A few names cut the group's common beginning short: thousands tie on the 8 bytes after it.
    QTest::newRow("common beginning cut short")
        << plus(numbered("main.setFunctions.func", 2000), {"main.se", "main.setup", "main.s", "main."}) << 2;
    QTest::newRow("ties beyond several 8-byte steps")
        << plus(numbered("github.com/org/project/internal/pkg.(*VeryLongTypeName).Method", 700, ".func1"),
                numbered("github.com/org/project/internal/pkg.(*VeryLongTypeName).Method", 300, ".func2"))
        << 2;
    QTest::newRow("prefixes of each other") << std::vector<std::string>{"f", "f1", "f10", "f100", "f2", "f20",
                                                                        "g", "f0", "f01", "ff", "f1000000000"}
                                            << 1;
    QTest::newRow("bytes above 0x7f")   // unsigned, like Go's string comparison
        << plus(numbered("\xc3\xa9t\xc3\xa9.", 400), plus(numbered("zeta.", 400), numbered("\xd0\xb6.", 400)))
        << 4;
    // Equal but for trailing zero bytes: 8-byte steps never tell them apart, the names themselves do.
    QTest::newRow("trailing zero bytes") << std::vector<std::string>{std::string("a\0\0", 3), "b", "a",
                                                                     std::string("a\0", 2), std::string("ab\0c", 4)}
                                         << 1;
    QTest::newRow("few rows") << std::vector<std::string>{"b", "a", "c"} << 2;
}

void tst_CallTree::flatRowsInPprofOrder()
{
    QFETCH(std::vector<std::string>, names);
    QFETCH(int, values);
    Maker m;
    std::vector<std::pair<int64_t, std::string>> expected;
    for (size_t i = 0; i < names.size(); ++i) {
        const int64_t v = 10 * (1 + int64_t(i) % values);
        m.stack("main;" + names[i], v);
        expected.emplace_back(v, names[i]);
    }
    std::sort(expected.begin(), expected.end(), [](const auto &a, const auto &b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    const auto table = flat(m.profile());
    QCOMPARE(table->rows().size(), names.size() + 1);
    QCOMPARE(table->label(names.size()), std::string_view("main"));   // flat 0: last
    for (size_t i = 0; i < expected.size(); ++i) {
        if (table->label(i) != expected[i].second || table->rows()[i].flat != expected[i].first)
            QFAIL(qPrintable(QStringLiteral("row %1 is %2, not %3").arg(i).arg(
                QString::fromStdString(std::string(table->label(i))), QString::fromStdString(expected[i].second))));
    }
}

void tst_CallTree::marksInlineFrames()
{
    Maker m;
    const uint64_t outer = m.fn("outer"), inl = m.fn("inl"), both = m.fn("both"), main = m.fn("main");
    const uint64_t lMain = m.loc({{main, 1}});
    const uint64_t lInl = m.loc({{inl, 5}, {outer, 9}});      // inl inlined into outer
    const uint64_t lBothInl = m.loc({{both, 3}, {main, 2}});  // both inlined into main ...
    const uint64_t lBoth = m.loc({{both, 4}});                // ... and also really called from outer
    m.sample({lInl, lMain}, {7});
    m.sample({lBothInl}, {2});
    m.sample({lBoth, lInl, lMain}, {1});
    auto table = flat(m.profile());
    QCOMPARE(rows(*table),
             QStringList({"inl (inline) 7 8", "both (partial-inline) 3 3", "main 0 10", "outer 0 8"}));
    // In the tree, a node reached only through inlining is marked inlined.
    const CallTree &t = table->tree();
    const NodeId mainNode = childNamed(t, CallTree::kRoot, "main");
    QVERIFY(t.isInlined(childNamed(t, mainNode, "both")));
    QVERIFY(!t.isInlined(childNamed(t, mainNode, "outer")));
}

void tst_CallTree::flatRowsOnTwoThreads()
{
    // 60,000 samples: the flat pass from the samples runs on two threads, each half on its own sums and inlined
    // edges, added up after (FlatSums.cpp, from 50,000 samples). marksInlineFrames' three stacks and a recursive
    // one, 15,000 times each: per round inl 7 flat / 8 cum, r 5 / 5 (counted once per stack), both 3 / 3,
    // main 0 / 15, outer 0 / 8.
    Maker m;
    const uint64_t outer = m.fn("outer"), inl = m.fn("inl"), both = m.fn("both"), main = m.fn("main"), r = m.fn("r");
    const uint64_t lMain = m.loc({{main, 1}});
    const uint64_t lInl = m.loc({{inl, 5}, {outer, 9}});
    const uint64_t lBothInl = m.loc({{both, 3}, {main, 2}});
    const uint64_t lBoth = m.loc({{both, 4}});
    const uint64_t lR = m.loc({{r, 6}});
    for (int round = 0; round < 15000; ++round) {
        m.sample({lInl, lMain}, {7});
        m.sample({lBothInl}, {2});
        m.sample({lBoth, lInl, lMain}, {1});
        m.sample({lR, lR, lR, lMain}, {5});
    }
    const auto p = m.profile();
    QCOMPARE(p->sampleCount(), size_t(60000));
    auto table = FlatTable::compute({p}, 0, BuildOptions{});   // flat() compares it with the tree's rows too
    QCOMPARE(rows(*table), QStringList({"inl (inline) 105000 120000", "r 75000 75000", "both (partial-inline) 45000 45000",
                                        "main 0 225000", "outer 0 120000"}));
    QCOMPARE(table->total(), int64_t(225000));
    QCOMPARE(rows(*flat(p)), rows(*table));
}

void tst_CallTree::granularities()
{
    Maker m;
    const uint64_t f = m.fn("f", "./src/../src/f.go"), main = m.fn("main", "main.go");
    const uint64_t lMain = m.loc({{main, 3}}, 0x100);
    const uint64_t l10 = m.loc({{f, 10}}, 0x200);
    const uint64_t l12a = m.loc({{f, 12}}, 0x300);
    const uint64_t l12b = m.loc({{f, 12}}, 0x304);
    m.sample({l10, lMain}, {1});
    m.sample({l12a, lMain}, {2});
    m.sample({l12b, lMain}, {4});
    QCOMPARE(rows(*flat(m.profile())), QStringList({"f 7 7", "main 0 7"}));
    QCOMPARE(rows(*flat(m.profile(), Granularity::Lines)),
             QStringList({"f src/f.go:12 6 6", "f src/f.go:10 1 1", "main main.go:3 0 7"}));
    QCOMPARE(rows(*flat(m.profile(), Granularity::Addresses)),
             QStringList({"0000000000000304 f src/f.go:12 4 4", "0000000000000300 f src/f.go:12 2 2",
                          "0000000000000200 f src/f.go:10 1 1", "0000000000000100 main main.go:3 0 7"}));
}

void tst_CallTree::namesFramesWithoutFunctions()
{
    Maker m;
    const uint64_t app = m.mapping("/usr/lib/libapp.so");
    const uint64_t noname = m.fn("", "", 40);
    const uint64_t a1 = m.loc({}, 0x10, app), a2 = m.loc({}, 0x20, app);   // address only
    const uint64_t bare = m.loc({}, 0x30);                                 // no mapping either
    const uint64_t named = m.loc({{noname, 0}}, 0x40, app);               // a function without a name
    m.sample({a1, bare}, {1});
    m.sample({a2, bare}, {2});
    m.sample({named, bare}, {4});
    // pprof merges address-only locations of one mapping into "[libapp.so]" at function granularity; a nameless
    // function is keyed by its start line too, so it is a separate node with the same printed name.
    QCOMPARE(rows(*flat(m.profile())), QStringList({"[libapp.so] 4 4", "[libapp.so] 3 3", "<unknown> 0 7"}));
    QCOMPARE(rows(*flat(m.profile(), Granularity::Addresses)),
             QStringList({"0000000000000040 [libapp.so] 4 4", "0000000000000020 [libapp.so] 2 2",
                          "0000000000000010 [libapp.so] 1 1", "0000000000000030 <unknown> 0 7"}));
}

void tst_CallTree::appliesDropFrames()
{
    Maker m;
    m.proto().set_drop_frames(m.s("runtime\\.sig.*|drop"));
    m.proto().set_keep_frames(m.s("drop"));
    m.stack("main;runtime.sigtramp;handler", 5);   // pruned at runtime.sigtramp: main keeps the value
    m.stack("runtime.sigtramp;x", 3);              // before the first kept frame: never pruned
    m.stack("main;drop;y", 2);                      // drop matches keep_frames as well: kept
    m.stack("main;runtime.sighandler(int);z", 1);   // argument lists are cut before matching
    QCOMPARE(rows(*flat(m.profile())),
             QStringList({"main 6 8", "x 3 3", "y 2 2", "runtime.sigtramp 0 3", "drop 0 2"}));
}

void tst_CallTree::mergesProfiles()
{
    Maker a({{"samples", "count"}, {"cpu", "nanoseconds"}});
    a.sample({a.at("f"), a.at("main")}, {1, 10});
    a.proto().set_duration_nanos(1000);
    Maker b(std::vector<std::pair<std::string, std::string>>{{"cpu", "nanoseconds"}});
    b.sample({b.at("g"), b.at("main")}, {30});
    b.sample({b.at("f"), b.at("main")}, {5});
    b.proto().set_duration_nanos(500);
    auto tree = CallTreeBuilder::build({a.profile("a"), b.profile("b")}, 1);
    QCOMPARE(tree->total(CallTree::kRoot), int64_t(45));
    QCOMPARE(tree->durationNanos(), int64_t(1500));
    QCOMPARE(tree->profileCount(), size_t(2));
    QCOMPARE(rows(*FlatTable::compute(tree)), QStringList({"g 30 30", "f 15 15", "main 0 45"}));
    try {
        CallTreeBuilder::build({a.profile("a"), b.profile("b")}, 0);
        QFAIL("merged profiles without a common sample type");
    } catch (const ProfileError &e) {
        QCOMPARE(QString::fromLatin1(e.what()), QStringLiteral("b: has no sample type samples/count to merge with a"));
    }
}

void tst_CallTree::skipsZeroSamplesAndKeepsEmptyStacks()
{
    Maker m({{"a", "count"}, {"b", "count"}});
    m.sample({m.at("f"), m.at("main")}, {0, 5});
    m.sample({m.at("g"), m.at("main")}, {3, 0});
    m.sample({}, {7, 1});   // no stack at all: counted at the root
    auto tree = CallTreeBuilder::build({m.profile()}, 0);
    QCOMPARE(tree->total(CallTree::kRoot), int64_t(10));
    QCOMPARE(tree->self(CallTree::kRoot), int64_t(7));
    QCOMPARE(tree->size(), size_t(3));   // root, main, g: f has no value in type a
    QCOMPARE(rows(*FlatTable::compute(tree)), QStringList({"g 3 3", "main 0 3"}));
}

void tst_CallTree::deepStacksDoNotRecurse()
{
    Maker m;
    std::vector<uint64_t> locs;
    for (int i = 0; i < 20000; ++i)
        locs.push_back(m.at("f" + std::to_string(i % 5000)));   // recursion through 5000 functions, 4 times
    m.sample(locs, {3});
    auto table = flat(m.profile());
    QCOMPARE(table->tree().maxDepth(), 20000u);
    QCOMPARE(table->rows().size(), size_t(5000));
    QCOMPARE(table->rows().front().flat, int64_t(3));   // the leaf f0
    for (const FlatRow &r : table->rows())
        QCOMPARE(r.cum, int64_t(3));
    FlameLayout layout(table->tree());
    QCOMPARE(layout.visible(layout.fullViewport(), 1000, 1, 0, 30000).size(), size_t(20001));
}

void tst_CallTree::countsSamplesPerNode()
{
    // Samples, not values: main;a;b twice (10 and 1) is two samples of b; a zero sample is no sample.
    Maker m;
    m.stack("main;a;b", 10);
    m.stack("main;a;c", 5);
    m.stack("main;a", 0);
    m.stack("main;a", 7);
    m.stack("main;d", 2);
    m.stack("main;a;b", 1);
    auto tree = CallTreeBuilder::build({m.profile()}, 0);
    const CallTree &t = *tree;
    const NodeId main = childNamed(t, CallTree::kRoot, "main"), a = childNamed(t, main, "a");
    const NodeId b = childNamed(t, a, "b"), c = childNamed(t, a, "c"), d = childNamed(t, main, "d");
    QCOMPARE(t.samples(CallTree::kRoot), uint64_t(5));
    QCOMPARE(t.selfSamples(CallTree::kRoot), uint64_t(0));
    QCOMPARE(t.samples(main), uint64_t(5));
    QCOMPARE(t.samples(a), uint64_t(4));
    QCOMPARE(t.selfSamples(a), uint64_t(1));
    QCOMPARE(t.samples(b), uint64_t(2));
    QCOMPARE(t.selfSamples(b), uint64_t(2));
    QCOMPARE(t.samples(c), uint64_t(1));
    QCOMPARE(t.samples(d), uint64_t(1));
    QCOMPARE(t.sampleCount(), size_t(5));
    // Merged profiles add their samples; the subtree export keeps the counts of what it copies.
    auto merged = CallTreeBuilder::build({m.profile("one"), m.profile("two")}, 0);
    QCOMPARE(merged->samples(CallTree::kRoot), uint64_t(10));
    QCOMPARE(merged->samples(childNamed(*merged, childNamed(*merged, childNamed(*merged, 0, "main"), "a"), "b")),
             uint64_t(4));
    auto sub = subtreeWithPath(t, a);
    QCOMPARE(sub->samples(CallTree::kRoot), uint64_t(4));
    QCOMPARE(sub->samples(childNamed(*sub, childNamed(*sub, childNamed(*sub, 0, "main"), "a"), "b")), uint64_t(2));
}

void tst_CallTree::sharedPrefixesAndCollapsedRecursion()
{
    // The builder reuses the path of the previous sample for the locations both share from the root: stacks
    // that are a prefix of the one before, extend it, leave it and come back must all land where they belong.
    const char *stacks[] = {"main;f;f;g", "main;f;f", "main;f;f;g;h", "main;f", "main;f;f;g", "main;x;f;f",
                            "other;f;f;f", "main;f;f;g;h"};
    Maker m;
    for (const char *st : stacks)
        m.stack(st, 1);
    auto plain = CallTreeBuilder::build({m.profile()}, 0);
    QCOMPARE(paths(*plain), QStringList({"main;f 1", "main;f;f 1", "main;f;f;g 2", "main;f;f;g;h 2",
                                         "main;x;f;f 1", "other;f;f;f 1"}));
    BuildOptions o;
    o.filters.collapseRecursion = true;
    auto collapsed = CallTreeBuilder::build({m.profile()}, 0, o);
    QCOMPARE(paths(*collapsed), QStringList({"main;f 2", "main;f;g 2", "main;f;g;h 2", "main;x;f 1", "other;f 1"}));
    QCOMPARE(collapsed->samples(childNamed(*collapsed, CallTree::kRoot, "main")), uint64_t(7));
}

void tst_CallTree::layoutAndHitTesting()
{
    Maker m;
    m.stack("main;a", 6);
    m.stack("main;b", 2);
    m.stack("main", 2);   // main's self: a gap at the right of its children
    auto tree = CallTreeBuilder::build({m.profile()}, 0);
    FlameLayout layout(*tree);
    const NodeId main = 1, a = 2, b = 3;
    QCOMPARE(tree->label(a), std::string("a"));
    QCOMPARE(layout.offset(a), 0.0);
    QCOMPARE(layout.offset(b), 6.0);
    QCOMPARE(layout.height(CallTree::kRoot), 2u);
    QCOMPARE(layout.height(b), 0u);
    // 100 px for 10 units: a spans [0, 60), b [60, 80), main's self [80, 100).
    const Viewport all = layout.fullViewport();
    QCOMPARE(layout.hitTest(all, 100, 59.9, 2), int64_t(a));
    QCOMPARE(layout.hitTest(all, 100, 60, 2), int64_t(b));
    QCOMPARE(layout.hitTest(all, 100, 85, 2), int64_t(-1));
    QCOMPARE(layout.hitTest(all, 100, 85, 1), int64_t(main));
    QCOMPARE(layout.hitTest(all, 100, 10, 3), int64_t(-1));
    // Zoomed into b: b spans all 100 px; its ancestors span it too.
    const Viewport vb = layout.viewportOf(b);
    QCOMPARE(vb.begin, 6.0);
    QCOMPARE(vb.end, 8.0);
    QCOMPARE(layout.hitTest(vb, 100, 99, 2), int64_t(b));
    QCOMPARE(layout.hitTest(vb, 100, 0, 1), int64_t(main));
    const auto zoomed = layout.visible(vb, 100, 1, 0, 10);
    QCOMPARE(zoomed.size(), size_t(3));   // root, main, b: a is outside the viewport
    QCOMPARE(zoomed.back().x, 0.0);
    QCOMPARE(zoomed.back().width, 100.0);
    const auto rects = layout.visible(all, 100, 1, 0, 10);
    QCOMPARE(rects.size(), size_t(4));
    for (const FlameRect &r : rects)
        if (r.node == b) {
            QCOMPARE(r.x, 60.0);
            QCOMPARE(r.width, 20.0);
            QCOMPARE(r.depth, 2u);
            QVERIFY(!r.merged);
        }
    // Frames narrower than the minimum width are merged into one column per run, not dropped.
    const auto coarse = layout.visible(all, 100, 25, 0, 10);
    QCOMPARE(coarse.size(), size_t(4));
    auto merged = std::find_if(coarse.begin(), coarse.end(), [](const FlameRect &r) { return r.merged; });
    QVERIFY(merged != coarse.end());
    QCOMPARE(merged->node, b);
    QCOMPARE(merged->x, 60.0);
    QCOMPARE(merged->width, 20.0);
    QCOMPARE(merged->rows, 1u);
    // Only the depths asked for.
    QCOMPARE(layout.visible(all, 100, 1, 2, 1).size(), size_t(2));
}

void tst_CallTree::levelOfDetailMergesPixelColumns()
{
    // 10,000 leaves of 1 unit under main, drawn 100 px wide: 100 leaves per pixel. Each run of pixel columns
    // becomes one merged rectangle; together they cover the whole width.
    Maker m;
    for (int i = 0; i < 10000; ++i)
        m.stack("main;f" + std::to_string(100000 + i) + ";g", 1);
    auto tree = CallTreeBuilder::build({m.profile()}, 0);
    FlameLayout layout(*tree);
    const auto rects = layout.visible(layout.fullViewport(), 100, 1, 0, 10);
    double covered = 0;
    size_t merged = 0;
    for (const FlameRect &r : rects)
        if (r.merged) {
            ++merged;
            covered += r.width;
            QCOMPARE(r.depth, 2u);
            QCOMPARE(r.rows, 2u);   // the leaves and the g below each of them
        }
    QCOMPARE(merged, size_t(100));
    QCOMPARE(rects.size(), size_t(102));   // root, main, 100 columns
    QVERIFY(std::abs(covered - 100.0) < 1e-9);
    // Zoomed into one f, every frame under it is there again.
    const auto zoomed = layout.visible(layout.viewportOf(tree->firstChild(1) + 42), 100, 1, 0, 10);
    QCOMPARE(zoomed.size(), size_t(4));   // root, main, that f, its g
}

void tst_CallTree::visibleFramesAreTheSameOnTwoThreads()
{
    // Random stacks (fixed seed): wide and sub-pixel frames, merged runs, subtrees of every size. The walk
    // shared by two threads must give the rects of one thread walking alone, in the same order.
    Maker m;
    uint32_t seed = 12345;
    auto next = [&seed](uint32_t n) {
        seed = seed * 1664525u + 1013904223u;
        return (seed >> 8) % n;
    };
    for (int i = 0; i < 4000; ++i) {
        std::string stack = "main";
        const uint32_t depth = 1 + next(14);
        for (uint32_t d = 0; d < depth; ++d)
            stack += ";f" + std::to_string(next(d < 2 ? 6 : 40));
        m.stack(stack, 1 + int64_t(next(3) == 0 ? next(5000) : next(4)));
    }
    auto tree = CallTreeBuilder::build({m.profile()}, 0);
    QVERIFY(tree->size() > 10000);
    FlameLayout layout(*tree);
    size_t largest = 0;
    for (const Viewport view : {layout.fullViewport(), layout.viewportOf(tree->firstChild(1)),
                                layout.viewportOf(tree->firstChild(1) + 3),
                                Viewport{layout.fullViewport().span() * 0.3, layout.fullViewport().span() * 0.35}}) {
        for (const double width : {100.0, 997.0, 3840.0}) {
            for (const double minWidth : {1.0, 3.0}) {
                for (const auto &[first, count] : {std::pair{0u, 1000u}, std::pair{3u, 4u}, std::pair{9u, 1u}}) {
                    const auto one = layout.visible(view, width, minWidth, first, count, FlameLayout::Threads::One);
                    const auto two = layout.visible(view, width, minWidth, first, count, FlameLayout::Threads::Two);
                    QCOMPARE(two.size(), one.size());
                    for (size_t i = 0; i < one.size(); ++i) {
                        QCOMPARE(two[i].node, one[i].node);
                        QCOMPARE(two[i].x, one[i].x);
                        QCOMPARE(two[i].width, one[i].width);
                        QCOMPARE(two[i].depth, one[i].depth);
                        QCOMPARE(two[i].merged, one[i].merged);
                        QCOMPARE(two[i].rows, one[i].rows);
                    }
                    largest = std::max(largest, one.size());
                }
            }
        }
    }
    QVERIFY(largest > 2000);   // enough frames for the walk to be cut into many pieces
}

QTEST_GUILESS_MAIN(tst_CallTree)
#include "tst_calltree.moc"
