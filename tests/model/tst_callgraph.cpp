// The call graph (model/graph): hand-made profiles whose graphs are worked out by hand (recursion, inline edges,
// pruning, residual edges, a comparison), and every profile of the corpus against go tool pprof's own -dot graph.
#include "PprofMaker.h"
#include "GoToolchain.h"
#include "formats/ProfileInput.h"
#include "graph/CallGraph.h"
#include "graph/GraphReport.h"

#include "profile.pb.h"
#include "SharedCorpus.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <map>
#include <tuple>

using namespace qflame;
namespace pb = perftools::profiles;
using qflame::pgotest::goBinary;

namespace {

using Maker = qflame::test::PprofMaker;

// "name flat cum" per node and "caller>callee weight kind" per edge, sorted, for one-line comparisons.
QStringList describe(const CallGraph &g)
{
    QStringList out;
    for (uint32_t i = 0; i < g.nodes().size(); ++i)
        out << QStringLiteral("%1 %2 %3").arg(QString::fromStdString(g.name(i))).arg(g.nodes()[i].flatValue())
                   .arg(g.nodes()[i].cumValue());
    for (const GraphEdge &e : g.edges())
        out << QStringLiteral("%1>%2 %3 %4").arg(QString::fromStdString(g.name(e.from)),
                                                QString::fromStdString(g.name(e.to)))
                   .arg(e.value()).arg(QLatin1String(e.kind()));
    out.sort();
    return out;
}

// ---- go tool pprof's -dot, parsed ----

struct DotGraph {
    std::vector<std::tuple<std::string, int64_t, int64_t>> nodes;             // name (dot-escaped), flat, cum
    std::vector<std::tuple<std::string, std::string, int64_t, std::string>> edges;   // caller, callee, weight, kind
};

// pprof's escapeForDot, so that our names compare with its tooltips.
std::string dotEscaped(const std::string &s)
{
    std::string out;
    for (char c : s) {
        if (c == '\\' || c == '"')
            out += '\\';
        if (c == '\n')
            out += "\\l";
        else
            out += c;
    }
    return out;
}

int64_t leadingNumber(const std::string &text)
{
    return int64_t(std::llround(std::strtod(text.c_str(), nullptr)));
}

std::string between(const std::string &line, const std::string &open, const std::string &close)
{
    const size_t a = line.find(open);
    if (a == std::string::npos)
        return {};
    const size_t b = line.find(close, a + open.size());
    return b == std::string::npos ? std::string() : line.substr(a + open.size(), b - a - open.size());
}

DotGraph parseDot(const QByteArray &dot)
{
    DotGraph g;
    std::map<std::string, std::string> names;   // N12 -> name
    const QList<QByteArray> lines = dot.split('\n');
    for (const QByteArray &raw : lines) {
        const std::string line = raw.toStdString();
        if (line.rfind("N", 0) != 0 || line.find("_") < line.find(' '))
            continue;
        const std::string id = line.substr(0, line.find(' '));
        if (line.compare(id.size(), 4, " -> ") != 0) {   // a node
            const std::string tooltip = between(line, "tooltip=\"", "\" color=");
            const std::string name = tooltip.substr(0, tooltip.rfind(" ("));
            names[id] = name;
            std::vector<std::string> parts;
            std::string label = between(line, "label=\"", "\" id=\"node");
            for (size_t at; (at = label.find("\\n")) != std::string::npos; label = label.substr(at + 2))
                parts.push_back(label.substr(0, at));
            parts.push_back(label);
            const std::string &last = parts.back();
            int64_t flat, cum;
            if (last.rfind("0 of ", 0) == 0) {
                flat = 0;
                cum = leadingNumber(last.substr(5));
            } else if (last.rfind("of ", 0) == 0) {
                cum = leadingNumber(last.substr(3));
                flat = leadingNumber(parts[parts.size() - 2]);
            } else {
                flat = cum = leadingNumber(last);
            }
            g.nodes.emplace_back(name, flat, cum);
            continue;
        }
        const std::string to = line.substr(id.size() + 4, line.find(' ', id.size() + 4) - id.size() - 4);
        if (to.find('_') != std::string::npos || to == "N0")
            continue;   // nodelets; an edge to a node pprof dropped
        const std::string label = between(line, "label=\" ", "\"");
        const std::string kind = line.find("style=\"dotted\"") != std::string::npos ? "residual"
                                 : label.find("(inline)") != std::string::npos    ? "inline"
                                                                                  : "call";
        g.edges.emplace_back(id, to, leadingNumber(label), kind);
    }
    for (auto &e : g.edges) {
        std::get<0>(e) = names[std::get<0>(e)];
        std::get<1>(e) = names[std::get<1>(e)];
    }
    std::sort(g.nodes.begin(), g.nodes.end());
    std::sort(g.edges.begin(), g.edges.end());
    return g;
}

DotGraph ours(const CallGraph &graph)
{
    DotGraph g;
    for (uint32_t i = 0; i < graph.nodes().size(); ++i)
        g.nodes.emplace_back(dotEscaped(graph.name(i)), graph.nodes()[i].flatValue(), graph.nodes()[i].cumValue());
    for (const GraphEdge &e : graph.edges())
        g.edges.emplace_back(dotEscaped(graph.name(e.from)), dotEscaped(graph.name(e.to)), e.value(), e.kind());
    std::sort(g.nodes.begin(), g.nodes.end());
    std::sort(g.edges.begin(), g.edges.end());
    return g;
}

// The first difference, for a failure message; empty when equal.
QString firstDifference(const DotGraph &expected, const DotGraph &actual)
{
    auto nodeText = [](const auto &n) {
        return QStringLiteral("node %1 flat %2 cum %3").arg(QString::fromStdString(std::get<0>(n))).arg(std::get<1>(n))
            .arg(std::get<2>(n));
    };
    auto edgeText = [](const auto &e) {
        return QStringLiteral("edge %1 -> %2 %3 %4").arg(QString::fromStdString(std::get<0>(e)),
                                                         QString::fromStdString(std::get<1>(e)))
            .arg(std::get<2>(e)).arg(QString::fromStdString(std::get<3>(e)));
    };
    for (size_t i = 0; i < std::max(expected.nodes.size(), actual.nodes.size()); ++i) {
        if (i < expected.nodes.size() && i < actual.nodes.size() && expected.nodes[i] == actual.nodes[i])
            continue;
        return QStringLiteral("%1 nodes vs %2; pprof: %3; ours: %4").arg(expected.nodes.size()).arg(actual.nodes.size())
            .arg(i < expected.nodes.size() ? nodeText(expected.nodes[i]) : QStringLiteral("-"),
                 i < actual.nodes.size() ? nodeText(actual.nodes[i]) : QStringLiteral("-"));
    }
    for (size_t i = 0; i < std::max(expected.edges.size(), actual.edges.size()); ++i) {
        if (i < expected.edges.size() && i < actual.edges.size() && expected.edges[i] == actual.edges[i])
            continue;
        return QStringLiteral("%1 edges vs %2; pprof: %3; ours: %4").arg(expected.edges.size()).arg(actual.edges.size())
            .arg(i < expected.edges.size() ? edgeText(expected.edges[i]) : QStringLiteral("-"),
                 i < actual.edges.size() ? edgeText(actual.edges[i]) : QStringLiteral("-"));
    }
    return {};
}

QString corpusDir()
{
    return qflame::test::sharedPath(QStringLiteral("corpus"));
}

// go tool pprof -dot ARGS, its output kept beside the test binary by the arguments' hash: the largest profile takes
// pprof most of a minute, and the corpus does not change between runs.
QByteArray pprofDot(const QString &go, const QStringList &args, QString *error)
{
    const QString cacheDir = QCoreApplication::applicationDirPath() + QStringLiteral("/callgraph-oracle");
    QDir().mkpath(cacheDir);
    const QString key = QString::fromLatin1(
        QCryptographicHash::hash(args.join(QLatin1Char('\n')).toUtf8(), QCryptographicHash::Sha1).toHex());
    QFile cached(cacheDir + QLatin1Char('/') + key + QStringLiteral(".dot"));
    if (cached.open(QIODevice::ReadOnly))
        return cached.readAll();
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("TZ"), QStringLiteral("UTC"));
    p.setProcessEnvironment(env);
    p.start(go, QStringList{QStringLiteral("tool"), QStringLiteral("pprof"), QStringLiteral("-dot"),
                            QStringLiteral("-symbolize=none")} + args);
    p.waitForFinished(600000);
    const QByteArray out = p.readAllStandardOutput();
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        *error = QString::fromUtf8(p.readAllStandardError()).left(300);
        return {};
    }
    if (cached.open(QIODevice::WriteOnly))
        cached.write(out);
    return out;
}

