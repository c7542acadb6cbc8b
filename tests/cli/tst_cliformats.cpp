// The format verbs and options as a user runs them: the real qflame binary reading folded stacks and flamebearer
// JSON, `convert` to pprof and folded (read back by qflame itself), `top --csv`, and their errors.
#include "RunQflame.h"

#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using qflame::test::Run;
using qflame::test::runQflame;
using qflame::test::runQflameWith;

namespace {

QString data(const char *name)
{
    return QStringLiteral(QFLAME_TEST_DATA "/") + QLatin1String(name);
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// `qflame top --tsv` of FILE for one sample type: the exact table to compare conversions by.
QByteArray topTsv(const QString &file, const QString &sample = {})
{
    QStringList args{QStringLiteral("top"), QStringLiteral("--tsv"), file};
    if (!sample.isEmpty())
        args << QStringLiteral("--sample") << sample;
    return runQflame(args).out;
}

}   // namespace

class tst_CliFormats : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void readsEveryFormat_data();
    void readsEveryFormat();
    void convertToFoldedKeepsTheTable();
    void convertToPprofKeepsEverySampleType();
    void convertMergedTreeToPprof();
    void convertFromStdinToStdout();
    void topCsv();
    void diffAcrossFormats();
    void errors_data();
    void errors();
    void graphPictures();
    void graphWithoutGraphviz();
};

void tst_CliFormats::readsEveryFormat_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("firstRow");
    // All three are the baseline CPU profile: the same top function with the same flat and cum.
    QTest::newRow("pprof") << data("gen__baseline.cpu.pb.gz") << QStringLiteral("1920000000\t2400000000\tmain.checksumBlock");
    QTest::newRow("folded from go tool pprof -traces")
        << data("formats/gen__baseline.cpu.folded") << QStringLiteral("1920000000\t2400000000\tmain.checksumBlock");
    QTest::newRow("flamebearer from qryn") << data("formats/qryn-render.svc-base.cpu.json")
                                           << QStringLiteral("1920000000\t2400000000\tmain.checksumBlock");
}

void tst_CliFormats::readsEveryFormat()
{
    QFETCH(QString, file);
    QFETCH(QString, firstRow);
    const Run r = runQflame({QStringLiteral("top"), QStringLiteral("--tsv"), QStringLiteral("--limit"), QStringLiteral("1"), file});
    QCOMPARE(r.code, 0);
    QCOMPARE(QString::fromUtf8(r.out), firstRow + QLatin1Char('\n'));
}

void tst_CliFormats::convertToFoldedKeepsTheTable()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("cpu.folded"));
    const Run r = runQflame({QStringLiteral("convert"), data("gen__baseline.cpu.pb.gz"), QStringLiteral("--to"),
                             QStringLiteral("folded"), QStringLiteral("--output"), out});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.isEmpty());
    // The default sample type (cpu) in nanoseconds: 229 distinct stacks, the same as go tool pprof -traces gives.
    const QByteArray folded = readFile(out);
    QCOMPARE(folded.count('\n'), 229);
    QVERIFY(folded.contains("\nruntime.main;main.main;main.burn;runtime/pprof.Do;main.burn.func1;main.ingestPath;"
                            "main.checksumBlock 1920000000\n"));
    const QByteArray original = topTsv(data("gen__baseline.cpu.pb.gz"), QStringLiteral("cpu"));
    // Inline markers aside (folded stacks cannot say a call was inlined), the table is the same.
    QByteArray expected = original;
    expected.replace(" (inline)", "").replace(" (partial-inline)", "");
    QCOMPARE(topTsv(out), expected);
}

void tst_CliFormats::convertToPprofKeepsEverySampleType()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("heap.pb.gz"));
    QCOMPARE(runQflame({QStringLiteral("convert"), data("gen__heap.pb.gz"), QStringLiteral("--to"), QStringLiteral("pprof"),
                        QStringLiteral("-o"), out})
                 .code,
             0);
    QCOMPARE(readFile(out).left(2), QByteArray("\x1f\x8b"));
    for (const char *type : {"alloc_objects", "alloc_space", "inuse_objects", "inuse_space"})
        QCOMPARE(topTsv(out, QLatin1String(type)), topTsv(data("gen__heap.pb.gz"), QLatin1String(type)));
    const Run info = runQflame({QStringLiteral("info"), out});
    QVERIFY(info.out.contains("  3  inuse_space/bytes  [default]  total 21286415 (20.3 MiB)\n"));
}

void tst_CliFormats::convertMergedTreeToPprof()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("both.pb.gz"));
    const QString base = data("gen__baseline.cpu.pb.gz"), opt = data("gen__optimized.cpu.pb.gz");
    QCOMPARE(runQflame({QStringLiteral("convert"), base, opt, QStringLiteral("--to"), QStringLiteral("pprof"),
                        QStringLiteral("--sample"), QStringLiteral("cpu"), QStringLiteral("--output"), out})
                 .code,
             0);
    const Run info = runQflame({QStringLiteral("info"), out});
    QVERIFY2(info.out.contains("  0  cpu/nanoseconds  [default]  total 19420000000 (19.4 s)\n"), info.out.constData());
    QByteArray merged = runQflame({QStringLiteral("top"), QStringLiteral("--tsv"), QStringLiteral("--sample"),
                                   QStringLiteral("cpu"), base, opt})
                            .out;
    merged.replace(" (inline)", "").replace(" (partial-inline)", "");
    QCOMPARE(topTsv(out), merged);
}

