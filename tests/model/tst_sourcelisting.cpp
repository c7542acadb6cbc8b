// The cost of every source line (model/source) and `qflame list` / `diff --list`: pprof's labels and path rules by
// hand, line costs of a hand-built profile worked out here, and a real Go program built in the test whose listing
// must be go tool pprof -list's to the byte, in place, moved (--source-path, --trim-path), truncated and broken.
#include "GoToolchain.h"
#include "PgoTestSupport.h"
#include "pprof/PprofLabels.h"
#include "source/LineCosts.h"
#include "source/SourceFinder.h"
#include "source/SourceListing.h"
#include "tree/FrameTable.h"
#include "tree/PprofRegex.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace qflame;
using namespace qflame::pgotest;

namespace {

void writeText(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
}

QByteArray numberedLines(int n, const char *prefix)
{
    QByteArray out;
    for (int i = 1; i <= n; ++i)
        out += QByteArray(prefix) + " line " + QByteArray::number(i) + "\n";
    return out;
}

// The profile of the line-cost rules (samples/count). Files /src/app/main.go, work.go (work, and helper inlined
// into it), work_linux.go (another function named work), rec.go (a recursive function).
Builder lineProfile(int64_t s2 = 3)
{
    Builder b;
    const uint64_t main = b.function("main", 9, "/src/app/main.go"), work = b.function("work", 20, "/src/app/work.go"),
                   helper = b.function("helper", 29, "/src/app/work.go"), rec = b.function("rec", 39, "/src/app/rec.go"),
                   work2 = b.function("work", 4, "/src/app/work_linux.go");
    const uint64_t M1 = b.location(0x1, {{main, 10}}), M2 = b.location(0x2, {{main, 12}}),
                   W1 = b.location(0x3, {{helper, 30}, {work, 21}}), W2 = b.location(0x4, {{work, 22}}),
                   R = b.location(0x5, {{rec, 40}}), X = b.location(0x6, {{work2, 5}}), N = b.location(0x7, {});
    b.sample({W1, M1}, {5});      // main:10, work:21, helper:30 cum 5; helper:30 flat 5
    b.sample({W2, M1}, {s2});     // main:10, work:22 cum; work:22 flat
    b.sample({R, R, M2}, {4});    // main:12 cum 4; rec:40 cum 4 (once) and flat 4
    b.sample({N, W2, M2}, {2});   // a nameless leaf takes the flat; work:22, main:12 cum 2
    b.sample({X, M1}, {1});       // the other work: work_linux.go:5 flat and cum 1; main:10 cum 1
    b.sample({W2, M1}, {0});      // no value: no node
    return b;
}

// One line of go tool pprof -list: flat, cum (as printed), line number.
struct PprofLine {
    QString flat, cum;
    int line = 0;
};

std::vector<PprofLine> pprofListLines(const QByteArray &text)
{
    std::vector<PprofLine> out;
    static const QRegularExpression row(QStringLiteral(R"(^\s*(\S+)\s+(\S+)\s+(\d+):)"));
    for (const QByteArray &line : text.split('\n')) {
        const auto m = row.match(QString::fromUtf8(line));
        if (m.hasMatch() && !line.startsWith("ROUTINE"))
            out.push_back({m.captured(1), m.captured(2), m.captured(3).toInt()});
    }
    return out;
}

}   // namespace

class tst_SourceListing : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void scaledLabels_data();
    void scaledLabels();
    void percentages();
    void cleanPaths_data();
    void cleanPaths();
    void displayPaths();
    void goRootAndModuleCache();
    void lineCostsByHand();
    void listingTsvAndErrors();
    void diffListing();
    void realGoProgramEqualsPprof();
    void cliErrors();
};