struct CorpusFile {
    QString name;
    bool readByPprof = true;
};

std::vector<CorpusFile> corpusFiles()
{
    std::vector<CorpusFile> files;
    QFile manifest(corpusDir() + QStringLiteral("/MANIFEST.tsv"));
    if (!manifest.open(QIODevice::ReadOnly))
        return files;
    const QList<QByteArray> lines = manifest.readAll().split('\n');
    for (int i = 1; i < lines.size(); ++i) {
        const QList<QByteArray> cols = lines[i].split('\t');
        if (cols.size() < 21)
            continue;
        files.push_back({QString::fromUtf8(cols[0]), cols[20].trimmed() == "ok"});
    }
    return files;
}

}   // namespace

class tst_CallGraph : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void recursionCountsOncePerSample();
    void inlineEdges();
    void nodeFractionLeavesResidualEdges();
    void residualEdgeRemovedWhenRedundant();
    void nodeCountKeepsHighestEntropy();
    void comparisonNodesEdgesAndNoise();
    void tsvFormat();
    void cliPrintsTheModelsText();
    void cliErrors_data();
    void cliErrors();
    void corpusAgainstPprof_data();
    void corpusAgainstPprof();
    void diffAgainstPprof_data();
    void diffAgainstPprof();
};

void tst_CallGraph::recursionCountsOncePerSample()
{
    Maker m;
    m.stack("main;a;b;a;b", {10});
    m.stack("main;a", {5});
    const auto g = CallGraph::build({m.profile()}, 0, {}, GraphOptions::unpruned());
    QCOMPARE(describe(*g), QStringList({"a 5 15", "a>b 10 call", "b 10 10", "b>a 10 call", "main 0 15",
                                        "main>a 15 call"}));
}

