// Go's PGO edges (model/pgo) rule by rule on hand-built profiles, on real Go CPU profiles against a second
// implementation written here from the rules, and the `qflame pgo` verb through the real binary.
#include "formats/ProfileInput.h"
#include "pgo/PgoCandidates.h"
#include "pgo/PgoEdges.h"
#include "pgo/PgoReadiness.h"
#include "pgo/Preprofile.h"
#include "PgoSecondImplementation.h"
#include "PgoTestSupport.h"

#include "profile.pb.h"
#include "SharedCorpus.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace qflame;
namespace pb = perftools::profiles;
using namespace qflame::pgotest;

namespace {

PgoEdges edgesOf(const Builder &b, double threshold = kPgoDefaultHotThreshold)
{
    return computePgoEdges({b.profile()}, threshold);
}

// The four-edge profile of the threshold tests: weights 50, 30, 15, 5 (total 100) on edges m->a, m->b, m->c, m->d.
Builder fourEdges()
{
    Builder b;
    const uint64_t m = b.function("m", 10);
    const uint64_t caller = b.location(0x10, {{m, 11}});
    int64_t weight[] = {50, 30, 15, 5};
    const char *callee[] = {"a", "b", "c", "d"};
    for (int i = 0; i < 4; ++i)
        b.sample({b.location(0x100 + uint64_t(i), {{b.function(callee[i], 1), 2}}), caller}, {weight[i]});
    return b;
}

std::vector<bool> hotFlags(const PgoEdges &e)
{
    std::vector<bool> hot;
    for (const PgoEdge &edge : e.edges)
        hot.push_back(edge.hot);
    return hot;
}

}   // namespace

class tst_Pgo : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void onlyTheLastTwoFrames();
    void inlineLinesOutermostFirst();
    void nodesAreValuesOfAddressAndLine();
    void edgeCountedOncePerSample();
    void zeroSamplesSkipped();
    void sampleTypeChoice();
    void locationWithoutLines();
    void tiesOrdered();
    void crossingEdgeIsHot();
    void thresholdsZeroAndHundred();
    void mergedFiles();
    void readiness();
    void profileWithoutSamples();
    void candidates();
    void preprofile();
    void corpusEqualsSecondImplementation_data();
    void corpusEqualsSecondImplementation();
    void cliTsv();
    void cliPreprofile();
    void cliTable();
    void cliMerges();
    void cliErrors();
};

void tst_Pgo::onlyTheLastTwoFrames()
{
    Builder b;
    const uint64_t main = b.function("main", 1), a = b.function("a", 10), bf = b.function("b", 20),
                   c = b.function("c", 30);
    const uint64_t lMain = b.location(0x10, {{main, 3}}), lA = b.location(0x20, {{a, 12}}),
                   lB = b.location(0x30, {{bf, 25}}), lC = b.location(0x40, {{c, 33}});
    b.sample({lC, lB, lA, lMain}, {5});   // leaf first: only b (Location[1]) -> c (Location[0]) counts
    b.sample({lA}, {3});                  // one frame, one node: no edge
    const PgoEdges e = edgesOf(b);
    // b -> c at offset 25 - 20 = 5, weight 5; main -> a and a -> b are above the last two frames.
    QCOMPARE(e.edges, (std::vector<PgoEdge>{{"b", "c", 5, 5, true}}));
    QCOMPARE(e.totalWeight, int64_t(5));
    QCOMPARE(e.sampleType, std::string("samples/count"));
    QVERIFY(e.hasStartLines);
}

void tst_Pgo::inlineLinesOutermostFirst()
{
    Builder b;
    const uint64_t main = b.function("main", 1), outer = b.function("outer", 5), inl = b.function("inl", 40);
    const uint64_t leaf = b.location(0x100, {{inl, 42}, {outer, 8}});   // inl inlined into outer at line 8
    const uint64_t caller = b.location(0x200, {{main, 3}});
    b.sample({leaf, caller}, {4});
    // Walk: main:3, outer:8, inl:42. main -> outer at 3 - 1 = 2, outer -> inl at 8 - 5 = 3, each weight 4; equal
    // weights, so by caller name: "main" < "outer". Total 8: cum 50% then 100% > 99, so both are hot.
    QCOMPARE(edgesOf(b).edges, (std::vector<PgoEdge>{{"main", "outer", 2, 4, true}, {"outer", "inl", 3, 4, true}}));
}