void tst_SourceListing::scaledLabels_data()
{
    QTest::addColumn<qint64>("value");
    QTest::addColumn<QString>("unit");
    QTest::addColumn<QString>("label");
    QTest::newRow("ms") << qint64(740000000) << "nanoseconds" << "740ms";
    QTest::newRow("s") << qint64(1030000000) << "nanoseconds" << "1.03s";
    QTest::newRow("whole s") << qint64(2000000000) << "nanoseconds" << "2s";
    QTest::newRow("us") << qint64(1500) << "nanoseconds" << "1.50us";
    QTest::newRow("ns") << qint64(7) << "nanoseconds" << "7ns";
    QTest::newRow("hours") << qint64(7200) * 1000000000 << "nanoseconds" << "2hrs";
    QTest::newRow("negative") << qint64(-740000000) << "nanoseconds" << "-740ms";
    QTest::newRow("zero") << qint64(0) << "nanoseconds" << "0";
    QTest::newRow("count") << qint64(74) << "count" << "74";
    QTest::newRow("big count") << qint64(1234567) << "count" << "1234567";
    QTest::newRow("kB") << qint64(1536) << "bytes" << "1.50kB";
    QTest::newRow("MB") << qint64(1048576) << "bytes" << "1MB";
    QTest::newRow("B") << qint64(512) << "bytes" << "512B";
    QTest::newRow("microseconds unit") << qint64(2500) << "microseconds" << "2.50ms";
}

void tst_SourceListing::scaledLabels()
{
    QFETCH(qint64, value);
    QFETCH(QString, unit);
    QFETCH(QString, label);
    QCOMPARE(QString::fromStdString(pprofScaledLabel(value, unit.toStdString())), label);
}

void tst_SourceListing::percentages()
{
    QCOMPARE(pprofPercentage(1, 3), std::string("33.33%"));
    QCOMPARE(pprofPercentage(5, 10), std::string("50.00%"));
    QCOMPARE(pprofPercentage(9996, 10000), std::string("  100%"));
    QCOMPARE(pprofPercentage(1, 1000), std::string("  0.1%"));
    QCOMPARE(pprofPercentage(123, 100000), std::string(" 0.12%"));
    QCOMPARE(pprofPercentage(0, 0), std::string("    0%"));
}

void tst_SourceListing::cleanPaths_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("clean");
    QTest::newRow("dots") << "a//b/./c/../d" << "a/b/d";
    QTest::newRow("root dotdot") << "/../x" << "/x";
    QTest::newRow("relative dotdot") << "../../a" << "../../a";
    QTest::newRow("empty") << "" << ".";
    QTest::newRow("root") << "/" << "/";
    QTest::newRow("trailing") << "/a/b/" << "/a/b";
    QTest::newRow("all gone") << "a/.." << ".";
}

void tst_SourceListing::cleanPaths()
{
    QFETCH(QString, path);
    QFETCH(QString, clean);
    QCOMPARE(QString::fromStdString(cleanPath(path.toStdString())), clean);
}

void tst_SourceListing::displayPaths()
{
    SourcePaths paths;
    paths.searchPath = {"/home/me/checkout/my-project"};
    // pprof's heuristic: the part after the search directory's base name.
    QCOMPARE(SourceFinder(paths).displayPath("/build/remote/my-project/foo/bar.go"), std::string("foo/bar.go"));
    QCOMPARE(SourceFinder(paths).displayPath("/proc/self/cwd/x.go"), std::string("x.go"));
    // A trim prefix turns the heuristic off, with or without its trailing slash.
    paths.trimPaths = {"/build/remote"};
    QCOMPARE(SourceFinder(paths).displayPath("/build/remote/my-project/foo/bar.go"),
             std::string("my-project/foo/bar.go"));
    QCOMPARE(SourceFinder(paths).displayPath("/elsewhere/bar.go"), std::string("/elsewhere/bar.go"));
}