void tst_CallGraph::inlineEdges()
{
    Maker m;
    const uint64_t outer = m.fn("outer"), inl = m.fn("inl"), both = m.fn("both"), main = m.fn("main");
    const uint64_t lMain = m.locOf({main}), lInl = m.locOf({inl, outer});   // inl inlined into outer
    const uint64_t lBothInl = m.locOf({both, main});                      // both inlined into main ...
    const uint64_t lBoth = m.locOf({both});                               // ... and really called from main
    m.sample({lInl, lMain}, {7});
    m.sample({lBothInl}, {2});
    m.sample({lBoth, lMain}, {1});
    m.sample({lBothInl}, {4});
    const auto g = CallGraph::build({m.profile()}, 0, {}, GraphOptions::unpruned());
    // main -> both: 6 inlined and 1 called, so a call; outer -> inl: only inlined.
    QCOMPARE(describe(*g), QStringList({"both 7 7", "inl 7 7", "main 0 14", "main>both 7 call", "main>outer 7 call",
                                        "outer 0 7", "outer>inl 7 inline"}));
}

void tst_CallGraph::nodeFractionLeavesResidualEdges()
{
    Maker m;
    m.stack("main;tiny;d", {1});
    m.stack("main;x", {100});
    m.stack("d", {100});
    GraphOptions o = GraphOptions::unpruned();
    o.nodeFraction = 0.01;   // cutoff int(201 * 0.01) = 2: tiny (cum 1) goes
    const auto g = CallGraph::build({m.profile()}, 0, {}, o);
    QCOMPARE(describe(*g), QStringList({"d 101 101", "main 0 101", "main>d 1 residual", "main>x 100 call",
                                        "x 100 100"}));
    QCOMPARE(g->droppedNodes(), size_t(1));
    QCOMPARE(g->nodeCutoff(), int64_t(2));
}

