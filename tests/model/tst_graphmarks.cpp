// What a comparison's call graph learns from elsewhere (model/graph/GraphMarks): the PGO panel's inlining changes on
// their edges (in the people output, the dot file and, unchanged, the TSV of `qflame diff --graph`), and the rounds'
// measured noise classing its nodes. Hand-built profiles, expected values by hand.
#include "PgoTestSupport.h"
#include "diff/DiffSide.h"
#include "diff/DiffTable.h"
#include "graph/GraphMarks.h"
#include "graph/GraphReport.h"
#include "rounds/Rounds.h"

#include <cmath>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
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

// main calls hot and work, `hot` and `work` samples each, over `seconds`.
Builder mainHotWork(int64_t hot, int64_t work, int64_t seconds)
{
    Builder b;
    const uint64_t main = b.function("main", 1), h = b.function("hot", 20), w = b.function("work", 40);
    const uint64_t lMain = b.location(0x10, {{main, 5}});
    b.sample({b.location(0x20, {{h, 21}}), lMain}, {hot});
    b.sample({b.location(0x30, {{w, 41}}), lMain}, {work});
    b.message().set_duration_nanos(seconds * 1000000000);
    return b;
}

// The ratio estimator's standard error from the spread (rounds/RoundStats.h), written out again here: values v_i
// over d_i seconds, R = sum v / sum d, SE = sqrt(k / (k - 1) * sum (v_i - R d_i)^2) / sum d.
double spreadError(const std::vector<double> &v, const std::vector<double> &d)
{
    double sv = 0, sd = 0, ss = 0;
    for (size_t i = 0; i < v.size(); ++i)
        sv += v[i], sd += d[i];
    for (size_t i = 0; i < v.size(); ++i)
        ss += (v[i] - sv / sd * d[i]) * (v[i] - sv / sd * d[i]);
    return std::sqrt(double(v.size()) / double(v.size() - 1) * ss) / sd;
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
    void roundsMeasureEdgeNoise();
    void normalizationAsTheDiff();
    void cliDiffGraphNormalize();
    void cliRoundsGraph();
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

// Rounds of files keep each edge's per-file weights' spread; a comparison of two rounds classes the graph's edges
// by it, as its nodes. Two rounds of two 1-second files each and a third of one file, the errors worked here.
void tst_GraphMarks::roundsMeasureEdgeNoise()
{
    // main -> hot: 60, 160 then 40, 100 (a wide spread); main -> work: 10, 12 then 16, 18 (a narrow one).
    const Builder b1 = mainHotWork(60, 10, 1), b2 = mainHotWork(160, 12, 1), n1 = mainHotWork(40, 16, 1),
                  n2 = mainHotWork(100, 18, 1), lone = mainHotWork(50, 50, 1);
    std::vector<RoundInput> inputs{{"base", {b1.profile("b1"), b2.profile("b2")}, {}},
                                   {"next", {n1.profile("n1"), n2.profile("n2")}, {}},
                                   {"lone", {lone.profile("lone")}, {}}};
    const RoundsResult rounds = compareRounds(inputs, {});
    // Per edge and round: the spread's error, NaN for the round of one file.
    QCOMPARE(rounds.edges.size(), size_t(2));
    const EdgeRounds &hotRounds = rounds.edges[0], &workRounds = rounds.edges[1];
    QCOMPARE(hotRounds.caller, std::string("main"));
    QCOMPARE(hotRounds.callee, std::string("hot"));
    QCOMPARE(workRounds.callee, std::string("work"));
    const double hotBase = spreadError({60, 160}, {1, 1}), hotNext = spreadError({40, 100}, {1, 1});
    QCOMPARE(hotBase, 50.0);   // R = 110, residuals -50 and +50: sqrt(2 * 5000) / 2
    QCOMPARE(hotNext, 30.0);
    QCOMPARE(hotRounds.weightError[0], hotBase);
    QCOMPARE(hotRounds.weightError[1], hotNext);
    QVERIFY(std::isnan(hotRounds.weightError[2]));
    QCOMPARE(workRounds.weightError[0], spreadError({10, 12}, {1, 1}));   // 1
    QCOMPARE(workRounds.weightError[1], 1.0);

    const MeasuredNoise noise = measuredNoiseBetween(rounds, 0, 1);
    const double hotError = std::sqrt(50.0 * 50.0 + 30.0 * 30.0), workError = std::sqrt(2.0);
    QCOMPARE(noise.edgeStandardError.size(), size_t(2));
    QCOMPARE(noise.edgeStandardError.at({"main", "hot"}), hotError);
    QCOMPARE(noise.edgeStandardError.at({"main", "work"}), workError);
    QVERIFY(measuredNoiseBetween(rounds, 0, 2).edgeStandardError.empty());   // the lone round has no spread
    RoundsOptions noEdges;   // the CLI's tables: no walk of the edges, the functions' numbers unchanged
    noEdges.edgeNoise = false;
    const RoundsResult tables = compareRounds(inputs, noEdges);
    QVERIFY(tables.edges.empty());
    QVERIFY(measuredNoiseBetween(tables, 0, 1).edgeStandardError.empty());
    QCOMPARE(measuredNoiseBetween(tables, 0, 1).cumStandardError, noise.cumStandardError);

    // The comparison of the two rounds' merged trees, per second as the rounds tab opens it (2 s a side).
    DiffOptions perSecond;
    perSecond.normalization = Normalization::PerSecond;
    const auto graph = CallGraph::buildDiff(inputs[0].profiles, inputs[1].profiles, 0, {}, GraphOptions::unpruned(),
                                            perSecond);
    QCOMPARE(graph->scale(0), 0.5);
    const int hot = edgeNamed(*graph, "main", "hot"), work = edgeNamed(*graph, "main", "work");
    QVERIFY(hot >= 0 && work >= 0);
    const GraphEdge &hotEdge = graph->edges()[uint32_t(hot)], &workEdge = graph->edges()[uint32_t(work)];
    // Poisson's: hot 110/s -> 70/s, -40 against 2 * sqrt(110^2/220 + 70^2/140) = 2 * sqrt(90): faster;
    // work 11/s -> 17/s, +6 against 2 * sqrt(11^2/22 + 17^2/34) = 2 * sqrt(14) = 7.48: noise.
    QCOMPARE(graph->edgeDelta(hotEdge), -40.0);
    QCOMPARE(graph->edgeDelta(workEdge), 6.0);
    QCOMPARE(graph->classOf(hotEdge), DiffClass::Faster);
    QCOMPARE(graph->classOf(workEdge), DiffClass::WithinNoise);
    // Measured: hot -40 within 2 * 58.3 (noise); work +6 past 2 * 1.41 (slower).
    const auto measured = withMeasuredNoise(graph, noise, graph->scale(0), graph->scale(1));
    QCOMPARE(measuredEdgeCount(*measured), size_t(2));
    QCOMPARE(measured->measuredEdgeError(uint32_t(hot)), hotError);
    QCOMPARE(measured->classOf(measured->edges()[uint32_t(hot)]), DiffClass::WithinNoise);
    QCOMPARE(measured->classOf(measured->edges()[uint32_t(work)]), DiffClass::Slower);
    // K = 5: work's +6 is within 5 * 1.41 = 7.07.
    perSecond.noiseK = 5;
    const auto wider = withMeasuredNoise(CallGraph::buildDiff(inputs[0].profiles, inputs[1].profiles, 0, {},
                                                              GraphOptions::unpruned(), perSecond),
                                         noise, 0.5, 0.5);
    QCOMPARE(wider->classOf(wider->edges()[uint32_t(edgeNamed(*wider, "main", "work"))]), DiffClass::WithinNoise);
    // The TSV prints the measured class.
    const QString tsv = QString::fromStdString(graphTsv(*measured));
    QVERIFY2(tsv.contains(QStringLiteral("edge\tmain\twork\t11\t17\t6\tslower\tcall\n")), qPrintable(tsv));
    QVERIFY2(tsv.contains(QStringLiteral("edge\tmain\thot\t110\t70\t-40\tnoise\tcall\n")), qPrintable(tsv));
}

// The comparison's graph under each of the diff's normalisations: the same scales as the diff tree (one function),
// the values, classes and TSV worked by hand. base: hot 100, work 50 over 10 s; next: hot 120, work 180 over 20 s.
void tst_GraphMarks::normalizationAsTheDiff()
{
    const auto base = mainHotWork(100, 50, 10).profile("base"), next = mainHotWork(120, 180, 20).profile("next");
    for (const char *n : {"none", "per-second", "total", "2.5"}) {
        DiffOptions o;
        QVERIFY(parseNormalization(n, &o));
        const auto tree = DiffTree::build(DiffSide::fromProfiles({base}, 0), DiffSide::fromProfiles({next}, 0), o);
        const auto g = CallGraph::buildDiff({base}, {next}, 0, {}, GraphOptions::unpruned(), o);
        QCOMPARE(g->scale(0), tree->beforeScale());
        QCOMPARE(g->scale(1), tree->afterScale());
        QCOMPARE(g->normalizationText(), tree->normalizationDescription());
    }
    DiffOptions total;
    total.normalization = Normalization::Total;   // next scaled by 150 / 300
    const auto g = CallGraph::buildDiff({base}, {next}, 0, {}, GraphOptions::unpruned(), total);
    QCOMPARE(g->scale(1), 0.5);
    // hot 100 -> 60: -40 against 2 * sqrt(100^2/100 + 60^2/120) = 22.8: faster (raw, +20 was noise);
    // work 50 -> 90: +40 against 2 * sqrt(50^2/50 + 90^2/180) = 19.5: slower; main 150 -> 150: unchanged.
    QCOMPARE(QString::fromStdString(graphTsv(*g)),
             QStringLiteral("node\thot\t100\t60\t-40\t100\t60\t-40\tfaster\n"
                            "node\twork\t50\t90\t40\t50\t90\t40\tslower\n"
                            "node\tmain\t0\t0\t0\t150\t150\t0\tunchanged\n"
                            "edge\tmain\thot\t100\t60\t-40\tfaster\tcall\n"
                            "edge\tmain\twork\t50\t90\t40\tslower\tcall\n"));
    const auto raw = CallGraph::buildDiff({base}, {next}, 0, {}, GraphOptions::unpruned(), 2.0);
    QCOMPARE(raw->classOf(raw->nodes()[nodeNamed(*raw, "hot")]), DiffClass::WithinNoise);   // +20 vs 29.7
    QCOMPARE(graphNormalizationLine(*raw), std::string());
    QCOMPARE(graphNormalizationLine(*g), "Normalisation: total: the share view, not cost (the comparison scaled by "
                                         "0.5 to the baseline total)");
    // The dot legend states it; the shown total is the baseline's 150.
    const std::string dot = graphDot(*g);
    QVERIFY(dot.find("the comparison scaled by 0.5 to the baseline total)\\l") != std::string::npos);
    QCOMPARE(g->scaledTotal(), 150.0);
    QCOMPARE(g->shownDelta(), 0.0);   // flat deltas -40 and +40
    // Per second: 15/s a side; hot 10 -> 6, work 5 -> 9 per second.
    DiffOptions ps;
    ps.normalization = Normalization::PerSecond;
    const auto s = CallGraph::buildDiff({base}, {next}, 0, {}, GraphOptions::unpruned(), ps);
    QCOMPARE(s->cumDelta(s->nodes()[nodeNamed(*s, "hot")]), -4.0);
    QCOMPARE(s->edgeDelta(s->edges()[uint32_t(edgeNamed(*s, "main", "work"))]), 4.0);
    QCOMPARE(graphDeltaText(*s, 4.0), std::string("4/s"));   // as the diff writes a count per second
    // What a side lacks is the diff's error: a profile without a duration cannot be per second.
    Builder noDuration = mainHotWork(1, 1, 0);
    QVERIFY_THROWS_EXCEPTION(ProfileError, CallGraph::buildDiff({noDuration.profile("a")}, {next}, 0, {},
                                                                GraphOptions::unpruned(), ps));
}

// diff --graph --normalize: the option of diff, through the real binary.
void tst_GraphMarks::cliDiffGraphNormalize()
{
    QTemporaryDir dir;
    const QString base = writeProfile(dir, "base.pb", mainHotWork(100, 50, 10));
    const QString next = writeProfile(dir, "next.pb", mainHotWork(120, 180, 20));
    const auto g = CallGraph::buildDiff({readProfileFile(base, {})}, {readProfileFile(next, {})}, 0, {},
                                        GraphOptions{}, [] {
                                            DiffOptions o;
                                            o.normalization = Normalization::Total;
                                            return o;
                                        }());
    Run r = runQflame({QStringLiteral("diff"), base, next, QStringLiteral("--graph"), QStringLiteral("--normalize"),
                       QStringLiteral("total"), QStringLiteral("--tsv")});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out.toStdString(), graphTsv(*g));
    QVERIFY(r.out.startsWith("node\thot\t100\t60\t-40\t100\t60\t-40\tfaster\n"));
    r = runQflame({QStringLiteral("diff"), base, next, QStringLiteral("--graph"), QStringLiteral("--normalize=total")});
    QCOMPARE(r.code, 0);
    const QString out = QString::fromUtf8(r.out);
    QVERIFY2(out.contains(QStringLiteral("\nNormalisation: total: the share view, not cost (the comparison scaled by "
                                         "0.5 to the baseline total)\n")),
             qPrintable(out));
    QVERIFY2(out.contains(QStringLiteral("\nhot  flat -40  cum -40  (faster)\n")), qPrintable(out));
    r = runQflame({QStringLiteral("diff"), base, next, QStringLiteral("--graph"), QStringLiteral("--normalize"),
                   QStringLiteral("2"), QStringLiteral("--json")});
    QCOMPARE(r.code, 0);
    const QJsonObject json = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(json.value(QStringLiteral("normalization")).toString(), QStringLiteral("factor"));
    QJsonObject hot;   // 100 -> 2 x 120
    for (const QJsonValue &n : json.value(QStringLiteral("nodes")).toArray())
        if (n.toObject().value(QStringLiteral("name")).toString() == QLatin1String("hot"))
            hot = n.toObject();
    QCOMPARE(hot.value(QStringLiteral("before_cum")).toDouble(), 100.0);
    QCOMPARE(hot.value(QStringLiteral("after_cum")).toDouble(), 240.0);
    QCOMPARE(hot.value(QStringLiteral("delta_cum")).toDouble(), 140.0);
    r = runQflame({QStringLiteral("diff"), base, next, QStringLiteral("--graph"), QStringLiteral("--normalize"),
                   QStringLiteral("sideways")});
    QCOMPARE(r.code, 1);
    QVERIFY(r.err.startsWith("qflame: --normalize must be none, per-second, total or a positive factor, not 'sideways'"));
}

