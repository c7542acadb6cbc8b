// What a comparison's call graph learns from elsewhere (model/graph/GraphMarks): the PGO panel's inlining changes on
// their edges (in the people output, the dot file and, unchanged, the TSV of `qflame diff --graph`), and the rounds'
// measured noise classing its nodes. Hand-built profiles, expected values by hand.
#include "PgoTestSupport.h"
#include "diff/DiffTable.h"
#include "graph/GraphMarks.h"
#include "graph/GraphReport.h"

#include <QTemporaryDir>
#include <QTest>

using namespace qflame;
using namespace qflame::pgotest;

namespace {

// base: main really calls hot (100 samples) and work (50); next: hot inlined into main (60), work called (70).
struct Pair {
    Builder base, next;
    Pair()
    {
        for (Builder *b : {&base, &next}) {
            const uint64_t main = b->function("main", 1), hot = b->function("hot", 20), work = b->function("work", 40);
            const uint64_t lMain = b->location(0x10, {{main, 5}}), lWork = b->location(0x30, {{work, 41}});
            if (b == &base) {
                b->sample({b->location(0x20, {{hot, 21}}), lMain}, {100});
                b->sample({lWork, lMain}, {50});
            } else {
                b->sample({b->location(0x20, {{hot, 21}, {main, 5}})}, {60});   // hot inlined into main
                b->sample({lWork, lMain}, {70});
            }
        }
    }
};

uint32_t nodeNamed(const CallGraph &g, const std::string &name)
{
    for (uint32_t i = 0; i < g.nodes().size(); ++i)
        if (g.name(i) == name)
            return i;
    return uint32_t(-1);
}

int edgeNamed(const CallGraph &g, const std::string &from, const std::string &to)
{
    for (uint32_t i = 0; i < g.edges().size(); ++i)
        if (g.name(g.edges()[i].from) == from && g.name(g.edges()[i].to) == to)
            return int(i);
    return -1;
}

}   // namespace

class tst_GraphMarks : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void inliningChangesOnEdges();
    void dotAndTsvOfMarkedGraph();
    void cliDiffGraphMarksInliningChanges();
    void measuredNoiseClassesNodes();
    void cliOptionsAsTheModel_data();
    void cliOptionsAsTheModel();
};

void tst_GraphMarks::inliningChangesOnEdges()
{
    Pair p;
    const auto base = p.base.profile("base"), next = p.next.profile("next");
    const InliningChanges changes = computeInliningChanges({base}, {next});
    QCOMPARE(changes.inlining.size(), size_t(1));
    const auto graph = CallGraph::buildDiff({base}, {next}, 0, {}, GraphOptions::unpruned(), 2.0);
    QVERIFY(!graph->hasInliningChanges());
    const auto marked = withInliningChanges(graph, changes);
    QVERIFY(marked->hasInliningChanges());
    const int hot = edgeNamed(*marked, "main", "hot"), work = edgeNamed(*marked, "main", "work");
    QVERIFY(hot >= 0 && work >= 0);
    QCOMPARE(edgeInliningChange(*marked, uint32_t(hot)), std::optional(InliningChange::Kind::BecameInlined));
    QCOMPARE(edgeInliningText(*marked, uint32_t(hot)), std::string("became inlined"));
    QCOMPARE(edgeInliningChange(*marked, uint32_t(work)), std::nullopt);
    QCOMPARE(edgeInliningText(*marked, uint32_t(work)), std::string());
    // The graph itself is the same: -40 on main -> hot, +20 on main -> work.
    QCOMPARE(marked->edges()[uint32_t(hot)].value(), int64_t(-40));
    QCOMPARE(marked->edges()[uint32_t(work)].value(), int64_t(20));
    // A profile's graph has no comparison to mark.
    const auto single = CallGraph::build({next}, 0, {}, GraphOptions::unpruned());
    QVERIFY(!withInliningChanges(single, changes)->hasInliningChanges());
}

void tst_GraphMarks::dotAndTsvOfMarkedGraph()
{
    Pair p;
    const auto base = p.base.profile("base"), next = p.next.profile("next");
    const auto graph = CallGraph::buildDiff({base}, {next}, 0, {}, GraphOptions::unpruned(), 2.0);
    const auto marked = withInliningChanges(graph, computeInliningChanges({base}, {next}));
    // The TSV is the issue's, whatever the marks.
    QCOMPARE(graphTsv(*marked), graphTsv(*graph));
    const QString dot = QString::fromStdString(graphDot(*marked));
    const QString unmarked = QString::fromStdString(graphDot(*graph));
    // The edge main -> hot: its label gets a line, in purple; nothing else changes.
    const QStringList lines = dot.split(QLatin1Char('\n')), before = unmarked.split(QLatin1Char('\n'));
    QCOMPARE(lines.size(), before.size());
    int changed = 0;
    for (int i = 0; i < lines.size(); ++i) {
        if (lines[i] == before[i])
            continue;
        ++changed;
        QVERIFY2(lines[i].contains(QStringLiteral("\\n became inlined\" fontcolor=\"#7b1fa2\"")), qPrintable(lines[i]));
        QVERIFY(lines[i].contains(QStringLiteral("tooltip=\"main -> hot")));
    }
    QCOMPARE(changed, 1);
}