void tst_Pgo::nodesAreValuesOfAddressAndLine()
{
    Builder b;
    const uint64_t f = b.function("f", 10), g = b.function("g", 20);
    const uint64_t f1 = b.location(0x1, {{f, 11}}), f2 = b.location(0x2, {{f, 11}}), g3 = b.location(0x3, {{g, 21}});
    const uint64_t f1again = b.location(0x1, {{f, 11}});   // another location, the same node as f1
    b.sample({g3, f1}, {2});
    b.sample({g3, f2}, {3});      // another node of f, the same named edge f -> g
    b.sample({f2, f1}, {7});      // f@0x1 -> f@0x2: two nodes, so an edge, named f -> f
    b.sample({f1again, f1}, {11});   // the same node twice in a row: no edge
    // f -> f offset 11 - 10 = 1 weight 7; f -> g offset 1 weight 2 + 3 = 5. Total 12.
    const PgoEdges e = edgesOf(b);
    QCOMPARE(e.edges, (std::vector<PgoEdge>{{"f", "f", 1, 7, true}, {"f", "g", 1, 5, true}}));
    QCOMPARE(e.totalWeight, int64_t(12));
}

void tst_Pgo::edgeCountedOncePerSample()
{
    Builder b;
    const uint64_t x = b.function("x", 1), y = b.function("y", 1);
    // Both frames are y inlined into x at the same address: the walk is x:2, y:5, x:2, y:5.
    const uint64_t l1 = b.location(0x9, {{y, 5}, {x, 2}}), l0 = b.location(0x9, {{y, 5}, {x, 2}});
    b.sample({l0, l1}, {6});
    // x -> y twice in the walk but once per sample: 6 (offset 2 - 1 = 1); y -> x once: 6 (offset 5 - 1 = 4).
    QCOMPARE(edgesOf(b).edges, (std::vector<PgoEdge>{{"x", "y", 1, 6, true}, {"y", "x", 4, 6, true}}));
}

void tst_Pgo::zeroSamplesSkipped()
{
    Builder b(SampleTypes{{"samples", "count"}, {"cpu", "nanoseconds"}});
    const uint64_t caller = b.location(0x1, {{b.function("p", 1), 2}});
    const uint64_t callee = b.location(0x2, {{b.function("q", 1), 1}});
    b.sample({callee, caller}, {0, 10000000});   // 0 of samples/count: skipped, whatever its cpu says
    b.sample({callee, caller}, {2, 20000000});
    const PgoEdges e = edgesOf(b);
    QCOMPARE(e.edges, (std::vector<PgoEdge>{{"p", "q", 1, 2, true}}));
}

void tst_Pgo::sampleTypeChoice()
{
    // samples/count wins wherever it stands; cpu/nanoseconds only without it.
    Builder both(SampleTypes{{"cpu", "nanoseconds"}, {"samples", "count"}});
    const uint64_t caller = both.location(0x1, {{both.function("p", 1), 2}});
    both.sample({both.location(0x2, {{both.function("q", 1), 1}}), caller}, {30000000, 3});
    QCOMPARE(edgesOf(both).edges, (std::vector<PgoEdge>{{"p", "q", 1, 3, true}}));
    QCOMPARE(edgesOf(both).sampleType, std::string("samples/count"));

    Builder cpu(SampleTypes{{"cpu", "nanoseconds"}});
    const uint64_t c2 = cpu.location(0x1, {{cpu.function("p", 1), 2}});
    cpu.sample({cpu.location(0x2, {{cpu.function("q", 1), 1}}), c2}, {30000000});
    QCOMPARE(edgesOf(cpu).edges, (std::vector<PgoEdge>{{"p", "q", 1, 30000000, true}}));

    Builder heap(SampleTypes{{"alloc_objects", "count"}, {"inuse_space", "bytes"}});
    try {
        computePgoEdges({heap.profile("heap.pb")});
        QFAIL("no error");
    } catch (const ProfileError &e) {
        QCOMPARE(std::string(e.what()), std::string("heap.pb: no samples/count or cpu/nanoseconds sample type: go "
                                                    "build -pgo rejects this profile; it has: alloc_objects/count, "
                                                    "inuse_space/bytes"));
    }
}

