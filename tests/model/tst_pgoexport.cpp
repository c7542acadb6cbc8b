// The profile trimmed for go build -pgo (model/pgo/PgoTrim) and the inlining changes between two profiles
// (model/pgo/InliningChanges): hand-built profiles worked out here, the corpus, and real Go programs built in the
// test with and without inlining, checked against go tool pprof; and the verbs `convert --for pgo` and
// `diff --inlining` through the real binary.
#include "formats/ProfileInput.h"
#include "pgo/InliningChanges.h"
#include "pgo/PgoEdges.h"
#include "pgo/PgoTrim.h"
#include "GoToolchain.h"
#include "PgoTestSupport.h"
#include "SharedCorpus.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <map>

using namespace qflame;
using namespace qflame::pgotest;

namespace {

using Profiles = std::vector<std::shared_ptr<const Profile>>;

// `go tool pprof -top` over every node, in exact sample counts: function name -> (flat, cum) as printed.
std::map<QString, std::pair<QString, QString>> pprofTop(const QString &go, const QString &file, const QString &dir)
{
    const Run r = runGo(go, {QStringLiteral("tool"), QStringLiteral("pprof"), QStringLiteral("-top"),
                             QStringLiteral("-sample_index=samples"), QStringLiteral("-nodefraction=0"),
                             QStringLiteral("-nodecount=1000000"), file},
                        dir);
    if (r.code != 0)
        qWarning("go tool pprof failed on %s: %s", qPrintable(file), r.err.constData());
    std::map<QString, std::pair<QString, QString>> rows;
    static const QRegularExpression row(QStringLiteral(R"(^\s*(\S+)\s+\S+%\s+\S+%\s+(\S+)\s+\S+%\s+(.+)$)"));
    for (const QByteArray &line : r.out.split('\n')) {
        const auto m = row.match(QString::fromUtf8(line));
        if (m.hasMatch())
            rows[m.captured(3)] = {m.captured(1), m.captured(2)};
    }
    return rows;
}

// The corpus row of the largest CPU profile go tool pprof reads (MANIFEST.tsv's own columns decide, not a name).
QString largestCorpusCpuProfile()
{
    QFile manifest(qflame::test::sharedPath(QStringLiteral("corpus/MANIFEST.tsv")));
    if (!manifest.open(QIODevice::ReadOnly))
        return {};
    const QList<QByteArray> header = manifest.readLine().trimmed().split('\t');
    const int file = int(header.indexOf("file")), bytes = int(header.indexOf("bytes")),
              types = int(header.indexOf("sample_types")), ok = int(header.indexOf("go_tool_pprof"));
    QString best;
    qint64 bestBytes = -1;
    while (!manifest.atEnd()) {
        const QList<QByteArray> cells = manifest.readLine().trimmed().split('\t');
        if (cells.size() <= std::max({file, bytes, types, ok}) || cells[ok] != "ok" ||
            !cells[types].contains("cpu/nanoseconds"))
            continue;
        if (cells[bytes].toLongLong() > bestBytes)
            bestBytes = cells[bytes].toLongLong(), best = QString::fromUtf8(cells[file]);
    }
    return best;
}

std::vector<std::pair<std::string, std::string>> typesOf(const Profile &p)
{
    std::vector<std::pair<std::string, std::string>> out;
    for (size_t i = 0; i < p.sampleTypes.size(); ++i)
        out.emplace_back(p.typeName(i), p.unitName(i));
    return out;
}

// The hand-built pair of the inlining tests: every state change, recursion, and hot edges on one side only.
// Function start lines: main 1, f 10, g 20, h 30, k 40, r 50.
struct InliningPair {
    Builder base, next;
};

InliningPair inliningPair()
{
    InliningPair pair;
    {
        Builder &b = pair.base;
        const uint64_t main = b.function("main", 1), f = b.function("f", 10), g = b.function("g", 20),
                       h = b.function("h", 30), k = b.function("k", 40), r = b.function("r", 50);
        const uint64_t M = b.location(0x1, {{main, 2}}), F = b.location(0x2, {{f, 11}}),
                       FG = b.location(0x3, {{g, 21}, {f, 12}}), H = b.location(0x4, {{h, 31}}),
                       KM = b.location(0x5, {{k, 41}, {main, 3}}), R = b.location(0x6, {{r, 51}});
        b.sample({F, M}, {10});       // main -> f called 10
        b.sample({FG, M}, {4});       // main -> f called 4; f -> g inlined 4
        b.sample({H, M}, {6});        // main -> h called 6
        b.sample({KM}, {8});          // main -> k inlined 8
        b.sample({R, R, R, M}, {7});  // main -> r called 7; r -> r called 7, once per sample
    }
    {
        Builder &n = pair.next;
        const uint64_t main = n.function("main", 1), f = n.function("f", 10), g = n.function("g", 20),
                       h = n.function("h", 30), k = n.function("k", 40), r = n.function("r", 50);
        const uint64_t MF = n.location(0x11, {{f, 11}, {main, 2}}), G = n.location(0x12, {{g, 21}}),
                       H = n.location(0x13, {{h, 31}}), M = n.location(0x14, {{main, 2}}),
                       MH = n.location(0x15, {{h, 31}, {main, 4}}), K = n.location(0x16, {{k, 41}}),
                       KM = n.location(0x17, {{k, 41}, {main, 3}}), RR = n.location(0x18, {{r, 52}, {r, 51}});
        n.sample({MF}, {9});          // main -> f inlined 9
        n.sample({G, MF}, {3});       // main -> f inlined 3; f -> g called 3
        n.sample({H, M}, {2});        // main -> h called 2
        n.sample({MH}, {5});          // main -> h inlined 5
        n.sample({K, M}, {1});        // main -> k called 1
        n.sample({KM}, {2});          // main -> k inlined 2
        n.sample({RR, M}, {3});       // main -> r called 3; r -> r inlined 3
    }
    return pair;
}

}   // namespace

