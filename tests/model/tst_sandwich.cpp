// The sandwich view of a frame: hand-computed callers and callees trees (with recursion), and on real profiles
// root totals equal to the flat table's cum and first levels equal to what go tool pprof -peek prints.
#include "formats/ProfileInput.h"
#include "layout/FlameLayout.h"
#include "ProfileFactory.h"
#include "tree/CallTreeBuilder.h"
#include "tree/FlatTable.h"
#include "tree/Sandwich.h"
#include "tree/Search.h"

#include <QFile>
#include <QTest>

#include <map>

using namespace qflame;

namespace {

std::shared_ptr<const CallTree> tree(const char *folded)
{
    return CallTreeBuilder::build({test::profileFromFolded(folded)}, 0);
}

FrameId frameNamed(const CallTree &t, const std::string &label)
{
    for (FrameId f = 1; f < t.frames().size(); ++f)
        if (t.frames().label(f) == label)
            return f;
    return FrameTable::kRoot;
}

// Root-to-node paths "a;b;c self" of the nodes with a self value, sorted: a tree's shape and numbers exactly.
QStringList paths(const CallTree &t)
{
    QStringList out;
    for (NodeId n = 1; n < t.size(); ++n) {
        if (t.self(n) == 0)
            continue;
        QStringList names;
        for (NodeId p : t.pathTo(n))
            names << QString::fromStdString(t.label(p));
        out << names.join(QLatin1Char(';')) + QLatin1Char(' ') + QString::number(t.self(n));
    }
    out.sort();
    return out;
}

// name -> total of the children of node 1 (the frame): its direct callers or callees.
std::map<std::string, int64_t> firstLevel(const CallTree &t)
{
    std::map<std::string, int64_t> out;
    if (t.size() < 2)
        return out;
    for (NodeId c = t.firstChild(1); c < t.firstChild(1) + t.childCount(1); ++c)
        out[t.label(c)] = t.total(c);
    return out;
}

// One block of go tool pprof -peek: a function, its flat and cum, and the weights of its caller and callee edges.
struct PeekBlock {
    int64_t flat = 0, cum = 0;
    std::map<std::string, int64_t> callers, callees;
};

int64_t leadingInteger(const QByteArray &token)
{
    qsizetype end = 0;
    while (end < token.size() && (token[end] == '-' || (token[end] >= '0' && token[end] <= '9')))
        ++end;
    return token.left(end).toLongLong();
}

std::map<std::string, PeekBlock> parsePeek(const QByteArray &text)
{
    std::map<std::string, PeekBlock> blocks;
    std::map<std::string, int64_t> pending;   // edges above the function's line: callers
    std::string current;
    for (const QByteArray &line : text.split('\n')) {
        if (line.startsWith('-')) {   // "-----+-----" between blocks
            current.clear();
            continue;
        }
        const qsizetype bar = line.indexOf('|');
        if (bar < 0 || line.contains("calls calls%"))
            continue;
        const QList<QByteArray> numbers = line.left(bar).simplified().split(' ');
        QByteArray name = line.mid(bar + 1);
        while (name.startsWith(' '))
            name.remove(0, 1);
        if (name.endsWith(" (inline)"))   // marks the edge, not the function
            name.chop(9);
        if (numbers.size() == 5) {
            current = name.toStdString();
            blocks[current].flat = leadingInteger(numbers[0]);
            blocks[current].cum = leadingInteger(numbers[3]);
            blocks[current].callers = std::move(pending);
            pending.clear();
        } else if (numbers.size() == 2) {
            if (!current.empty())
                blocks[current].callees[name.toStdString()] = leadingInteger(numbers[0]);
            else
                pending[name.toStdString()] = leadingInteger(numbers[0]);
        }
    }
    return blocks;
}

}   // namespace

class tst_Sandwich : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void callersAndCallees();
    void recursionCountsOnce();
    void inlinedFramesKeepTheirKind();
    void treesWorkWithLayoutAndSearch();
    void absentAndInvalidFrames();
    void deepStacksDoNotRecurse();
    void matchesGoToolPprofPeek_data();
    void matchesGoToolPprofPeek();
};