void tst_Pgo::locationWithoutLines()
{
    Builder b;
    const uint64_t bare = b.location(0x500, {}), f = b.location(0x600, {{b.function("f", 10), 11}});
    b.sample({f, bare}, {3});   // the address-only node calls f: named edge "" -> f at offset 0 - 0
    b.sample({bare, f}, {1});   // f -> "" at offset 11 - 10 = 1
    const PgoEdges e = edgesOf(b);
    QCOMPARE(e.edges, (std::vector<PgoEdge>{{"", "f", 0, 3, true}, {"f", "", 1, 1, true}}));
    QCOMPARE(e.unnamedEdges, size_t(2));
    QCOMPARE(e.unnamedWeight, int64_t(4));
}

void tst_Pgo::tiesOrdered()
{
    Builder b;
    const uint64_t a = b.function("a", 10), bf = b.function("b", 1), c = b.function("c", 1), d = b.function("d", 1),
                   x = b.function("x", 1), y = b.function("y", 1);
    auto edge = [&](uint64_t caller, int64_t line, uint64_t callee, int64_t w) {
        b.sample({b.location(0x1000 + uint64_t(b.message().location_size()), {{callee, 1}}),
                  b.location(0x2000 + uint64_t(b.message().location_size()), {{caller, line}})},
                 {w});
    };
    edge(bf, 1, a, 5);    // b -> a offset 0
    edge(a, 12, y, 5);    // a -> y offset 2
    edge(a, 13, x, 5);    // a -> x offset 3
    edge(a, 11, x, 5);    // a -> x offset 1
    edge(c, 1, d, 9);     // c -> d offset 0, the heaviest
    // Weight first (9), then among the 5s caller a < b, then callee x < y, then offset 1 < 3.
    // Total 29: cums 9 (31%), 14, 19, 24 (82.8%), 29 (100% > 99): all hot.
    QCOMPARE(edgesOf(b).edges, (std::vector<PgoEdge>{{"c", "d", 0, 9, true}, {"a", "x", 1, 5, true},
                                                     {"a", "x", 3, 5, true}, {"a", "y", 2, 5, true},
                                                     {"b", "a", 0, 5, true}}));
}

void tst_Pgo::crossingEdgeIsHot()
{
    // Weights 50, 30, 15, 5 of 100: cumulative shares 50, 80, 95, 100.
    // At 79: 80 > 79 at the second edge, which is hot; the third is not.
    QCOMPARE(hotFlags(edgesOf(fourEdges(), 79)), (std::vector<bool>{true, true, false, false}));
    QCOMPARE(edgesOf(fourEdges(), 79).hotCount, size_t(2));
    // At 80: 80 does not exceed 80, 95 does: three hot.
    QCOMPARE(hotFlags(edgesOf(fourEdges(), 80)), (std::vector<bool>{true, true, true, false}));
    // At the default 99: only 100 exceeds it, at the last edge: all hot.
    QCOMPARE(hotFlags(edgesOf(fourEdges())), (std::vector<bool>{true, true, true, true}));
    // markHotEdges alone, on weights 2, 1 of 3: (2 / 3) * 100 = 66.67 > 66.6 at the first edge.
    std::vector<PgoEdge> edges{{"a", "b", 0, 2, false}, {"a", "c", 0, 1, true}};
    QCOMPARE(markHotEdges(edges, 3, 66.6), size_t(1));
    QVERIFY(edges[0].hot && !edges[1].hot);
}

void tst_Pgo::thresholdsZeroAndHundred()
{
    // 0: the first edge's share, 50, exceeds 0, so it alone is hot.
    QCOMPARE(hotFlags(edgesOf(fourEdges(), 0)), (std::vector<bool>{true, false, false, false}));
    // 100: no cumulative share exceeds 100 (the last is exactly 100), so no edge crosses: all are hot.
    QCOMPARE(hotFlags(edgesOf(fourEdges(), 100)), (std::vector<bool>{true, true, true, true}));
    QCOMPARE(edgesOf(fourEdges(), 100).hotCount, size_t(4));
}