void tst_CallGraph::residualEdgeRemovedWhenRedundant()
{
    Maker m;
    m.stack("main;mid;leaf", {100});
    m.stack("main;small;leaf", {1});
    GraphOptions o = GraphOptions::unpruned();
    o.nodeFraction = 0.02;   // cutoff 2: small goes; main ... leaf is residual, but main -> mid -> leaf reaches it
    const auto g = CallGraph::build({m.profile()}, 0, {}, o);
    QCOMPARE(describe(*g), QStringList({"leaf 101 101", "main 0 101", "main>mid 100 call", "mid 0 100",
                                        "mid>leaf 100 call"}));
}

void tst_CallGraph::nodeCountKeepsHighestEntropy()
{
    // pprof's entropy scores: main 1 + H(10,5,1)/16 -> int(2.198 * 16) = 35; a 1*10 + 10 = 20; b 10; c 2.
    Maker m;
    m.stack("main;a", {10});
    m.stack("main;b", {5});
    m.stack("main;c", {1});
    GraphOptions o = GraphOptions::unpruned();
    o.nodeCount = 2;
    const auto g = CallGraph::build({m.profile()}, 0, {}, o);
    QCOMPARE(describe(*g), QStringList({"a 10 10", "main 0 16", "main>a 10 call"}));
    // Rebuilt with main and a only, main passes all its flow on (score 1 * 16) and a ends it (1 * 10 + 10): a first.
    QCOMPARE(g->name(0), std::string("a"));
    QCOMPARE(g->nodesBeforeLimit(), size_t(4));
    // The default edge fraction drops edges under 0.001 of the flat sum: 16 * 0.001 = 0, none here.
    o.nodeCount = 3;
    QCOMPARE(describe(*CallGraph::build({m.profile()}, 0, {}, o)),
             QStringList({"a 10 10", "b 5 5", "main 0 16", "main>a 10 call", "main>b 5 call"}));
}

void tst_CallGraph::comparisonNodesEdgesAndNoise()
{
    Maker before, after;
    before.stack("main;a", {100});
    before.stack("main;b", {5});
    after.stack("main;a", {40});
    after.stack("main;b", {5});
    after.stack("main;c", {3});
    const auto g = CallGraph::buildDiff({before.profile()}, {after.profile()}, 0, {}, GraphOptions::unpruned(), 2.0);
    // b nets to 0 in flat and cum: pprof's -diff_base graph leaves it out, and its edge with it.
    QCOMPARE(describe(*g), QStringList({"a -60 -60", "c 3 3", "main 0 -57", "main>a -60 call", "main>c 3 call"}));
    QVERIFY(g->isDiff());
    QVERIFY(g->hasSampleCounts());
    for (uint32_t i = 0; i < g->nodes().size(); ++i) {
        const GraphNode &n = g->nodes()[i];
        if (g->name(i) == "a") {   // |-60| > 2 * sqrt(100 + 40) = 23.7: faster
            QCOMPARE(n.cum[0], int64_t(100));
            QCOMPARE(n.cum[1], int64_t(40));
            QCOMPARE(g->classOf(n), DiffClass::Faster);
        } else if (g->name(i) == "c") {
            QCOMPARE(g->classOf(n), DiffClass::New);
        } else {   // main: |-57| > 2 * sqrt(105 + 48) = 24.7
            QCOMPARE(g->classOf(n), DiffClass::Faster);
        }
    }
    Maker small;
    small.stack("main;a", {10});
    Maker smaller;
    smaller.stack("main;a", {6});
    const auto noisy = CallGraph::buildDiff({small.profile()}, {smaller.profile()}, 0, {}, GraphOptions::unpruned(), 2.0);
    // |-4| < 2 * sqrt(10 + 6) = 8: within noise.
    for (const GraphNode &n : noisy->nodes())
        QCOMPARE(noisy->classOf(n), DiffClass::WithinNoise);
    QCOMPARE(noisy->classOf(noisy->edges().at(0)), DiffClass::WithinNoise);
}