class tst_PgoExport : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void trimKeepsWhatTheCompilerReads();
    void trimMergesFiles();
    void trimRefusesWhatTheCompilerRefuses();
    void trimCorpus_data();
    void trimCorpus();
    void trimmedLargestCorpusProfile();
    void inliningChangesHandBuilt();
    void inliningChangesOfRealGoBuilds();
    void cliConvertForPgo();
    void cliConvertForPgoErrors();
    void cliDiffInlining();
    void cliDiffInliningErrors();
};

void tst_PgoExport::trimKeepsWhatTheCompilerReads()
{
    Builder b(SampleTypes{{"samples", "count"}, {"cpu", "nanoseconds"}, {"wall", "nanoseconds"}});
    const uint64_t main = b.function("main", 1), a = b.function("a", 10), bf = b.function("b", 20),
                   c = b.function("c", 30), d = b.function("d", 40);
    const uint64_t L1 = b.location(0x1, {{main, 2}}), L2 = b.location(0x2, {{a, 11}}),
                   L3 = b.location(0x3, {{c, 31}, {bf, 22}}), L4 = b.location(0x4, {{d, 41}}),
                   L5 = b.location(0x5, {});
    b.sample({L4, L3, L2, L1}, {1, 10, 100});
    b.sample({L4, L3, L1}, {2, 20, 200});   // the same last two frames: one sample with the first
    b.sample({L3, L2, L1}, {4, 40, 400});
    b.sample({L4}, {5, 50, 500});
    b.sample({L5, L2}, {0, 0, 700});        // 0 in both kept types: dropped
    b.sample({L2, L1}, {0, 60, 0});         // cpu/nanoseconds alone: kept
    auto *label = b.message().mutable_sample(0)->add_label();
    label->set_key(b.str("k")), label->set_str(b.str("v"));
    b.message().mutable_period_type()->set_type(b.str("cpu"));
    b.message().mutable_period_type()->set_unit(b.str("nanoseconds"));
    b.message().set_period(10);
    b.message().set_duration_nanos(1000);
    b.message().set_time_nanos(5);
    b.message().add_comment(b.str("a comment"));
    const auto input = b.profile();

    const auto t = trimForPgo({input});
    QCOMPARE(typesOf(*t), (std::vector<std::pair<std::string, std::string>>{{"samples", "count"},
                                                                             {"cpu", "nanoseconds"}}));
    QCOMPARE(t->sampleCount(), size_t(4));
    QCOMPARE(t->values.toVector(), (std::vector<int64_t>{3, 30, 4, 40, 5, 50, 0, 60}));
    // Locations leaf first: (L4, L3), (L3, L2), (L4), (L2, L1), each interned once: L4 L3 L2 L1 as met.
    QCOMPARE(t->sampleLocations.toVector(), (std::vector<uint32_t>{0, 1, 1, 2, 0, 2, 3}));
    QCOMPARE(t->sampleLocBegin, (std::vector<uint32_t>{0, 2, 4, 5, 7}));
    QCOMPARE(t->locations.size(), size_t(4));
    QCOMPARE(t->locations[1].address, uint64_t(0x3));
    QCOMPARE(t->locations[1].lineCount, 2u);   // the inline line of c in b stays
    QCOMPARE(t->lines[t->locations[1].firstLine].line, int64_t(31));
    QCOMPARE(t->str(t->functions[t->lines[t->locations[1].firstLine].function].name), "c");
    QCOMPARE(t->functions[t->lines[t->locations[1].firstLine].function].startLine, int64_t(30));
    QVERIFY(t->labels.empty());
    QVERIFY(t->mappings.empty());
    QVERIFY(t->comments.empty());
    QCOMPARE(t->period, int64_t(10));
    QCOMPARE(t->str(t->periodType.type), "cpu");
    QCOMPARE(t->durationNanos, int64_t(1000));
    QCOMPARE(t->timeNanos, int64_t(5));

    const PgoEdges before = computePgoEdges({input});
    const PgoTrimmedFile file = encodeTrimmedForPgo({input});
    const PgoEdges after = computePgoEdges({readPprof(file.gzipBytes, "trimmed")});
    QVERIFY(!before.edges.empty());
    QCOMPARE(after.edges, before.edges);
    QCOMPARE(after.totalWeight, before.totalWeight);
    QCOMPARE(file.edges, before.edges.size());
    QCOMPARE(*readPprof(file.pprofBytes, "trimmed"), *readPprof(file.gzipBytes, "trimmed"));
}