void tst_Pgo::mergedFiles()
{
    const auto one = fourEdges().profile("one");
    Builder other(SampleTypes{{"cpu", "nanoseconds"}, {"samples", "count"}});   // its own index of samples/count
    const uint64_t m = other.location(0x10, {{other.function("m", 10), 11}});
    other.sample({other.location(0x500, {{other.function("d", 1), 2}}), m}, {999, 50});
    // m -> d: 5 + 50 = 55 now leads; then 50, 30, 15. Total 150: cums 36.7, 70, 90, 100.
    const PgoEdges e = computePgoEdges({one, other.profile("two")}, 80);
    QCOMPARE(e.edges, (std::vector<PgoEdge>{{"m", "d", 1, 55, true}, {"m", "a", 1, 50, true},
                                           {"m", "b", 1, 30, true}, {"m", "c", 1, 15, false}}));
    Builder cpuOnly(SampleTypes{{"cpu", "nanoseconds"}});
    try {
        computePgoEdges({one, cpuOnly.profile("three.pb.gz")});
        QFAIL("no error");
    } catch (const ProfileError &err) {
        QCOMPARE(std::string(err.what()), std::string("three.pb.gz: no samples/count sample type, which one uses: "
                                                      "profiles merged for go build -pgo must share it; it has: "
                                                      "cpu/nanoseconds"));
    }
}

void tst_Pgo::readiness()
{
    // No start lines, no inline frames, an address-only frame, 5 samples in a window of 1000 periods, a
    // goroutine-like period type, 20 MiB of input.
    Builder b;
    b.message().set_period(10000000), b.message().set_duration_nanos(10000000000);
    b.message().mutable_period_type()->set_type(b.str("goroutine"));
    b.message().mutable_period_type()->set_unit(b.str("count"));
    const uint64_t caller = b.location(0x1, {{b.function("p", 0), 2}});
    b.sample({b.location(0x2, {{b.function("q", 0), 1}}), caller}, {4});
    b.sample({b.location(0x3, {}), caller}, {1});
    const auto p = b.profile("old.pb.gz");
    const PgoEdges e = computePgoEdges({p});
    QVERIFY(!e.hasStartLines);
    // p -> q at offset 2 - 0 = 2 (absolute), weight 4; p -> "" weight 1: 1 of 2 edges, 1 / 5 = 20% unnamed.
    QCOMPARE(e.edges, (std::vector<PgoEdge>{{"p", "q", 2, 4, true}, {"p", "", 2, 1, true}}));
    std::vector<std::string> lines;
    for (const PgoReadinessLine &l : pgoReadiness({p}, e, 20u << 20))
        lines.push_back(formatReadinessLine(l));
    // 10 s / 10 ms = 1000 periods; 5 * 100 = 500 < 1000: under 1 sample per 100 periods (0.50% of one CPU).
    QCOMPARE(lines, (std::vector<std::string>{
        "ok: sample-type: weights are samples/count",
        "error: start-lines: no Function.start_line: go build -pgo rejects the profile (a Go runtime before 1.20, or a "
        "re-symbolised profile); offsets below are absolute lines",
        "warning: inline-frames: no inline frames: calls the profiled build inlined are invisible, so PGO's choices "
        "drift from one round to the next",
        "warning: function-names: 1 of 2 edges (20.00% of the weight) have a frame without a function name: the "
        "compiler matches them to no call",
        "warning: sample-density: 5 samples in 1000 periods of the window (0.50% of one CPU): fewer than 1 sample per "
        "100 periods, the edges are mostly noise; profile longer or under more load",
        "warning: cpu-profile: old.pb.gz is not a CPU profile (no cpu/nanoseconds period or sample type): its counts "
        "weight the edges by something other than CPU time",
        "warning: size: 20971520 bytes, over 10 MiB: every package's compile parses the whole profile; a preprofile "
        "(--preprofile) skips that"}));

    // The good case: start lines, inline frames, names, 10 samples of 1000 periods (1%: not fewer than 1 per 100).
    Builder good(SampleTypes{{"samples", "count"}, {"cpu", "nanoseconds"}});
    good.message().set_period(10000000), good.message().set_duration_nanos(10000000000);
    const uint64_t g = good.location(0x1, {{good.function("inl", 5), 6}, {good.function("main", 1), 2}});
    good.sample({good.location(0x2, {{good.function("leaf", 9), 9}}), g}, {10, 100000000});
    const auto gp = good.profile("good");
    std::vector<PgoLevel> levels;
    for (const PgoReadinessLine &l : pgoReadiness({gp}, computePgoEdges({gp}), 1000))
        levels.push_back(l.level);
    QCOMPARE(levels, std::vector<PgoLevel>(7, PgoLevel::Ok));
}