void tst_Sandwich::callersAndCallees()
{
    const auto t = tree("main;a;f;x 5\n"
                        "main;b;f 3\n"
                        "main;b;f;y;z 2\n"
                        "main;f 1\n"
                        "other;a;f 4\n"
                        "main;a 6\n");
    const FrameId f = frameNamed(*t, "f");
    const Sandwich s = SandwichBuilder::build(*t, f);
    // f is on stacks worth 5 + 3 + 2 + 1 + 4 = 15, its own flat is 3 + 1 + 4.
    QCOMPARE(s.frame, f);
    QCOMPARE(s.total(), int64_t(15));
    QCOMPARE(s.callers->total(CallTree::kRoot), int64_t(15));
    QCOMPARE(s.callers->label(1), std::string("f"));
    // Inverted: a stack's self lands on its outermost frame; main;a;f and other;a;f merge at a.
    QCOMPARE(paths(*s.callers), QStringList({"f;a;main 5", "f;a;other 4", "f;b;main 5", "f;main 1"}));
    QCOMPARE(firstLevel(*s.callers), (std::map<std::string, int64_t>{{"a", 9}, {"b", 5}, {"main", 1}}));
    QCOMPARE(paths(*s.callees), QStringList({"f 8", "f;x 5", "f;y;z 2"}));
    QCOMPARE(s.callees->total(1), int64_t(15));
    QCOMPARE(s.callees->self(1), int64_t(8));
    // Sample counts follow: f is on 5 of the 6 samples, 3 of them end in it.
    QCOMPARE(s.callers->samples(CallTree::kRoot), uint64_t(5));
    QCOMPARE(s.callers->samples(1), uint64_t(5));
    QCOMPARE(s.callees->samples(1), uint64_t(5));
    QCOMPARE(s.callees->selfSamples(1), uint64_t(3));
    // The callees tree's flat table gives f the flat and cum of the whole profile.
    const auto flat = FlatTable::compute(t), calleesFlat = FlatTable::compute(s.callees);
    const FlatRow &whole = flat->rows()[size_t(flat->rowOf(f))];
    const FlatRow &inCallees = calleesFlat->rows()[size_t(calleesFlat->rowOf(f))];
    QCOMPARE(inCallees.flat, whole.flat);
    QCOMPARE(inCallees.cum, whole.cum);
    // Frames are shared with the source tree: a FrameId means the same function in all three.
    QCOMPARE(&s.callers->frames(), &t->frames());
    QCOMPARE(s.callees->sampleType().type, t->sampleType().type);
}

void tst_Sandwich::recursionCountsOnce()
{
    const auto t = tree("main;f;g;f;h 4\n"
                        "main;f;f 2\n"
                        "main;g;f;g 3\n"
                        "f 1\n");
    const Sandwich s = SandwichBuilder::build(*t, frameNamed(*t, "f"));
    // cum(f) = 4 + 2 + 3 + 1: each sample once, at the outermost f.
    QCOMPARE(s.callers->total(CallTree::kRoot), int64_t(10));
    QCOMPARE(s.callees->total(CallTree::kRoot), int64_t(10));
    QCOMPARE(paths(*s.callers), QStringList({"f 1", "f;g;main 3", "f;main 6"}));
    // Below the outermost f everything it led to, inner f's included, merged over main;f, main;g;f and f.
    QCOMPARE(paths(*s.callees), QStringList({"f 1", "f;f 2", "f;g 3", "f;g;f;h 4"}));
    const auto flat = FlatTable::compute(t), calleesFlat = FlatTable::compute(s.callees);
    const FrameId f = frameNamed(*t, "f");
    QCOMPARE(calleesFlat->rows()[size_t(calleesFlat->rowOf(f))].flat, int64_t(3));
    QCOMPARE(calleesFlat->rows()[size_t(calleesFlat->rowOf(f))].cum, flat->rows()[size_t(flat->rowOf(f))].cum);
    // g's sandwich: 4 + 3, g;f;g counted once.
    const Sandwich g = SandwichBuilder::build(*t, frameNamed(*t, "g"));
    QCOMPARE(paths(*g.callers), QStringList({"g;f;main 4", "g;main 3"}));
    QCOMPARE(paths(*g.callees), QStringList({"g;f;g 3", "g;f;h 4"}));
}