void tst_PgoExport::trimMergesFiles()
{
    Builder one(SampleTypes{{"samples", "count"}, {"cpu", "nanoseconds"}});
    const uint64_t m1 = one.location(0x10, {{one.function("m", 10), 11}});
    one.sample({one.location(0x20, {{one.function("a", 1), 2}}), m1}, {2, 20});
    one.message().set_time_nanos(100), one.message().set_duration_nanos(1000), one.message().set_period(10);
    // The other file lists the types the other way round and has the same two frames under other ids.
    Builder two(SampleTypes{{"cpu", "nanoseconds"}, {"samples", "count"}});
    const uint64_t a2 = two.location(0x20, {{two.function("a", 1), 2}});
    const uint64_t m2 = two.location(0x10, {{two.function("m", 10), 11}});
    two.sample({a2, m2}, {70, 7});
    two.message().set_time_nanos(50), two.message().set_duration_nanos(500), two.message().set_period(20);

    const Profiles both{one.profile("one"), two.profile("two")};
    const auto t = trimForPgo(both);
    QCOMPARE(t->sampleCount(), size_t(1));
    QCOMPARE(t->values.toVector(), (std::vector<int64_t>{9, 90}));   // in the first file's order of types
    QCOMPARE(t->locations.size(), size_t(2));
    QCOMPARE(t->functions.size(), size_t(2));
    QCOMPARE(t->timeNanos, int64_t(50));                   // the earliest
    QCOMPARE(t->durationNanos, int64_t(1500));             // summed
    QCOMPARE(t->period, int64_t(20));                      // the largest
    const PgoEdges merged = computePgoEdges(both);
    QCOMPARE(computePgoEdges({std::shared_ptr<const Profile>(t)}).edges, merged.edges);
    QCOMPARE(merged.edges.size(), size_t(1));
    QCOMPARE(merged.edges[0], (PgoEdge{"m", "a", 1, 9, true}));
}