void tst_Pgo::profileWithoutSamples()
{
    // The compiler takes it as empty (no edges, nothing changes) before it looks for start lines.
    const auto p = Builder().profile();
    const PgoEdges e = computePgoEdges({p});
    QVERIFY(e.edges.empty());
    QCOMPARE(formatReadinessLine(pgoReadiness({p}, e, 10)[1]),
             std::string("ok: start-lines: no samples, so no start lines needed: go build -pgo accepts the profile "
                         "and changes nothing"));
    QCOMPARE(preprofileText(e), std::string("GO PREPROFILE V1\n"));
}

void tst_Pgo::candidates()
{
    Builder b;
    const uint64_t a = b.function("a", 10), x = b.function("x", 1), y = b.function("y", 1), z = b.function("z", 1);
    const uint64_t site = b.location(0x10, {{a, 12}}), other = b.location(0x11, {{a, 14}});
    b.sample({b.location(0x20, {{x, 1}}), site}, {5});
    b.sample({b.location(0x21, {{y, 1}}), site}, {3});
    b.sample({b.location(0x22, {{z, 1}}), other}, {2});   // a +4 has one callee: no candidate
    const auto sites = devirtualisationCandidates(edgesOf(b));
    // a +2: x 5 of the site's 8 = 62.5%, of the total 10 = 50%.
    QCOMPARE(sites, (std::vector<PgoCallSite>{{"a", 2, 2, "x", 5, 8, 62.5, 50.0}}));
}

void tst_Pgo::preprofile()
{
    QCOMPARE(preprofileText(edgesOf(fourEdges())),
             std::string("GO PREPROFILE V1\nm\na\n1 50\nm\nb\n1 30\nm\nc\n1 15\nm\nd\n1 5\n"));
    Builder old;   // start lines 0: refused, as go tool preprofile refuses it
    old.sample({old.location(0x2, {{old.function("q", 0), 1}}), old.location(0x1, {{old.function("p", 0), 2}})}, {1});
    QVERIFY_THROWS_EXCEPTION(ProfileError, preprofileText(edgesOf(old)));
}

void tst_Pgo::corpusEqualsSecondImplementation_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("startLines");
    QTest::newRow("pyro go truncated (start lines)") << "pyro__cpu_go_truncated_1.pb.gz" << true;
    QTest::newRow("gen baseline (Go 1.19)") << "gen__baseline.cpu.pb.gz" << false;
    QTest::newRow("pprof sample (Go 1.19)") << "pprof__sample.cpu" << false;
    QTest::newRow("pprof large (Go 1.19)") << "pprof__large.cpu" << false;
}

void tst_Pgo::corpusEqualsSecondImplementation()
{
    QFETCH(QString, file);
    QFETCH(bool, startLines);
    const QString path = qflame::test::sharedPath(QStringLiteral("corpus/") + file);
    QFLAME_SKIP_WITHOUT_SHARED(path);
    pb::Profile message;
    QVERIFY(message.ParseFromString(test::inflatedFile(path)));
    const auto profile = readProfileFile(path);
    for (double threshold : {99.0, 80.0, 0.0, 100.0}) {
        const test::SecondEdges expected = test::secondImplementationEdges(message, threshold);
        const PgoEdges e = computePgoEdges({profile}, threshold);
        std::vector<test::SecondEdge> edges;
        for (const PgoEdge &x : e.edges)
            edges.emplace_back(x.caller, x.callee, x.offset, x.weight, x.hot);
        QCOMPARE(e.hasStartLines, startLines);
        QCOMPARE(expected.startLines, startLines);
        QVERIFY(!edges.empty());
        QCOMPARE(edges, expected.edges);
        const size_t hot = size_t(std::count_if(e.edges.begin(), e.edges.end(), [](auto &x) { return x.hot; }));
        QCOMPARE(e.hotCount, hot);
        if (threshold == 99.0)
            qInfo("%s: %zu edges, %zu hot at 99%%, total weight %lld, %zu devirtualisation candidates",
                  qPrintable(file), e.edges.size(), hot, (long long)e.totalWeight,
                  devirtualisationCandidates(e).size());
        // The Go 1.19 files must say the build would fail, while their edges are listed all the same.
        const auto lines = pgoReadiness({profile}, e, 0);
        QCOMPARE(lines[1].check, std::string("start-lines"));
        QCOMPARE(lines[1].level, startLines ? PgoLevel::Ok : PgoLevel::Error);
    }
}