// Beyond pprof's search: the profile's GOROOT on this machine, -trimpath's stdlib paths under GOROOT/src, and
// module@version paths in the module cache; each says where it was found.
void tst_SourceListing::goRootAndModuleCache()
{
    QTemporaryDir dir;
    writeText(dir.filePath("goroot/src/runtime/proc.go"), numberedLines(3, "proc.go"));
    writeText(dir.filePath("modcache/github.com/x/y@v1.2.3/a.go"), numberedLines(2, "a.go"));
    SourcePaths paths;
    paths.workingDirectory = dir.filePath("nowhere").toStdString();
    paths.goroot = dir.filePath("goroot").toStdString();
    paths.moduleCache = dir.filePath("modcache").toStdString();
    SourceFinder finder(paths);
    finder.learnProfileGoroot({"/home/ci/main.go", "/usr/local/go/src/runtime/proc.go"});
    QCOMPARE(finder.profileGoroot(), std::string("/usr/local/go"));
    const SourceFile &byRoot = finder.read("/usr/local/go/src/runtime/proc.go");
    QCOMPARE(QString::fromStdString(byRoot.path), dir.filePath("goroot/src/runtime/proc.go"));
    QCOMPARE(byRoot.foundIn, std::string("GOROOT"));
    QCOMPARE(byRoot.lines, (std::vector<std::string>{"proc.go line 1", "proc.go line 2", "proc.go line 3"}));
    QCOMPARE(QString::fromStdString(finder.read("runtime/proc.go").path), dir.filePath("goroot/src/runtime/proc.go"));
    const SourceFile &byModule = finder.read("/home/u/go/pkg/mod/github.com/x/y@v1.2.3/a.go");
    QCOMPARE(QString::fromStdString(byModule.path), dir.filePath("modcache/github.com/x/y@v1.2.3/a.go"));
    QCOMPARE(byModule.foundIn, std::string("the module cache"));
    QCOMPARE(QString::fromStdString(finder.read("github.com/x/y@v1.2.3/a.go").path),
             dir.filePath("modcache/github.com/x/y@v1.2.3/a.go"));
    // A path that is nowhere: the reason names every place looked in.
    const SourceFile &none = finder.read("/src/other.go");
    QVERIFY(none.path.empty());
    QCOMPARE(none.error, "could not find /src/other.go (searched " + dir.filePath("nowhere").toStdString() +
                             ", GOROOT " + paths.goroot + ", the module cache " + paths.moduleCache +
                             "; --source-path DIR and --trim-path PREFIX say where it is)");
}

void tst_SourceListing::lineCostsByHand()
{
    const auto p = lineProfile().profile();
    const LineCosts c = computeLineCosts({p}, 0, compileRequiredPprofRegex("work|helper", "list"));
    QCOMPARE(c.total, int64_t(15));
    QCOMPARE(c.functions.size(), size_t(2));
    QCOMPARE(c.functions[0].name, std::string("helper"));
    QCOMPARE(c.functions[0].files.size(), size_t(1));
    const FileLineCosts &h = c.functions[0].files[0];
    QCOMPARE(h.file, std::string("/src/app/work.go"));
    QCOMPARE(h.lines.size(), size_t(1));
    QCOMPARE(h.lines.at(30).flat, int64_t(5));
    QCOMPARE(h.lines.at(30).cum, int64_t(5));
    QCOMPARE(c.functions[1].name, std::string("work"));
    QCOMPARE(c.functions[1].files.size(), size_t(2));   // work.go before work_linux.go
    const FileLineCosts &w = c.functions[1].files[0], &wl = c.functions[1].files[1];
    QCOMPARE(w.file, std::string("/src/app/work.go"));
    QCOMPARE(w.lines.at(21).flat, int64_t(0));
    QCOMPARE(w.lines.at(21).cum, int64_t(5));
    QCOMPARE(w.lines.at(22).flat, int64_t(3));
    QCOMPARE(w.lines.at(22).cum, int64_t(5));
    QCOMPARE(w.flat, int64_t(3));
    QCOMPARE(w.cum, int64_t(10));
    QCOMPARE(wl.file, std::string("/src/app/work_linux.go"));
    QCOMPARE(wl.lines.at(5).flat, int64_t(1));
    QCOMPARE(wl.lines.at(5).cum, int64_t(1));

    const LineCosts m = computeLineCosts({p}, 0, compileRequiredPprofRegex("^main$", "list"));
    QCOMPARE(m.functions.size(), size_t(1));
    QCOMPARE(m.functions[0].files[0].lines.at(10).cum, int64_t(9));
    QCOMPARE(m.functions[0].files[0].lines.at(12).cum, int64_t(6));
    QCOMPARE(m.functions[0].files[0].cum, int64_t(15));
    const LineCosts r = computeLineCosts({p}, 0, compileRequiredPprofRegex("rec", "list"));
    QCOMPARE(r.functions[0].files[0].lines.at(40).cum, int64_t(4));   // recursion counted once per sample
    QCOMPARE(r.functions[0].files[0].lines.at(40).flat, int64_t(4));
    // Merged profiles add up.
    const LineCosts twice = computeLineCosts({p, p}, 0, compileRequiredPprofRegex("rec", "list"));
    QCOMPARE(twice.total, int64_t(30));
    QCOMPARE(twice.functions[0].files[0].lines.at(40).cum, int64_t(8));
}