// rounds --graph: the first round against the last, per second, classed by their measured noise (the rounds of
// roundsMeasureEdgeNoise, as files).
void tst_GraphMarks::cliRoundsGraph()
{
    QTemporaryDir dir;
    const QString b1 = writeProfile(dir, "b1.pb", mainHotWork(60, 10, 1)),
                  b2 = writeProfile(dir, "b2.pb", mainHotWork(160, 12, 1)),
                  n1 = writeProfile(dir, "n1.pb", mainHotWork(40, 16, 1)),
                  n2 = writeProfile(dir, "n2.pb", mainHotWork(100, 18, 1));
    const QStringList rounds{QStringLiteral("rounds"), QStringLiteral("-r"), QStringLiteral("base"), b1, b2,
                             QStringLiteral("-r"), QStringLiteral("next"), n1, n2, QStringLiteral("--graph")};
    Run r = runQflame(rounds + QStringList{QStringLiteral("--tsv")});
    QCOMPARE(r.code, 0);
    // main: 121/s -> 87/s against 2 * sqrt(51^2 + 31^2) (its per-file cums 70, 172 and 56, 118): noise; hot as
    // the edge main -> hot (noise, where Poisson's says faster); work and main -> work slower (Poisson's: noise).
    QCOMPARE(QString::fromUtf8(r.out),
             QStringLiteral("node\thot\t110\t70\t-40\t110\t70\t-40\tnoise\n"
                            "node\tmain\t0\t0\t0\t121\t87\t-34\tnoise\n"
                            "node\twork\t11\t17\t6\t11\t17\t6\tslower\n"
                            "edge\tmain\thot\t110\t70\t-40\tnoise\tcall\n"
                            "edge\tmain\twork\t11\t17\t6\tslower\tcall\n"));
    r = runQflame(rounds);
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("\nNormalisation: per-second (each side divided by its own duration)\nNoise measured "
                            "from the spread of the rounds base (2 observations) and next (2) for 3 of 3 nodes and "
                            "2 of 2 edges (Poisson's for the rest)\n"),
             r.out.constData());
    // Its --png is drawn by qflame-gui: tests/cli/tst_cliformats (graphPictures).
    // One round has nothing to compare.
    r = runQflame({QStringLiteral("rounds"), QStringLiteral("-r"), QStringLiteral("base"), b1, b2,
                   QStringLiteral("--graph")});
    QCOMPARE(r.code, 1);
    QVERIFY(r.err.startsWith("qflame: rounds --graph compares the first round with the last"));
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