void tst_Pgo::cliTsv()
{
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("tabs.pb"));
    Builder b = fourEdges();
    const uint64_t m = b.location(0x10, {{b.function("m", 10), 11}});
    b.sample({b.location(0x900, {{b.function("tab\there", 1), 1}}), m}, {5});   // a name to escape
    QFile out(file);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(QByteArray::fromStdString(b.message().SerializeAsString()));
    out.close();
    // Weights 50, 30, 15, 5, 5 of 105 (ties: callee "d" < "tab\there"). At 80: 47.6, 76.2, 90.5 > 80: three hot.
    const Run r = runQflame({QStringLiteral("pgo"), file, QStringLiteral("--tsv"), QStringLiteral("--threshold=80")});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.err, QByteArray());
    QCOMPARE(r.out, QByteArray("m\ta\t1\t50\t1\n"
                               "m\tb\t1\t30\t1\n"
                               "m\tc\t1\t15\t1\n"
                               "m\td\t1\t5\t0\n"
                               "m\ttab\\there\t1\t5\t0\n"));
    // --json (docs/json.md): the same edges, with their cumulative weights 50, 80, 95, 100, 105 of 105.
    const Run json = runQflame({QStringLiteral("pgo"), file, QStringLiteral("--json"), QStringLiteral("--threshold=80")});
    QCOMPARE(json.code, 0);
    const QJsonObject doc = QJsonDocument::fromJson(json.out).object();
    QCOMPARE(doc.value("report").toString(), QStringLiteral("pgo"));
    QCOMPARE(doc.value("total_weight").toInteger(), qint64(105));
    QCOMPARE(doc.value("hot_count").toInteger(), qint64(3));
    QCOMPARE(doc.value("threshold").toDouble(), 80.0);
    QStringList edges;
    for (const QJsonValue &v : doc.value("edges").toArray()) {
        const QJsonObject e = v.toObject();
        edges << QStringLiteral("%1>%2+%3 %4 %5 %6").arg(e.value("caller").toString(), e.value("callee").toString())
                     .arg(e.value("offset").toInteger()).arg(e.value("weight").toInteger())
                     .arg(e.value("cum_weight").toInteger()).arg(e.value("hot").toBool() ? "hot" : "cold");
    }
    QCOMPARE(edges, (QStringList{"m>a+1 50 50 hot", "m>b+1 30 80 hot", "m>c+1 15 95 hot", "m>d+1 5 100 cold",
                                 "m>tab\there+1 5 105 cold"}));
    QVERIFY(!doc.value("readiness").toArray().isEmpty());
}

void tst_Pgo::cliPreprofile()
{
    QTemporaryDir dir;
    const QString in = dir.filePath(QStringLiteral("four.pb")), out = dir.filePath(QStringLiteral("four.pgo"));
    QFile f(in);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray::fromStdString(fourEdges().message().SerializeAsString()));
    f.close();
    const Run r = runQflame({QStringLiteral("pgo"), in, QStringLiteral("--preprofile"), out});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out + r.err, QByteArray());
    QFile written(out);
    QVERIFY(written.open(QIODevice::ReadOnly));
    QCOMPARE(written.readAll(), QByteArray("GO PREPROFILE V1\nm\na\n1 50\nm\nb\n1 30\nm\nc\n1 15\nm\nd\n1 5\n"));
}