void tst_SourceListing::listingTsvAndErrors()
{
    QTemporaryDir dir;
    writeText(dir.filePath("app/work.go"), numberedLines(40, "work.go"));
    writeText(dir.filePath("app/work_linux.go"), numberedLines(3, "work_linux.go"));   // shorter than profiled
    const QString profile = writeProfile(dir, "p.pb", lineProfile());
    const Run r = runQflameIn(dir.path(), {QStringLiteral("list"), QStringLiteral("work|helper"), profile,
                                           QStringLiteral("--source-path"), dir.filePath("app"),
                                           QStringLiteral("--tsv")});
    QCOMPARE(r.code, 0);
    QByteArray expected;
    const QByteArray work = dir.filePath("app/work.go").toUtf8(), linux = dir.filePath("app/work_linux.go").toUtf8();
    for (int n = 25; n <= 35; ++n)   // helper's one line, 30, with 5 lines around it
        expected += "helper\t" + work + "\t" + QByteArray::number(n) + (n == 30 ? "\t5\t5\t" : "\t0\t0\t") +
                    "work.go line " + QByteArray::number(n) + "\n";
    for (int n = 16; n <= 27; ++n)   // work's lines 21 and 22
        expected += "work\t" + work + "\t" + QByteArray::number(n) +
                    (n == 21 ? "\t0\t5\t" : n == 22 ? "\t3\t5\t" : "\t0\t0\t") + "work.go line " +
                    QByteArray::number(n) + "\n";
    for (int n = 1; n <= 3; ++n)   // line 5 is past the end: the listing stops there, as pprof's
        expected += "work\t" + linux + "\t" + QByteArray::number(n) + "\t0\t0\twork_linux.go line " +
                    QByteArray::number(n) + "\n";
    QCOMPARE(r.out, expected);
    QCOMPARE(r.err, "qflame: warning: " + linux + " has 3 lines shown but the profile has costs on 1 lines past its "
                    "end (up to line 5): it is not the source that was profiled\n");

    // --json (docs/json.md): the TSV's lines, file by file, from the same listing.
    const Run json = runQflameIn(dir.path(), {QStringLiteral("list"), QStringLiteral("work|helper"), profile,
                                              QStringLiteral("--source-path"), dir.filePath("app"),
                                              QStringLiteral("--json")});
    QCOMPARE(json.code, 0);
    const QJsonObject doc = QJsonDocument::fromJson(json.out).object();
    QCOMPARE(doc.value("report").toString(), QStringLiteral("list"));
    QVERIFY(!doc.value("comparison").toBool());
    QByteArray fromJson;
    for (const QJsonValue &fv : doc.value("files").toArray()) {
        const QJsonObject f = fv.toObject();
        for (const QJsonValue &lv : f.value("lines").toArray()) {
            const QJsonObject l = lv.toObject();
            fromJson += f.value("function").toString().toUtf8() + "\t" + f.value("read_file").toString().toUtf8() +
                        "\t" + QByteArray::number(l.value("line").toInteger()) + "\t" +
                        QByteArray::number(l.value("flat").toInteger()) + "\t" +
                        QByteArray::number(l.value("cum").toInteger()) + "\t" + l.value("text").toString().toUtf8() +
                        "\n";
        }
    }
    QCOMPARE(fromJson, expected);
    QCOMPARE(doc.value("files").toArray()[2].toObject().value("lines_past_end").toInteger(), qint64(1));

    // The text, pprof's layout: the paths as the profile gives them, trimmed by the --source-path heuristic.
    const Run text = runQflameIn(dir.path(), {QStringLiteral("list"), QStringLiteral("^helper$"), profile,
                                              QStringLiteral("--source-path"), dir.filePath("app")});
    QCOMPARE(text.code, 0);
    QByteArray helperText = "Total: 15\nROUTINE ======================== helper in work.go\n"
                            "         5          5 (flat, cum) 33.33% of Total\n";
    for (int n = 25; n <= 35; ++n)
        helperText += QByteArray(n == 30 ? "         5          5     " : "         .          .     ") +
                      QByteArray::number(n) + ":work.go line " + QByteArray::number(n) + "\n";
    QCOMPARE(text.out, helperText);

    // No source for main.go: pprof's header, then why.
    const Run missing = runQflameIn(dir.path(), {QStringLiteral("list"), QStringLiteral("^main$"), profile,
                                                 QStringLiteral("--source-path"), dir.filePath("app")});
    QCOMPARE(missing.code, 0);
    QVERIFY2(missing.out.startsWith("Total: 15\nROUTINE ======================== main in main.go\n"
                                    "         0         15 (flat, cum)   100% of Total\n"
                                    " Error: could not find main.go (searched " +
                                    dir.filePath("app").toUtf8()),
             missing.out.constData());

    // Binary data where the source should be.
    writeText(dir.filePath("app/rec.go"), QByteArray("\x7f" "ELF\0\1\2", 7));
    const Run binary = runQflameIn(dir.path(), {QStringLiteral("list"), QStringLiteral("rec"), profile,
                                                QStringLiteral("--source-path"), dir.filePath("app")});
    QCOMPARE(binary.code, 0);
    QVERIFY2(binary.out.endsWith(" Error: " + dir.filePath("app/rec.go").toUtf8() +
                                 ": binary data (a NUL byte at offset 4), not source text\n"),
             binary.out.constData());
}