void tst_PgoExport::trimRefusesWhatTheCompilerRefuses()
{
    Builder heap(SampleTypes{{"alloc_space", "bytes"}});
    heap.sample({heap.location(0x1, {{heap.function("f", 1), 2}})}, {5});
    try {
        trimForPgo({heap.profile("heap.pb")});
        QFAIL("a profile without samples/count or cpu/nanoseconds was trimmed");
    } catch (const ProfileError &e) {
        QCOMPARE(QString::fromUtf8(e.what()),
                 QStringLiteral("heap.pb: no samples/count or cpu/nanoseconds sample type: go build -pgo rejects "
                                "this profile; it has: alloc_space/bytes"));
    }
}

void tst_PgoExport::trimCorpus_data()
{
    QTest::addColumn<QString>("file");
    for (const char *f : {"pyro__cpu_go_truncated_1.pb.gz", "gen__baseline.cpu.pb.gz", "gen__optimized.cpu.pb.gz",
                          "pprof__sample.cpu", "pprof__large.cpu", "parca__profile-with-labels.pb.gz",
                          "pu__anon.in.pprof", "pyro__go.cpu.labels.pprof"})
        QTest::newRow(f) << QString::fromLatin1(f);
}

void tst_PgoExport::trimCorpus()
{
    QFETCH(QString, file);
    const QString path = qflame::test::sharedPath(QStringLiteral("corpus/") + file);
    QFLAME_SKIP_WITHOUT_SHARED(path);
    const auto input = readProfileFile(path);
    const PgoEdges before = computePgoEdges({input});
    const PgoTrimmedFile trimmed = encodeTrimmedForPgo({input});
    const auto back = readPprof(trimmed.gzipBytes, "trimmed");
    const PgoEdges after = computePgoEdges({back});
    QVERIFY(!before.edges.empty());
    QCOMPARE(after.edges.size(), before.edges.size());
    QCOMPARE(after.edges, before.edges);
    QCOMPARE(after.hasStartLines, before.hasStartLines);
    // Every kept type's total is unchanged: samples are merged, never lost.
    for (size_t i = 0; i < back->sampleTypes.size(); ++i)
        QCOMPARE(back->total(i), input->total(size_t(input->findSampleType(back->typeName(i) + "/" +
                                                                           back->unitName(i)))));
}

void tst_PgoExport::trimmedLargestCorpusProfile()
{
    const QString name = largestCorpusCpuProfile();
    if (name.isEmpty())
        QSKIP("needs the shared corpus: its MANIFEST.tsv is not there");
    REQUIRE_GO(go);
    QTemporaryDir dir;
    const QString input = qflame::test::sharedPath(QStringLiteral("corpus/") + name);
    const QString output = dir.filePath(QStringLiteral("trimmed.pb.gz"));
    const Run r = runQflame({QStringLiteral("convert"), input, QStringLiteral("--for"), QStringLiteral("pgo"),
                             QStringLiteral("--output"), output});
    QCOMPARE(r.code, 0);
    const qint64 before = QFileInfo(input).size(), after = QFileInfo(output).size();
    qInfo("%s: %lld bytes, trimmed for go build -pgo %lld bytes (%.1fx smaller)", qPrintable(name), before, after,
          double(before) / double(after));
    QVERIFY2(after * 5 <= before, "the trimmed profile of the largest corpus CPU profile is not 5x smaller");
    QCOMPARE(computePgoEdges({readProfileFile(output)}).edges, computePgoEdges({readProfileFile(input)}).edges);
    // go tool pprof reads it, and every function's flat samples are the input's: the leaf frames are all kept.
    const auto top = pprofTop(go, output, dir.path()), inputTop = pprofTop(go, input, dir.path());
    QVERIFY(!top.empty());
    size_t compared = 0;
    for (const auto &[function, flatCum] : inputTop) {
        if (flatCum.first == QLatin1String("0"))
            continue;
        QVERIFY2(top.count(function), qPrintable(function));
        QCOMPARE(top.at(function).first, flatCum.first);
        ++compared;
    }
    QVERIFY(compared > 10);
}