void tst_CliFormats::convertFromStdinToStdout()
{
    const Run r = runQflame({QStringLiteral("convert"), QStringLiteral("-"), QStringLiteral("--to"), QStringLiteral("folded")},
                            "main;b 2\nmain;a 1\nmain;a 3\n");
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out, QByteArray("main;a 4\nmain;b 2\n"));
}

void tst_CliFormats::topCsv()
{
    const Run r = runQflame({QStringLiteral("top"), QStringLiteral("--csv"), QStringLiteral("--limit"), QStringLiteral("2"),
                             data("gen__baseline.cpu.pb.gz")});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out, QByteArray("flat,flat_percent,sum_percent,cum,cum_percent,name\r\n"
                               "1920000000,19.67,19.67,2400000000,24.59,main.checksumBlock\r\n"
                               "1130000000,11.58,31.25,1130000000,11.58,runtime.asyncPreempt\r\n"));
}

void tst_CliFormats::diffAcrossFormats()
{
    // The pprof against qryn's flamebearer answer for it: no function's own cost (delta_flat, column 3) changes.
    const Run r = runQflame({QStringLiteral("diff"), data("gen__baseline.cpu.pb.gz"),
                             data("formats/qryn-render.svc-base.cpu.json"), QStringLiteral("--tsv")});
    QCOMPARE(r.code, 0);
    int rows = 0;
    for (const QByteArray &line : r.out.split('\n')) {
        if (line.isEmpty())
            continue;
        const QList<QByteArray> f = line.split('\t');
        QCOMPARE(f.size(), 8);
        QVERIFY2(f[0] == f[1] && f[2] == "0", line.constData());
        ++rows;
    }
    QCOMPARE(rows, 187);
}

void tst_CliFormats::errors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("stderrContains");
    const QString base = data("gen__baseline.cpu.pb.gz");
    QTest::newRow("convert without --to") << QStringList{QStringLiteral("convert"), base} << QByteArray() << 1
                                          << QStringLiteral("convert needs --to pprof, --to folded, --to speedscope or --for pgo");
    QTest::newRow("unknown target") << QStringList{QStringLiteral("convert"), base, QStringLiteral("--to"), QStringLiteral("svg")}
                                    << QByteArray() << 1 << QStringLiteral("convert needs --to pprof, --to folded, --to speedscope or --for pgo");
    QTest::newRow("no input") << QStringList{QStringLiteral("convert"), QStringLiteral("--to"), QStringLiteral("pprof")}
                              << QByteArray() << 1 << QStringLiteral("convert takes one or more FILEs");
    QTest::newRow("unknown sample type")
        << QStringList{QStringLiteral("convert"), base, QStringLiteral("--to"), QStringLiteral("folded"),
                       QStringLiteral("--sample"), QStringLiteral("wall")}
        << QByteArray() << 1 << QStringLiteral("no sample type 'wall'");
    QTest::newRow("unwritable output")
        << QStringList{QStringLiteral("convert"), base, QStringLiteral("--to"), QStringLiteral("folded"),
                       QStringLiteral("-o"), QStringLiteral("/nonexistent/dir/x.folded")}
        << QByteArray() << 2 << QStringLiteral("/nonexistent/dir/x.folded: cannot write");
    // A malformed line among stacks is skipped with a warning (tst_folded); a file of none is an error.
    QTest::newRow("malformed folded line")
        << QStringList{QStringLiteral("top"), QStringLiteral("-")} << QByteArray("# stacks\na;b;c\n") << 2
        << QStringLiteral("<stdin>: text, but none of the text formats (tried legacy pprof, perf script, folded "
                          "stacks); as folded stacks: line 2: not folded stacks");
    QTest::newRow("flamebearer diff") << QStringList{QStringLiteral("info"), data("formats/qryn-render-diff.base-opt.cpu.json")}
                                      << QByteArray() << 2 << QStringLiteral("flamebearer format \"double\"");
}

void tst_CliFormats::errors()
{
    QFETCH(QStringList, args);
    QFETCH(QByteArray, input);
    QFETCH(int, code);
    QFETCH(QString, stderrContains);
    const Run r = runQflame(args, input);
    QCOMPARE(r.code, code);
    QVERIFY2(QString::fromUtf8(r.err).contains(stderrContains), r.err.constData());
}