void tst_CallGraph::tsvFormat()
{
    Maker m;
    m.stack("main;a\tb", {3});
    m.stack("main;c", {3});
    const auto g = CallGraph::build({m.profile()}, 0, {}, GraphOptions::unpruned());
    QCOMPARE(QString::fromStdString(graphTsv(*g)),
             QStringLiteral("node\tmain\t0\t6\nnode\ta\\tb\t3\t3\nnode\tc\t3\t3\n"
                            "edge\tmain\ta\\tb\t3\tcall\nedge\tmain\tc\t3\tcall\n"));
    Maker base;
    base.stack("main;c", {5});
    const auto d = CallGraph::buildDiff({base.profile()}, {m.profile()}, 0, {}, GraphOptions::unpruned(), 0);
    QCOMPARE(QString::fromStdString(graphTsv(*d)),
             QStringLiteral("node\ta\\tb\t0\t3\t3\t0\t3\t3\tnew\nnode\tc\t5\t3\t-2\t5\t3\t-2\tfaster\n"
                            "node\tmain\t0\t0\t0\t5\t6\t1\tslower\n"
                            "edge\tmain\ta\\tb\t0\t3\t3\tnew\tcall\nedge\tmain\tc\t5\t3\t-2\tfaster\tcall\n"));
}

namespace {

struct CliRun {
    int code = -1;
    QByteArray out, err;
};

CliRun runQflame(const QStringList &args)
{
    QProcess p;
    p.start(QStringLiteral(QFLAME_BINARY), args);
    p.waitForFinished(120000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

}   // namespace

void tst_CallGraph::cliPrintsTheModelsText()
{
    const QString base = QStringLiteral(QFLAME_TEST_DATA "/gen__baseline.cpu.pb.gz");
    const QString next = QStringLiteral(QFLAME_TEST_DATA "/gen__optimized.cpu.pb.gz");
    const auto before = readProfileFile(base, {}), after = readProfileFile(next, {});
    const size_t cpu = size_t(before->findSampleType("cpu"));
    CliRun r = runQflame({QStringLiteral("graph"), base, QStringLiteral("--tsv")});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out.toStdString(), graphTsv(*CallGraph::build({before}, cpu)));
    BuildOptions hide;
    hide.filters.hide = "runtime";
    GraphOptions twenty;
    twenty.nodeCount = 20;
    r = runQflame({QStringLiteral("graph"), base, QStringLiteral("--tsv"), QStringLiteral("--nodecount=20"),
                   QStringLiteral("--hide"), QStringLiteral("runtime")});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out.toStdString(), graphTsv(*CallGraph::build({before}, cpu, hide, twenty)));
    r = runQflame({QStringLiteral("diff"), base, next, QStringLiteral("--graph"), QStringLiteral("--tsv"),
                   QStringLiteral("--nodecount"), QStringLiteral("0"), QStringLiteral("--nodefraction=0"),
                   QStringLiteral("--edgefraction=0")});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out.toStdString(), graphTsv(*CallGraph::buildDiff({before}, {after}, cpu, {}, GraphOptions::unpruned())));
    QTemporaryDir dir;
    const QString dot = dir.filePath(QStringLiteral("g.dot"));
    r = runQflame({QStringLiteral("graph"), base, QStringLiteral("--dot"), dot});
    QCOMPARE(r.code, 0);
    QFile f(dot);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll().toStdString(), graphDot(*CallGraph::build({before}, cpu)));
}