void tst_PgoExport::inliningChangesHandBuilt()
{
    const InliningPair pair = inliningPair();
    const InliningChanges c = computeInliningChanges({pair.base.profile("base")}, {pair.next.profile("next")});
    QCOMPARE(c.sampleType, std::string("samples/count"));
    using K = InliningChange::Kind;
    struct Expected {
        K kind;
        const char *caller, *callee;
        int64_t baseCalled, baseInlined, nextCalled, nextInlined;
    };
    // By the larger side's weight: main->f 14, main->k 8, main->h 7, r->r 7 (main before r), f->g 4; main->r
    // is called on both sides and is no change.
    const Expected expected[] = {{K::BecameInlined, "main", "f", 14, 0, 0, 12},
                                 {K::PartlyCalled, "main", "k", 0, 8, 1, 2},
                                 {K::PartlyInlined, "main", "h", 6, 0, 2, 5},
                                 {K::BecameInlined, "r", "r", 7, 0, 0, 3},
                                 {K::NoLongerInlined, "f", "g", 0, 4, 3, 0}};
    QCOMPARE(c.inlining.size(), std::size(expected));
    for (size_t i = 0; i < std::size(expected); ++i) {
        const InliningChange &x = c.inlining[i];
        const Expected &e = expected[i];
        QCOMPARE(int(x.kind), int(e.kind));
        QCOMPARE(x.caller, std::string(e.caller));
        QCOMPARE(x.callee, std::string(e.callee));
        QCOMPARE(x.base.called, e.baseCalled);
        QCOMPARE(x.base.inlined, e.baseInlined);
        QCOMPARE(x.next.called, e.nextCalled);
        QCOMPARE(x.next.inlined, e.nextInlined);
    }
    // Hot edges (all edges are hot on both sides: no cumulative share passes 99 % before the last edge).
    // Base: (main,f,1) 14, (main,k,2) 8, (main,h,1) 6, (f,g,2) 4. Next: (main,f,1) 12, (main,h,3) 5,
    // (f,g,1) 3, (main,r,1) 3, (r,r,1) 3, (main,h,1) 2, (main,k,2) 2, (main,k,1) 1.
    struct Hot {
        bool appeared;
        const char *caller, *callee;
        int64_t offset, baseWeight, nextWeight;
    };
    const Hot hot[] = {{true, "main", "h", 3, 0, 5}, {true, "f", "g", 1, 0, 3},   {true, "main", "r", 1, 0, 3},
                       {true, "r", "r", 1, 0, 3},    {true, "main", "k", 1, 0, 1}, {false, "f", "g", 2, 4, 0}};
    QCOMPARE(c.hotEdges.size(), std::size(hot));
    for (size_t i = 0; i < std::size(hot); ++i) {
        const HotEdgeChange &h = c.hotEdges[i];
        QCOMPARE(h.appeared, hot[i].appeared);
        QCOMPARE(h.caller, std::string(hot[i].caller));
        QCOMPARE(h.callee, std::string(hot[i].callee));
        QCOMPARE(h.offset, hot[i].offset);
        QCOMPARE(h.baseWeight, hot[i].baseWeight);
        QCOMPARE(h.nextWeight, hot[i].nextWeight);
    }
    // Against itself nothing changed.
    const InliningChanges same = computeInliningChanges({pair.base.profile()}, {pair.base.profile()});
    QVERIFY(same.inlining.empty());
    QVERIFY(same.hotEdges.empty());
}