// `graph --png` and `diff --graph --svg` draw, so `qflame` hands them to qflame-gui: a PNG and an SVG come out.
void tst_CliFormats::graphPictures()
{
    const QString base = QStringLiteral(QFLAME_TEST_DATA "/gen__baseline.cpu.pb.gz");
    const QString next = QStringLiteral(QFLAME_TEST_DATA "/gen__optimized.cpu.pb.gz");
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("g.png")), svg = dir.filePath(QStringLiteral("d.svg"));
    Run r = runQflameWith({QStringLiteral("graph"), base, QStringLiteral("--png"), png},
                          {{}, {}, {{QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen")}}});
    QCOMPARE(r.code, 0);
    QFile p(png);
    QVERIFY(p.open(QIODevice::ReadOnly));
    QCOMPARE(p.read(8), QByteArray("\x89PNG\r\n\x1a\n", 8));
    r = runQflameWith({QStringLiteral("diff"), base, next, QStringLiteral("--graph"), QStringLiteral("--svg"), svg},
                      {{}, {}, {{QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen")}}});
    QCOMPARE(r.code, 0);
    QFile s(svg);
    QVERIFY(s.open(QIODevice::ReadOnly));
    const QByteArray text = s.readAll();
    QVERIFY(text.contains("<svg"));
    QVERIFY(text.contains("checksumBlock"));
    // rounds --graph --png: drawn by qflame-gui, which must not take it for the window's rounds tab.
    const QString rounds = dir.filePath(QStringLiteral("rounds.png"));
    r = runQflameWith({QStringLiteral("rounds"), QStringLiteral("-r"), QStringLiteral("base"), base, base,
                       QStringLiteral("-r"), QStringLiteral("next"), next, next, QStringLiteral("--graph"),
                       QStringLiteral("--png"), rounds},
                      {{}, {}, {{QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen")}}});
    QVERIFY2(r.code == 0, r.err.constData());
    QFile q(rounds);
    QVERIFY(q.open(QIODevice::ReadOnly));
    QCOMPARE(q.read(8), QByteArray("\x89PNG\r\n\x1a\n", 8));
}

// The window and qflame-gui load Graphviz when they first lay a call graph out (model/graph/GraphvizOnDemand.cpp):
// where it cannot be loaded, a picture of the graph is one line and exit 2, and the graph's text (no layout) and
// every other picture come out as before.
void tst_CliFormats::graphWithoutGraphviz()
{
    // Not among their needed libraries: loaded at the first layout, through the calls of GraphvizOnDemand.cpp.
    const QString folder = QFileInfo(QStringLiteral(QFLAME_BINARY)).absolutePath();
    const QStringList programs = {folder + QStringLiteral("/libqflame-window.so"), folder + QStringLiteral("/qflame-gui")};
    for (const QString &program : programs) {
        QProcess readelf;
        readelf.start(QStringLiteral("readelf"), {QStringLiteral("-d"), program});
        if (!readelf.waitForStarted())
            QSKIP("readelf (binutils) is not installed");
        QVERIFY(readelf.waitForFinished());
        const QByteArray dynamic = readelf.readAllStandardOutput();
        QVERIFY2(dynamic.contains("[libQt6Widgets.so.6]"), dynamic.constData());   // the listing is the window's
        QVERIFY2(!dynamic.contains("[libgvc.so") && !dynamic.contains("[libcgraph.so"), dynamic.constData());
    }
    const QString base = QStringLiteral(QFLAME_TEST_DATA "/gen__baseline.cpu.pb.gz");
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("g.png"));
    const qflame::test::RunSetup withoutGraphviz{
        {},
        {},
        {{QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen")},
         {QStringLiteral("LD_PRELOAD"), QStringLiteral(QFLAME_REFUSE_DLOPEN_PRELOAD)},
         {QStringLiteral("QFLAME_TEST_REFUSE_DLOPEN"), QStringLiteral("libgvc")}}};
    Run r = runQflameWith({QStringLiteral("graph"), base, QStringLiteral("--png"), png}, withoutGraphviz);
    QCOMPARE(r.code, 2);
    QCOMPARE(r.out, QByteArray());
    QCOMPARE(r.err, QByteArray("qflame: cannot load Graphviz, the call graph's layout library (libgvc.so.6: cannot "
                               "open shared object file: No such file or directory)\n"));
    QVERIFY(!QFile::exists(png));
    r = runQflameWith({QStringLiteral("graph"), base, QStringLiteral("--dot"), QStringLiteral("-")}, withoutGraphviz);
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.startsWith("digraph \"qflame\" {\n"), r.out.left(200).constData());
    QVERIFY(r.out.contains("checksumBlock"));
    const QString flame = dir.filePath(QStringLiteral("f.png"));
    const QString next = QStringLiteral(QFLAME_TEST_DATA "/gen__optimized.cpu.pb.gz");
    r = runQflameWith({QStringLiteral("diff"), base, next, QStringLiteral("--png"), flame}, withoutGraphviz);
    QVERIFY2(r.code == 0, r.err.constData());
    QFile f(flame);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.read(8), QByteArray("\x89PNG\r\n\x1a\n", 8));
}

QTEST_GUILESS_MAIN(tst_CliFormats)
#include "tst_cliformats.moc"