void tst_Pgo::cliTable()
{
    QTemporaryDir dir;
    const QString file = writeProfile(dir, "four.pb", fourEdges());
    const QByteArray path = file.toUtf8(), size = QByteArray::number(QFileInfo(file).size());
    const Run r = runQflame({QStringLiteral("pgo"), file, QStringLiteral("--threshold"), QStringLiteral("80")});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.err, QByteArray());
    // Cumulative 50, 80, 95, 100: 95 is the first past 80, so three hot. One site, m +1, has all four callees.
    QCOMPARE(r.out, QByteArray("ok: sample-type: weights are samples/count\n"
                               "ok: start-lines: functions have Function.start_line\n"
                               "warning: inline-frames: no inline frames: calls the profiled build inlined are "
                               "invisible, so PGO's choices drift from one round to the next\n"
                               "ok: function-names: every edge has named functions\n"
                               "warning: sample-density: ") + path + QByteArray(
                               " gives no period or duration_nanos: the sample density cannot be judged\n"
                               "warning: cpu-profile: ") + path + QByteArray(
                               " is not a CPU profile (no cpu/nanoseconds period or sample type): its counts weight "
                               "the edges by something other than CPU time\n"
                               "ok: size: ") + size + QByteArray(" bytes\n"
                               "Edges: 4, total weight 100 (samples/count), hot 3 at threshold 80%\n"
                               "rank  caller  callee  offset  weight  share%     cum%  hot\n"
                               "   1  m       a            1      50  50.00%   50.00%  hot\n"
                               "   2  m       b            1      30  30.00%   80.00%  hot\n"
                               "   3  m       c            1      15  15.00%   95.00%  hot\n"
                               "   4  m       d            1       5   5.00%  100.00%\n"
                               "Devirtualisation candidates (call sites with more than one callee; only the compiler "
                               "knows which calls are indirect):\n"
                               "  m +1: 4 callees, heaviest a 50 (50.00% of the site, 50.00% of the total)\n"));
}

void tst_Pgo::cliMerges()
{
    QTemporaryDir dir;
    Builder other(SampleTypes{{"cpu", "nanoseconds"}, {"samples", "count"}});
    const uint64_t m = other.location(0x10, {{other.function("m", 10), 11}});
    other.sample({other.location(0x500, {{other.function("d", 1), 2}}), m}, {999, 50});
    const Run r = runQflame({QStringLiteral("pgo"), writeProfile(dir, "one.pb", fourEdges()),
                             writeProfile(dir, "two.pb", other), QStringLiteral("--tsv")});
    QCOMPARE(r.code, 0);
    // m -> d: 5 + 50 = 55 of 150; cumulative 36.7, 70, 90, 100: only the last crosses 99.
    QCOMPARE(r.out, QByteArray("m\td\t1\t55\t1\nm\ta\t1\t50\t1\nm\tb\t1\t30\t1\nm\tc\t1\t15\t1\n"));
}

void tst_Pgo::cliErrors()
{
    QTemporaryDir dir;
    const QString heap = dir.filePath(QStringLiteral("heap.pb"));
    QFile f(heap);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray::fromStdString(Builder(SampleTypes{{"inuse_space", "bytes"}}).message().SerializeAsString()));
    f.close();
    Run r = runQflame({QStringLiteral("pgo"), heap});
    QCOMPARE(r.code, 2);
    QCOMPARE(r.err, (QStringLiteral("qflame: ") + heap +
                     QStringLiteral(": no samples/count or cpu/nanoseconds sample type: go build -pgo rejects this "
                                    "profile; it has: inuse_space/bytes\n")).toUtf8());
    Builder old;   // start lines 0
    old.sample({old.location(0x2, {{old.function("q", 0), 1}}), old.location(0x1, {{old.function("p", 0), 2}})}, {1});
    const QString oldFile = writeProfile(dir, "old.pb", old), out = dir.filePath(QStringLiteral("old.pgo"));
    r = runQflame({QStringLiteral("pgo"), oldFile, QStringLiteral("--preprofile"), out});
    QCOMPARE(r.code, 2);
    QCOMPARE(r.err, (QStringLiteral("qflame: ") + oldFile +
                     QStringLiteral(": no Function.start_line in the profile: go tool preprofile and go build -pgo "
                                    "reject it, so no preprofile is written\n")).toUtf8());
    QVERIFY(!QFile::exists(out));
    r = runQflame({QStringLiteral("pgo")});
    QCOMPARE(r.code, 1);
    QVERIFY(r.err.startsWith("qflame: pgo takes one or more FILEs"));
    r = runQflame({QStringLiteral("pgo"), heap, QStringLiteral("--threshold"), QStringLiteral("101")});
    QCOMPARE(r.code, 1);
    QVERIFY(r.err.startsWith("qflame: --threshold takes a percentage from 0 to 100, not '101'\n"));
}

QTEST_GUILESS_MAIN(tst_Pgo)
#include "tst_pgo.moc"