void tst_PgoExport::inliningChangesOfRealGoBuilds()
{
    REQUIRE_GO(go);
    QTemporaryDir dir;
    const QString source = QStringLiteral(QFLAME_TEST_DATA "/pgo-inlining/main.go");
    for (const auto &[binary, flags] : {std::pair{"inlined", QStringList()},
                                        std::pair{"called", QStringList{QStringLiteral("-gcflags=-l")}}}) {
        const Run build = runGo(go, QStringList{QStringLiteral("build")} + flags +
                                        QStringList{QStringLiteral("-o"), QLatin1String(binary), source},
                                dir.path());
        QVERIFY2(build.code == 0, build.err.constData());
        QProcess run;
        run.setWorkingDirectory(dir.path());
        run.start(dir.filePath(QLatin1String(binary)),
                  {QStringLiteral("-o"), QLatin1String(binary) + QStringLiteral(".pprof"), QStringLiteral("-s"),
                   QStringLiteral("1.5")});
        QVERIFY(run.waitForFinished(60000));
        QCOMPARE(run.exitCode(), 0);
    }
    const QString called = dir.filePath(QStringLiteral("called.pprof")),
                  inlined = dir.filePath(QStringLiteral("inlined.pprof"));
    const InliningChanges c = computeInliningChanges({readProfileFile(called)}, {readProfileFile(inlined)});
    QCOMPARE(c.sampleType, std::string("samples/count"));
    // Built with -l, main.spin calls main.mix; built as is, mix is inlined into spin. Nothing else in the hot
    // path is Go code the inliner touches (time.Now's loop is the runtime's).
    const InliningChange *mix = nullptr;
    for (const InliningChange &x : c.inlining)
        if (x.caller == "main.spin" && x.callee == "main.mix")
            mix = &x;
    QVERIFY2(mix, "main.spin -> main.mix is not an inlining change");
    QCOMPARE(int(mix->kind), int(InliningChange::Kind::BecameInlined));
    QCOMPARE(mix->base.inlined, int64_t(0));
    QCOMPARE(mix->next.called, int64_t(0));
    // Each side's weight is every sample through main.mix: go tool pprof's cum of main.mix, all of it called
    // from main.spin.
    const auto calledTop = pprofTop(go, called, dir.path()), inlinedTop = pprofTop(go, inlined, dir.path());
    QVERIFY(calledTop.count(QStringLiteral("main.mix")));
    QVERIFY(inlinedTop.count(QStringLiteral("main.mix (inline)")));
    QCOMPARE(QString::number(mix->base.called), calledTop.at(QStringLiteral("main.mix")).second);
    QCOMPARE(QString::number(mix->next.inlined), inlinedTop.at(QStringLiteral("main.mix (inline)")).second);
    QVERIFY(mix->base.called > 20);   // 1.5 s at 100 Hz, most of it in mix
}