void tst_GraphMarks::cliDiffGraphMarksInliningChanges()
{
    Pair p;
    QTemporaryDir dir;
    const QString base = dir.filePath(QStringLiteral("base.pb")), next = dir.filePath(QStringLiteral("next.pb"));
    for (auto [path, builder] : {std::pair{base, &p.base}, std::pair{next, &p.next}}) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(builder->message().SerializeAsString()));
    }
    const auto b = readProfileFile(base, {}), n = readProfileFile(next, {});
    const auto graph = CallGraph::buildDiff({b}, {n}, 0, {}, GraphOptions{}, 2.0);
    const auto marked = withInliningChanges(graph, computeInliningChanges({b}, {n}));
    // --tsv: exactly the model's, without marks.
    Run r = runQflame({QStringLiteral("diff"), base, next, QStringLiteral("--graph"), QStringLiteral("--tsv")});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out.toStdString(), graphTsv(*graph));
    // --dot: the marked graph's.
    const QString dotFile = dir.filePath(QStringLiteral("g.dot"));
    r = runQflame({QStringLiteral("diff"), base, next, QStringLiteral("--graph"), QStringLiteral("--dot"), dotFile});
    QCOMPARE(r.code, 0);
    QFile dot(dotFile);
    QVERIFY(dot.open(QIODevice::ReadOnly));
    QCOMPARE(dot.readAll().toStdString(), graphDot(*marked));
    // For people: the edge says it, from both ends.
    r = runQflame({QStringLiteral("diff"), base, next, QStringLiteral("--graph")});
    QCOMPARE(r.code, 0);
    const QString out = QString::fromUtf8(r.out);
    QVERIFY2(out.contains(QStringLiteral("    -> hot  -40  call  (became inlined)\n")), qPrintable(out));
    QVERIFY2(out.contains(QStringLiteral("    <- main  -40  call  (became inlined)\n")), qPrintable(out));
    QVERIFY(out.contains(QStringLiteral("    -> work  20  call\n")));
    QCOMPARE(out.count(QStringLiteral("became inlined")), 2);
}

void tst_GraphMarks::measuredNoiseClassesNodes()
{
    Pair p;
    const auto base = p.base.profile("base"), next = p.next.profile("next");
    const auto graph = CallGraph::buildDiff({base}, {next}, 0, {}, GraphOptions::unpruned(), 2.0);
    const uint32_t hot = nodeNamed(*graph, "hot"), work = nodeNamed(*graph, "work"), main = nodeNamed(*graph, "main");
    // Poisson: hot -40 against 2 * sqrt(100 + 60) = 25.3: faster; work +20 against 2 * sqrt(50 + 70) = 21.9: noise.
    QCOMPARE(graph->classOf(graph->nodes()[hot]), DiffClass::Faster);
    QCOMPARE(graph->classOf(graph->nodes()[work]), DiffClass::WithinNoise);
    MeasuredNoise noise;
    noise.source = "the spread of the rounds a (4 observations) and b (4)";
    noise.cumStandardError = {{"hot", 1.5}, {"work (inline)", 0.5}};   // per second; work found by pprof's marker
    // Rounds of 10 s each: hot -4/s against 2 * 1.5 = 3: still faster; work +2/s against 2 * 0.5: slower.
    auto measured = withMeasuredNoise(graph, noise, 0.1, 0.1);
    QVERIFY(measured->hasMeasuredNoise());
    QCOMPARE(measuredNodeCount(*measured), size_t(2));
    QCOMPARE(measured->measuredError(hot), 1.5);
    QCOMPARE(measured->measuredSource(), noise.source);
    QCOMPARE(measured->classOf(measured->nodes()[hot]), DiffClass::Faster);
    QCOMPARE(measured->classOf(measured->nodes()[work]), DiffClass::Slower);
    QCOMPARE(measured->measuredError(main), 0.0);   // not named: Poisson's, -20 against 2 * sqrt(150 + 130)
    QCOMPARE(measured->classOf(measured->nodes()[main]), graph->classOf(graph->nodes()[main]));
    // A wider spread: hot's -4/s within 2 * 2.5 = 5.
    noise.cumStandardError["hot"] = 2.5;
    measured = withMeasuredNoise(graph, noise, 0.1, 0.1);
    QCOMPARE(measured->classOf(measured->nodes()[hot]), DiffClass::WithinNoise);
    // A copy of a node is classed as Poisson would: only the graph's own nodes have a measured error.
    const GraphNode copy = measured->nodes()[hot];
    QCOMPARE(measured->classOf(copy), DiffClass::Faster);
    // Edges keep Poisson's.
    QCOMPARE(measured->classOf(measured->edges()[0]), graph->classOf(graph->edges()[0]));
}