void tst_SourceListing::diffListing()
{
    QTemporaryDir dir;
    writeText(dir.filePath("app/work.go"), numberedLines(40, "work.go"));
    const QString base = writeProfile(dir, "base.pb", lineProfile(3)), next = writeProfile(dir, "next.pb", lineProfile(7));
    const Run r = runQflameIn(dir.path(), {QStringLiteral("diff"), base, next, QStringLiteral("--list"),
                                           QStringLiteral("^work$"), QStringLiteral("--source-path"),
                                           dir.filePath("app"), QStringLiteral("--tsv")});
    QCOMPARE(r.code, 0);
    const QList<QByteArray> lines = r.out.split('\n');
    const QByteArray work = dir.filePath("app/work.go").toUtf8();
    QCOMPARE(lines.value(5), "work\t" + work + "\t21\t0\t0\t0\t5\t5\t0\tunchanged\twork.go line 21");
    // Line 22: cum 5 -> 9 on 5 and 9 samples (the values are counts): SE = sqrt(25/5 + 81/9) = 3.74, and
    // 4 < 2 x 3.74: noise.
    QCOMPARE(lines.value(6), "work\t" + work + "\t22\t3\t7\t4\t5\t9\t4\tnoise\twork.go line 22");
    QCOMPARE(lines.value(0), "work\t" + work + "\t16\t0\t0\t0\t0\t0\t0\tunchanged\twork.go line 16");
    // work_linux.go is missing: said on stderr, nothing listed for it.
    QVERIFY2(r.err.startsWith("qflame: work: could not find work_linux.go"), r.err.constData());
    QCOMPARE(lines.size(), 12 + 1);
    const Run text = runQflameIn(dir.path(), {QStringLiteral("diff"), base, next, QStringLiteral("--list"),
                                              QStringLiteral("^work$"), QStringLiteral("--source-path"),
                                              dir.filePath("app")});
    QCOMPARE(text.code, 0);
    const QList<QByteArray> t = text.out.split('\n');
    QCOMPARE(t.value(0), QByteArray("Total: 15 -> 19"));
    QCOMPARE(t.value(1), QByteArray("Noise: a line's cum delta under 2 Poisson standard errors (from samples/count) "
                                    "is noise"));
    QCOMPARE(t.value(2), QByteArray("ROUTINE ======================== work in work.go"));
    QCOMPARE(t.value(3), QByteArray("        10         14         +4 (cum before, after, delta)"));
    QCOMPARE(t.value(10), QByteArray("         5          9         +4   noise     22:work.go line 22"));
    // Without the noise test, the same delta is a change.
    const Run off = runQflameIn(dir.path(), {QStringLiteral("diff"), base, next, QStringLiteral("--list"),
                                             QStringLiteral("^work$"), QStringLiteral("--source-path"),
                                             dir.filePath("app"), QStringLiteral("--noise"), QStringLiteral("0")});
    QCOMPARE(off.code, 0);
    const QList<QByteArray> o = off.out.split('\n');
    QCOMPARE(o.value(1), QByteArray("Noise: not tested (--noise 0)"));
    QCOMPARE(o.value(10), QByteArray("         5          9         +4  slower     22:work.go line 22"));
}