void tst_Sandwich::inlinedFramesKeepTheirKind()
{
    // pprof__sample.cpu: math.Abs is always inlined into main.busyLoop.
    const auto t = CallTreeBuilder::build({readPprofFile(QStringLiteral(QFLAME_TEST_DATA "/pprof__sample.cpu"))}, 1);
    const Sandwich s = SandwichBuilder::build(*t, frameNamed(*t, "math.Abs"));
    QCOMPARE(s.total(), int64_t(110000000));
    QVERIFY(s.callers->isInlined(1));
    QCOMPARE(s.callers->label(s.callers->firstChild(1)), std::string("main.busyLoop"));
    QVERIFY(!s.callers->isInlined(s.callers->firstChild(1)));
}

void tst_Sandwich::treesWorkWithLayoutAndSearch()
{
    const auto t = tree("main;a;f;x 5\nmain;b;f 3\n");
    const Sandwich s = SandwichBuilder::build(*t, frameNamed(*t, "f"));
    const FlameLayout layout(*s.callers);
    // 80 px for 8 units: a (5) then b (3) above f.
    const NodeId a = s.callers->firstChild(1);
    QCOMPARE(layout.hitTest(layout.fullViewport(), 80, 10, 2), int64_t(a));
    QCOMPARE(layout.hitTest(layout.fullViewport(), 80, 60, 2), int64_t(a + 1));
    QCOMPARE(Search::run(*s.callers, QStringLiteral("^main$")).matchedTotal, int64_t(8));
    QCOMPARE(Search::run(*s.callees, QStringLiteral("^x$")).matchedTotal, int64_t(5));
}

void tst_Sandwich::absentAndInvalidFrames()
{
    const auto t = tree("main;a 5\n");
    const auto other = tree("main;a 5\nzz 1\n");
    // A frame id of another tree that this one does not have at all: throw; one it has but never uses: empty.
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, SandwichBuilder::build(*t, FrameId(t->frames().size())));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, SandwichBuilder::build(*t, FrameTable::kRoot));
    QVERIFY(other->frames().size() > t->frames().size());
    const auto filtered = [&] {
        BuildOptions o;
        o.filters.ignore = "^zz$";
        return CallTreeBuilder::build({test::profileFromFolded("main;a 5\nzz 1\n")}, 0, o);
    }();
    const FrameId zz = frameNamed(*filtered, "zz");   // interned, but ignored away
    QVERIFY(zz != FrameTable::kRoot);
    const Sandwich s = SandwichBuilder::build(*filtered, zz);
    QCOMPARE(s.callers->size(), size_t(1));
    QCOMPARE(s.callees->size(), size_t(1));
    QCOMPARE(s.total(), int64_t(0));
}

void tst_Sandwich::deepStacksDoNotRecurse()
{
    // main, then f0..f4999 four times over: 20001 frames, each f on the stack four times.
    std::string folded = "main";
    for (int i = 0; i < 20000; ++i)
        folded += ";f" + std::to_string(i % 5000);
    folded += " 3\n";
    const auto t = tree(folded.c_str());
    QCOMPARE(t->maxDepth(), 20001u);
    const Sandwich s = SandwichBuilder::build(*t, frameNamed(*t, "f2500"));
    // Callers: f2500 then f2499 .. f0 and main above its outermost occurrence; callees: the 17500 frames below.
    QCOMPARE(s.callers->maxDepth(), 2502u);
    QCOMPARE(s.callees->maxDepth(), 17500u);
    QCOMPARE(s.callers->total(CallTree::kRoot), int64_t(3));
    QCOMPARE(s.callees->total(CallTree::kRoot), int64_t(3));
    QCOMPARE(s.callers->label(s.callers->size() - 1), std::string("main"));
    const SearchResult r = Search::run(*t, QStringLiteral("^f2500$"));
    QCOMPARE(r.matchedNodes, size_t(4));
    QCOMPARE(r.matchedTotal, int64_t(3));
}