void tst_CallGraph::cliErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("code");
    const QString base = QStringLiteral(QFLAME_TEST_DATA "/gen__baseline.cpu.pb.gz");
    QTest::newRow("no file") << QStringList{QStringLiteral("graph")} << 1;
    QTest::newRow("bad nodecount") << QStringList{QStringLiteral("graph"), base, QStringLiteral("--nodecount=-3")} << 1;
    QTest::newRow("bad fraction") << QStringList{QStringLiteral("graph"), base, QStringLiteral("--nodefraction=2")} << 1;
    QTest::newRow("two outputs") << QStringList{QStringLiteral("graph"), base, QStringLiteral("--tsv"),
                                                QStringLiteral("--dot=x.dot")}
                                 << 1;
    QTest::newRow("bad focus") << QStringList{QStringLiteral("graph"), base, QStringLiteral("--focus=(")} << 1;
    QTest::newRow("missing file") << QStringList{QStringLiteral("graph"), QStringLiteral("/nonexistent.pb.gz")} << 2;
    QTest::newRow("diff of one") << QStringList{QStringLiteral("diff"), base, QStringLiteral("--graph")} << 1;
}

void tst_CallGraph::cliErrors()
{
    QFETCH(QStringList, args);
    QFETCH(int, code);
    const CliRun r = runQflame(args);
    QCOMPARE(r.code, code);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(r.err.startsWith("qflame: "), r.err.constData());
}

void tst_CallGraph::corpusAgainstPprof_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("options");   // pprof's spelling; ours follow from them
    const std::vector<CorpusFile> files = corpusFiles();
    if (files.empty())
        return;
    const QStringList zero{QStringLiteral("-nodecount=0"), QStringLiteral("-nodefraction=0"),
                           QStringLiteral("-edgefraction=0")};
    for (const CorpusFile &f : files) {
        if (!f.readByPprof)
            continue;
        QTest::newRow(qPrintable(f.name + QStringLiteral(" default"))) << f.name << QStringList();
        QTest::newRow(qPrintable(f.name + QStringLiteral(" unpruned"))) << f.name << zero;
    }
    const QString cpu = QStringLiteral("gen__baseline.cpu.pb.gz");
    QTest::newRow("focus") << cpu << QStringList{QStringLiteral("-focus=main\\.")};
    QTest::newRow("hide") << cpu << QStringList{QStringLiteral("-hide=runtime")};
    QTest::newRow("focus unpruned") << cpu << (zero + QStringList{QStringLiteral("-focus=mix")});
    QTest::newRow("ignore and hide, large") << QStringLiteral("pprof__large.cpu")
                                            << QStringList{QStringLiteral("-ignore=Mutex"), QStringLiteral("-hide=^std::")};
    QTest::newRow("lines") << cpu << QStringList{QStringLiteral("-lines")};
    QTest::newRow("nodecount 10") << QStringLiteral("pprof__sample.cpu") << QStringList{QStringLiteral("-nodecount=10")};
}

// pprof's options as ours: the same graph must come out.
static void applyPprofOptions(const QStringList &options, BuildOptions &build, GraphOptions &graph)
{
    for (const QString &o : options) {
        const QString value = o.section(QLatin1Char('='), 1);
        if (o.startsWith(QLatin1String("-nodecount=")))
            graph.nodeCount = value.toLongLong();
        else if (o.startsWith(QLatin1String("-nodefraction=")))
            graph.nodeFraction = value.toDouble();
        else if (o.startsWith(QLatin1String("-edgefraction=")))
            graph.edgeFraction = value.toDouble();
        else if (o.startsWith(QLatin1String("-focus=")))
            build.filters.focus = value.toStdString();
        else if (o.startsWith(QLatin1String("-ignore=")))
            build.filters.ignore = value.toStdString();
        else if (o.startsWith(QLatin1String("-hide=")))
            build.filters.hide = value.toStdString();
        else if (o == QLatin1String("-lines"))
            build.granularity = Granularity::Lines;
        else
            QFAIL(qPrintable(QStringLiteral("unknown option in the test: ") + o));
    }
}