void tst_SourceListing::realGoProgramEqualsPprof()
{
    REQUIRE_GO(go);
    QTemporaryDir dir;
    const QString built = dir.filePath("build/src/prog"), source = built + "/main.go";
    QDir().mkpath(built);
    QVERIFY(QFile::copy(QStringLiteral(QFLAME_TEST_DATA "/pgo-inlining/main.go"), source));
    const Run build = runGo(go, {QStringLiteral("build"), QStringLiteral("-o"), QStringLiteral("prog"),
                                 QStringLiteral("main.go")},
                            built);
    QVERIFY2(build.code == 0, build.err.constData());
    QProcess run;
    run.setWorkingDirectory(dir.path());
    run.start(built + "/prog", {QStringLiteral("-o"), dir.filePath("cpu.pprof"), QStringLiteral("-s"),
                                QStringLiteral("1")});
    QVERIFY(run.waitForFinished(60000));
    QCOMPARE(run.exitCode(), 0);
    const QString profile = dir.filePath("cpu.pprof");

    auto pprofList = [&](const QStringList &options) {
        return runGo(go, QStringList{QStringLiteral("tool"), QStringLiteral("pprof")} + options +
                             QStringList{QStringLiteral("-list"), QStringLiteral("main\\."), profile},
                     dir.path());
    };
    auto qflameList = [&](const QStringList &options) {
        return runQflameIn(dir.path(), QStringList{QStringLiteral("list"), QStringLiteral("main\\."), profile} +
                                           options);
    };
    // In place: the same bytes.
    const Run pp = pprofList({}), qf = qflameList({});
    QCOMPARE(pp.code, 0);
    QCOMPARE(qf.code, 0);
    QVERIFY(qf.out.contains("ROUTINE ======================== main.spin in " + source.toUtf8()));
    QCOMPARE(qf.out, pp.out);
    // Exact counts: -sample_index=samples prints integers, the TSV's flat and cum.
    const auto counts = pprofListLines(pprofList({QStringLiteral("-sample_index=samples")}).out);
    const Run tsv = qflameList({QStringLiteral("--sample"), QStringLiteral("samples"), QStringLiteral("--tsv")});
    QCOMPARE(tsv.code, 0);
    const QList<QByteArray> rows = tsv.out.trimmed().split('\n');
    QCOMPARE(size_t(rows.size()), counts.size());
    int64_t costed = 0;
    for (size_t i = 0; i < counts.size(); ++i) {
        const QList<QByteArray> f = rows[qsizetype(i)].split('\t');
        QCOMPARE(f.value(2).toInt(), counts[i].line);
        QCOMPARE(f.value(3), counts[i].flat == "." ? QByteArray("0") : counts[i].flat.toUtf8());
        QCOMPARE(f.value(4), counts[i].cum == "." ? QByteArray("0") : counts[i].cum.toUtf8());
        QCOMPARE(f.value(1), source.toUtf8());
        costed += f.value(4) != "0";
    }
    QVERIFY(costed >= 3);

    // Moved: found through --source-path (pprof's base-name heuristic), and through --trim-path.
    QVERIFY(QDir().rename(dir.filePath("build/src"), dir.filePath("moved")));
    const QString movedProg = dir.filePath("moved/prog");
    const Run lost = qflameList({});
    QVERIFY(lost.out.contains(" Error: could not find " + source.toUtf8()));
    for (const QStringList &options :
         {QStringList{QStringLiteral("-source_path=") + movedProg},
          QStringList{QStringLiteral("-source_path=") + dir.filePath("moved"),
                      QStringLiteral("-trim_path=") + dir.filePath("build/src")}}) {
        QStringList ours;
        for (QString o : options)
            ours << o.replace(QStringLiteral("-source_path="), QStringLiteral("--source-path="))
                        .replace(QStringLiteral("-trim_path="), QStringLiteral("--trim-path="));
        const Run a = pprofList(options), b = qflameList(ours);
        QCOMPARE(b.code, 0);
        QVERIFY2(!b.out.contains("Error"), b.out.constData());
        QVERIFY(b.out.contains("func spin(until time.Time) uint64 {"));
        QCOMPARE(b.out, a.out);
    }

    // Truncated to 16 lines: both stop at the end of the file; qflame says it is not the profiled source.
    QFile moved(movedProg + "/main.go");
    QVERIFY(moved.open(QIODevice::ReadOnly));
    const QList<QByteArray> sourceLines = moved.readAll().split('\n');
    moved.close();
    writeText(movedProg + "/main.go", sourceLines.mid(0, 16).join('\n') + '\n');
    const QStringList options{QStringLiteral("-source_path=") + movedProg};
    const Run shortPprof = pprofList(options), shortOurs = qflameList({QStringLiteral("--source-path"), movedProg});
    QCOMPARE(shortOurs.out, shortPprof.out);
    QVERIFY2(shortOurs.err.contains("qflame: warning: " + movedProg.toUtf8() + "/main.go has "),
             shortOurs.err.constData());
    QVERIFY(shortOurs.err.contains("it is not the source that was profiled"));
}