void tst_Sandwich::matchesGoToolPprofPeek_data()
{
    QTest::addColumn<QString>("profile");
    QTest::addColumn<int>("sampleType");
    QTest::addColumn<QString>("oracle");
    QTest::addColumn<int>("nonRecursive");   // functions never twice on a stack: compared edge by edge
    // tests/data/oracle-filters/regen.sh writes these with -peek '.' (every function's block).
    const QString dir = QStringLiteral(QFLAME_TEST_DATA "/");
    QTest::newRow("baseline cpu") << dir + "gen__baseline.cpu.pb.gz" << 1 << dir + "oracle-filters/baseline-cpu.peek" << 186;
    QTest::newRow("sample cpu") << dir + "pprof__sample.cpu" << 1 << dir + "oracle-filters/sample-cpu.peek" << 14;
    QTest::newRow("heap alloc_space") << dir + "gen__heap.pb.gz" << 1 << dir + "oracle-filters/heap-alloc-space.peek" << 22;
    QTest::newRow("node samples") << dir + "parca__node-profile.pb.gz" << 0 << dir + "oracle-filters/node-samples.peek" << 3;
}

void tst_Sandwich::matchesGoToolPprofPeek()
{
    QFETCH(QString, profile);
    QFETCH(int, sampleType);
    QFETCH(QString, oracle);
    QFETCH(int, nonRecursive);
    QFile file(oracle);
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(oracle));
    const std::map<std::string, PeekBlock> peek = parsePeek(file.readAll());
    const auto t = CallTreeBuilder::build({readPprofFile(profile)}, size_t(sampleType));
    const auto flat = FlatTable::compute(t);
    std::map<std::string, int> labelCount;
    for (const FlatRow &row : flat->rows())
        ++labelCount[t->frames().label(row.frame)];
    QCOMPARE(peek.size(), labelCount.size());
    int compared = 0;
    for (const FlatRow &row : flat->rows()) {
        const std::string name = t->frames().label(row.frame);
        if (labelCount[name] > 1)   // pprof prints such frames as separate blocks of the same name
            continue;
        const auto block = peek.find(name);
        QVERIFY2(block != peek.end(), name.c_str());
        const Sandwich s = SandwichBuilder::build(*t, row.frame);
        // Both roots hold the function's cum, which is pprof's; the callees' flat table gives its flat.
        QCOMPARE(s.callers->total(CallTree::kRoot), row.cum);
        QCOMPARE(s.callers->total(CallTree::kRoot), block->second.cum);
        QCOMPARE(s.callees->total(CallTree::kRoot), block->second.cum);
        const auto calleesFlat = FlatTable::compute(s.callees);
        QCOMPARE(calleesFlat->rows()[size_t(calleesFlat->rowOf(row.frame))].flat, block->second.flat);
        // pprof counts an edge once per sample wherever it is on the stack; the sandwich counts the outermost
        // occurrence. They agree when the function is never on a stack twice.
        int occurrences = 0;
        for (NodeId n = 1; n < s.callees->size(); ++n)
            occurrences += s.callees->frame(n) == row.frame;
        if (occurrences > 1) {
            // Recursive: every edge of the outermost occurrence is an edge pprof counted, in that sample at least.
            auto within = [&](const std::map<std::string, int64_t> &ours, const std::map<std::string, int64_t> &pprof) {
                for (const auto &[other, value] : ours) {
                    const auto it = pprof.find(other);
                    if (other != name && (it == pprof.end() || value > it->second))
                        return false;
                }
                return true;
            };
            QVERIFY2(within(firstLevel(*s.callers), block->second.callers), name.c_str());
            QVERIFY2(within(firstLevel(*s.callees), block->second.callees), name.c_str());
            continue;
        }
        auto show = [&](const std::map<std::string, int64_t> &m) {
            QString out = QString::fromStdString(name) + QStringLiteral(":");
            for (const auto &[k, v] : m)
                out += QStringLiteral(" %1=%2").arg(QString::fromStdString(k)).arg(v);
            return out;
        };
        QVERIFY2(firstLevel(*s.callers) == block->second.callers,
                 qPrintable(show(firstLevel(*s.callers)) + QStringLiteral(" / pprof ") + show(block->second.callers)));
        QVERIFY2(firstLevel(*s.callees) == block->second.callees,
                 qPrintable(show(firstLevel(*s.callees)) + QStringLiteral(" / pprof ") + show(block->second.callees)));
        ++compared;
    }
    QCOMPARE(compared, nonRecursive);
}

QTEST_GUILESS_MAIN(tst_Sandwich)
#include "tst_sandwich.moc"