void tst_PgoExport::cliConvertForPgo()
{
    QTemporaryDir dir;
    const InliningPair pair = inliningPair();
    const QString base = writeProfile(dir, "base.pb", pair.base), next = writeProfile(dir, "next.pb", pair.next);
    const QString out = dir.filePath(QStringLiteral("pgo.pb.gz"));
    const Run r = runQflame({QStringLiteral("convert"), base, next, QStringLiteral("--for"), QStringLiteral("pgo"),
                             QStringLiteral("--output"), out});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out, QByteArray());
    const qint64 inputBytes = QFileInfo(base).size() + QFileInfo(next).size(), outBytes = QFileInfo(out).size();
    const Profiles both{readProfileFile(base), readProfileFile(next)};
    const PgoEdges edges = computePgoEdges(both);
    QCOMPARE(computePgoEdges({readProfileFile(out)}).edges, edges.edges);
    QCOMPARE(r.err, QStringLiteral("trimmed for go build -pgo: %1 bytes from %2 (%3x smaller), the same %4 edges\n")
                        .arg(outBytes)
                        .arg(inputBytes)
                        .arg(double(inputBytes) / double(outBytes), 0, 'f', 1)
                        .arg(edges.edges.size())
                        .toUtf8());
    // To standard output: the same bytes.
    const Run toStdout = runQflame({QStringLiteral("convert"), base, next, QStringLiteral("--for=pgo")});
    QCOMPARE(toStdout.code, 0);
    QFile written(out);
    QVERIFY(written.open(QIODevice::ReadOnly));
    QCOMPARE(toStdout.out, written.readAll());
}

void tst_PgoExport::cliConvertForPgoErrors()
{
    QTemporaryDir dir;
    const QString base = writeProfile(dir, "base.pb", inliningPair().base);
    const Run other = runQflame({QStringLiteral("convert"), base, QStringLiteral("--for"), QStringLiteral("perf")});
    QCOMPARE(other.code, 1);
    QVERIFY(other.err.startsWith("qflame: --for takes pgo (the profile go build -pgo reads), not 'perf'\n"));
    const Run folded = runQflame({QStringLiteral("convert"), base, QStringLiteral("--for"), QStringLiteral("pgo"),
                                 QStringLiteral("--to"), QStringLiteral("folded")});
    QCOMPARE(folded.code, 1);
    QVERIFY(folded.err.contains("--for pgo writes pprof"));
    Builder heap(SampleTypes{{"alloc_space", "bytes"}});
    heap.sample({heap.location(0x1, {{heap.function("f", 1), 2}})}, {5});
    const QString heapFile = writeProfile(dir, "heap.pb", heap);
    const Run rejected = runQflame({QStringLiteral("convert"), heapFile, QStringLiteral("--for"), QStringLiteral("pgo"),
                                   QStringLiteral("--output"), dir.filePath(QStringLiteral("x.pb.gz"))});
    QCOMPARE(rejected.code, 2);
    QCOMPARE(rejected.err, QByteArray("qflame: " + heapFile.toUtf8() + ": no samples/count or cpu/nanoseconds "
                                      "sample type: go build -pgo rejects this profile; it has: alloc_space/bytes\n"));
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("x.pb.gz"))));
}