// Each option of `qflame graph` and `diff --graph` (issue #33's CLI), run through the real binary, against the model.
void tst_GraphMarks::cliOptionsAsTheModel_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<bool>("diff");
    QTest::addColumn<int>("sample");
    QTest::addColumn<int>("granularity");
    QTest::addColumn<int>("nodeCount");   // -1: the default
    QTest::addColumn<QString>("filter");  // focus=, ignore=, show=, hide=, tagfocus=
    auto add = [](const char *name, QStringList args, bool diff, int sample, Granularity g, int nodes, QString filter) {
        QTest::newRow(name) << args << diff << sample << int(g) << nodes << filter;
    };
    using G = Granularity;
    add("nodecount 0", {"--nodecount", "0"}, false, 1, G::Functions, 0, {});
    add("sample by index", {"--sample", "0"}, false, 0, G::Functions, -1, {});
    add("sample by name", {"--sample", "samples"}, false, 0, G::Functions, -1, {});
    add("lines", {"--granularity", "lines"}, false, 1, G::Lines, -1, {});
    add("addresses", {"--granularity=addresses", "--nodecount=0"}, false, 1, G::Addresses, 0, {});
    add("focus", {"--focus", "checksum"}, false, 1, G::Functions, -1, "focus=checksum");
    add("ignore", {"--ignore", "checksum"}, false, 1, G::Functions, -1, "ignore=checksum");
    add("show", {"--show", "main\\."}, false, 1, G::Functions, -1, "show=main\\.");
    add("hide", {"--hide=runtime"}, false, 1, G::Functions, -1, "hide=runtime");
    add("tagfocus", {"--tagfocus", "x=y"}, false, 1, G::Functions, -1, "tagfocus=x=y");
    add("diff nodecount 0 lines", {"--nodecount", "0", "--granularity", "lines"}, true, 1, G::Lines, 0, {});
    add("diff sample focus", {"--sample", "samples", "--focus", "main"}, true, 0, G::Functions, -1, "focus=main");
}

void tst_GraphMarks::cliOptionsAsTheModel()
{
    QFETCH(QStringList, args);
    QFETCH(bool, diff);
    QFETCH(int, sample);
    QFETCH(int, granularity);
    QFETCH(int, nodeCount);
    QFETCH(QString, filter);
    const QString base = QStringLiteral(QFLAME_TEST_DATA "/gen__baseline.cpu.pb.gz");
    const QString next = QStringLiteral(QFLAME_TEST_DATA "/gen__optimized.cpu.pb.gz");
    const auto b = readProfileFile(base, {}), n = readProfileFile(next, {});
    BuildOptions build;
    build.granularity = Granularity(granularity);
    if (!filter.isEmpty()) {
        const QString key = filter.section(QLatin1Char('='), 0, 0);
        const std::string value = filter.section(QLatin1Char('='), 1).toStdString();
        (key == QLatin1String("focus")    ? build.filters.focus
         : key == QLatin1String("ignore") ? build.filters.ignore
         : key == QLatin1String("show")   ? build.filters.show
         : key == QLatin1String("hide")   ? build.filters.hide
                                          : build.filters.tagFocus) = value;
    }
    GraphOptions options;
    if (nodeCount >= 0)
        options.nodeCount = nodeCount;
    const auto graph = diff ? CallGraph::buildDiff({b}, {n}, size_t(sample), build, options)
                            : CallGraph::build({b}, size_t(sample), build, options);
    QStringList all = diff ? QStringList{QStringLiteral("diff"), base, next, QStringLiteral("--graph")}
                           : QStringList{QStringLiteral("graph"), base};
    const Run r = runQflame(all + args + QStringList{QStringLiteral("--tsv")});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out.toStdString(), graphTsv(*graph));
    if (nodeCount == 0)   // no limit: every node that passes nodefraction
        QCOMPARE(graph->nodes().size(), graph->nodesBeforeLimit());
}

QTEST_MAIN(tst_GraphMarks)
#include "tst_graphmarks.moc"