void tst_SourceListing::cliErrors()
{
    QTemporaryDir dir;
    const QString profile = writeProfile(dir, "p.pb", lineProfile());
    const Run none = runQflameIn(dir.path(), {QStringLiteral("list"), QStringLiteral("nothing"), profile});
    QCOMPARE(none.code, 2);
    QCOMPARE(none.err, QByteArray("qflame: no matches found for regexp: nothing\n"));
    const Run bad = runQflameIn(dir.path(), {QStringLiteral("list"), QStringLiteral("(work"), profile});
    QCOMPARE(bad.code, 1);
    QVERIFY2(bad.err.startsWith("qflame: parsing list regexp: "), bad.err.constData());
    const Run gran = runQflameIn(dir.path(), {QStringLiteral("list"), QStringLiteral("work"), profile,
                                              QStringLiteral("--granularity"), QStringLiteral("functions")});
    QCOMPARE(gran.code, 1);
    QVERIFY(gran.err.startsWith("qflame: list shows source lines: --granularity takes only lines, not 'functions'\n"));
    const Run noFile = runQflameIn(dir.path(), {QStringLiteral("list"), QStringLiteral("work")});
    QCOMPARE(noFile.code, 1);
    QVERIFY(noFile.err.startsWith("qflame: list takes a REGEX and one or more FILEs (several are merged)\n"));
    const Run paths = runQflameIn(dir.path(), {QStringLiteral("diff"), profile, profile,
                                               QStringLiteral("--source-path"), dir.path()});
    QCOMPARE(paths.code, 1);
    QVERIFY(paths.err.startsWith("qflame: --source-path and --trim-path go with --list REGEX\n"));
}

QTEST_GUILESS_MAIN(tst_SourceListing)
#include "tst_sourcelisting.moc"