void tst_CallGraph::corpusAgainstPprof()
{
    // Without the corpus there are no rows, and QtTest runs the function once without data: skip before QFETCH.
    QFLAME_SKIP_WITHOUT_SHARED(qflame::test::sharedPath(QStringLiteral("corpus/MANIFEST.tsv")));
    QFETCH(QString, file);
    QFETCH(QStringList, options);
    REQUIRE_GO(go);
    const QString path = corpusDir() + QLatin1Char('/') + file;
    const auto profile = readProfileFile(path, {});
    const int type = profile->effectiveDefaultType();
    QVERIFY(type >= 0);
    BuildOptions build;
    GraphOptions graphOptions;
    applyPprofOptions(options, build, graphOptions);
    QStringList args = options;
    args << QStringLiteral("-sample_index=%1").arg(type);
    // Exact integers in the sample unit; the unit also names the "bytes" nodelets, which count when nodecount
    // selects, so the graph is asked for the same.
    if (!profile->unitName(size_t(type)).empty()) {
        args << QStringLiteral("-unit=") + QString::fromStdString(profile->unitName(size_t(type)));
        graphOptions.outputUnit = profile->unitName(size_t(type));
    }
    QString source = path;
    if (file.endsWith(QLatin1String(".zst")))   // go tool pprof reads no zstd; the .gz holds the same profile
        source = corpusDir() + QStringLiteral("/gen__baseline.cpu.pb.gz");
    QString error;
    const QByteArray dot = pprofDot(go, args + QStringList{source}, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const auto graph = CallGraph::build({profile}, size_t(type), build, graphOptions);
    const QString diff = firstDifference(parseDot(dot), ours(*graph));
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
}

void tst_CallGraph::diffAgainstPprof_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::newRow("default") << QStringList();
    QTest::newRow("unpruned") << QStringList{QStringLiteral("-nodecount=0"), QStringLiteral("-nodefraction=0"),
                                             QStringLiteral("-edgefraction=0")};
    QTest::newRow("hide") << QStringList{QStringLiteral("-hide=runtime")};
}

void tst_CallGraph::diffAgainstPprof()
{
    QFETCH(QStringList, options);
    QFLAME_SKIP_WITHOUT_SHARED(corpusDir() + QStringLiteral("/gen__baseline.cpu.pb.gz"));
    REQUIRE_GO(go);
    const QString base = corpusDir() + QStringLiteral("/gen__baseline.cpu.pb.gz");
    const QString next = corpusDir() + QStringLiteral("/gen__optimized.cpu.pb.gz");
    const auto before = readProfileFile(base, {}), after = readProfileFile(next, {});
    const int type = before->findSampleType("cpu");
    QVERIFY(type >= 0);
    BuildOptions build;
    GraphOptions graphOptions;
    applyPprofOptions(options, build, graphOptions);
    QString error;
    const QByteArray dot = pprofDot(go, options + QStringList{QStringLiteral("-sample_index=cpu"),
                                                              QStringLiteral("-unit=nanoseconds"),
                                                              QStringLiteral("-diff_base=") + base, next},
                                    &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const auto graph = CallGraph::buildDiff({before}, {after}, size_t(type), build, graphOptions);
    DotGraph expected = parseDot(dot), actual = ours(*graph);
    QVERIFY(expected.nodes.size() > 5);
    if (!options.contains(QStringLiteral("-nodefraction=0"))) {
        // Which residual edges pprof removes as redundant depends, in a comparison, on the order of a node's edges
        // of equal |weight| and opposite sign, which pprof takes from a Go map: random (6 runs of this command
        // printed 108, 108, 109, 109, 109 and 110 edges). Nodes and real calls are deterministic and compared.
        for (DotGraph *g : {&expected, &actual})
            g->edges.erase(std::remove_if(g->edges.begin(), g->edges.end(),
                                          [](const auto &e) { return std::get<3>(e) == "residual"; }),
                           g->edges.end());
    }
    const QString diff = firstDifference(expected, actual);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
}

QTEST_GUILESS_MAIN(tst_CallGraph)
#include "tst_callgraph.moc"