void tst_PgoExport::cliDiffInlining()
{
    QTemporaryDir dir;
    const InliningPair pair = inliningPair();
    const QString base = writeProfile(dir, "base.pb", pair.base), next = writeProfile(dir, "next.pb", pair.next);
    const Run tsv = runQflame({QStringLiteral("diff"), base, next, QStringLiteral("--inlining"),
                               QStringLiteral("--tsv")});
    QCOMPARE(tsv.code, 0);
    QCOMPARE(tsv.out, QByteArray("inlining\tbecame_inlined\tmain\tf\t14\t0\t0\t12\n"
                                 "inlining\tpartly_called\tmain\tk\t0\t8\t1\t2\n"
                                 "inlining\tpartly_inlined\tmain\th\t6\t0\t2\t5\n"
                                 "inlining\tbecame_inlined\tr\tr\t7\t0\t0\t3\n"
                                 "inlining\tno_longer_inlined\tf\tg\t0\t4\t3\t0\n"
                                 "hot\tappeared\tmain\th\t3\t0\t5\n"
                                 "hot\tappeared\tf\tg\t1\t0\t3\n"
                                 "hot\tappeared\tmain\tr\t1\t0\t3\n"
                                 "hot\tappeared\tr\tr\t1\t0\t3\n"
                                 "hot\tappeared\tmain\tk\t1\t0\t1\n"
                                 "hot\tvanished\tf\tg\t2\t4\t0\n"));
    // --json (docs/json.md): the same changes, field by field, in the same order.
    const Run json = runQflame({QStringLiteral("diff"), base, next, QStringLiteral("--inlining"),
                                QStringLiteral("--json")});
    QCOMPARE(json.code, 0);
    const QJsonObject doc = QJsonDocument::fromJson(json.out).object();
    QCOMPARE(doc.value("report").toString(), QStringLiteral("inlining"));
    QStringList fromJson;
    for (const QJsonValue &v : doc.value("inlining").toArray()) {
        const QJsonObject o = v.toObject();
        fromJson << QStringList{"inlining", o.value("kind").toString(), o.value("caller").toString(),
                                o.value("callee").toString(), QString::number(o.value("base_called").toInteger()),
                                QString::number(o.value("base_inlined").toInteger()),
                                QString::number(o.value("new_called").toInteger()),
                                QString::number(o.value("new_inlined").toInteger())}
                        .join(QLatin1Char('\t'));
    }
    for (const QJsonValue &v : doc.value("hot_edges").toArray()) {
        const QJsonObject o = v.toObject();
        fromJson << QStringList{"hot", o.value("change").toString(), o.value("caller").toString(),
                                o.value("callee").toString(), QString::number(o.value("offset").toInteger()),
                                QString::number(o.value("base_weight").toInteger()),
                                QString::number(o.value("new_weight").toInteger())}
                        .join(QLatin1Char('\t'));
    }
    QCOMPARE(fromJson.join(QLatin1Char('\n')) + QLatin1Char('\n'), QString::fromUtf8(tsv.out));
    const Run people = runQflame({QStringLiteral("diff"), base, next, QStringLiteral("--inlining")});
    QCOMPARE(people.code, 0);
    const QList<QByteArray> lines = people.out.split('\n');
    QCOMPARE(lines.value(0), QByteArray("Inlining changes from " + base.toUtf8() + " to " + next.toUtf8() +
                                        " (samples/count): 5"));
    QCOMPARE(lines.value(1), QByteArray("  became inlined: main -> f: base called 14, inlined 0; new called 0, "
                                        "inlined 12"));
    QCOMPARE(lines.value(6), QByteArray("PGO hot edges that appeared: 5"));
    QCOMPARE(lines.value(7), QByteArray("  main -> h +3: base 0, new 5"));
    QCOMPARE(lines.value(12), QByteArray("PGO hot edges that vanished: 1"));
    QCOMPARE(lines.value(13), QByteArray("  f -> g +2: base 4, new 0"));
}

void tst_PgoExport::cliDiffInliningErrors()
{
    QTemporaryDir dir;
    const InliningPair pair = inliningPair();
    const QString base = writeProfile(dir, "base.pb", pair.base), next = writeProfile(dir, "next.pb", pair.next);
    const Run csv = runQflame({QStringLiteral("diff"), base, next, QStringLiteral("--inlining"),
                               QStringLiteral("--csv")});
    QCOMPARE(csv.code, 1);
    QVERIFY(csv.err.startsWith("qflame: --inlining compares calls by function name: it takes only --sample, --tsv, "
                               "--json and --max-size\n"));
    Builder heap(SampleTypes{{"alloc_space", "bytes"}});
    heap.sample({heap.location(0x1, {{heap.function("f", 1), 2}})}, {5});
    const Run mixed = runQflame({QStringLiteral("diff"), base, writeProfile(dir, "heap.pb", heap),
                                 QStringLiteral("--inlining")});
    QCOMPARE(mixed.code, 2);
    QVERIFY2(mixed.err.endsWith("heap.pb: no samples/count sample type, which the inlining changes are computed "
                                "in\n"),
             mixed.err.constData());
}

QTEST_GUILESS_MAIN(tst_PgoExport)
#include "tst_pgoexport.moc"
