// The headless verbs as a user runs them: the real qflame binary, its output and its exit status.
#include "OracleFile.h"
#include "profile.pb.h"
#include "RunQflame.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstdio>

using qflame::test::OracleRow;
using qflame::test::Run;
using qflame::test::runQflame;

namespace {

QString data(const char *name)
{
    return QStringLiteral(QFLAME_TEST_DATA "/") + QLatin1String(name);
}

std::vector<OracleRow> tsvRows(const QByteArray &out)
{
    std::vector<OracleRow> rows;
    for (const QByteArray &line : out.split('\n')) {
        if (line.isEmpty())
            continue;
        const QList<QByteArray> f = line.split('\t');
        if (f.size() != 3)
            return {};
        rows.push_back({f[0].toLongLong(), f[1].toLongLong(), f[2].toStdString()});
    }
    return rows;
}

std::vector<OracleRow> oracle(const QString &file)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QString error;
    return qflame::test::parseTopOracle(f.readAll(), &error);
}

}   // namespace

class tst_Cli : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void topTsvEqualsGoToolPprof_data();
    void topTsvEqualsGoToolPprof();
    void topReadsStdin();
    void topMergesFiles();
    void topTable();
    void topTableOfManyRows();
    void topEscapesNames();
    void info();
    void topJsonEqualsTsv_data();
    void topJsonEqualsTsv();
    void infoJson();
    void jsonIntegersStayExact();
    void diffPictures();
    void exitStatus_data();
    void exitStatus();
    void outputThatCannotBeWritten_data();
    void outputThatCannotBeWritten();
    void headlessProgramLeavesTheGuiToQflameGui();
    void otherVerbsRunInTheModuleOrInQflameGui();
    void gzipWithoutIsal();
    void phasesTracedOnRequest_data();
    void phasesTracedOnRequest();
};

void tst_Cli::topTsvEqualsGoToolPprof_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("oracle");
    QTest::newRow("default type") << QStringList{data("gen__baseline.cpu.pb.gz")}
                                  << data("oracle/gen__baseline.cpu.pb.gz.cpu.topall");
    QTest::newRow("by name") << QStringList{data("gen__heap.pb.gz"), QStringLiteral("--sample"), QStringLiteral("alloc_space")}
                             << data("oracle/gen__heap.pb.gz.alloc_space.topall");
    QTest::newRow("by index") << QStringList{data("gen__heap.pb.gz"), QStringLiteral("--sample=2")}
                              << data("oracle/gen__heap.pb.gz.inuse_objects.topall");
    QTest::newRow("zstd") << QStringList{data("gen__baseline.cpu.pb.zst"), QStringLiteral("--sample"), QStringLiteral("samples/count")}
                          << data("oracle/gen__baseline.cpu.pb.zst.samples.topall");
    QTest::newRow("lines") << QStringList{data("pprof__sample.cpu"), QStringLiteral("--granularity"), QStringLiteral("lines")}
                           << data("oracle/pprof__sample.cpu.cpu.lines.topall");
    QTest::newRow("addresses") << QStringList{data("parca__normal-cpu.stripped.pprof"), QStringLiteral("--granularity=addresses")}
                               << data("oracle/parca__normal-cpu.stripped.pprof.cpu.addresses.topall");
}

void tst_Cli::topTsvEqualsGoToolPprof()
{
    QFETCH(QStringList, args);
    QFETCH(QString, oracle);
    const Run r = runQflame(QStringList{QStringLiteral("top"), QStringLiteral("--tsv")} + args);
    QCOMPARE(r.code, 0);
    QVERIFY(r.err.isEmpty());
    std::vector<OracleRow> rows = tsvRows(r.out);
    QVERIFY(!rows.empty());
    // Sorted by flat descending, then cum descending, then name.
    for (size_t i = 1; i < rows.size(); ++i) {
        const OracleRow &a = rows[i - 1], &b = rows[i];
        QVERIFY(a.flat > b.flat || (a.flat == b.flat && (a.cum > b.cum || (a.cum == b.cum && a.name <= b.name))));
    }
    std::vector<OracleRow> expected = ::oracle(oracle);
    QVERIFY(!expected.empty());
    std::sort(rows.begin(), rows.end());
    std::sort(expected.begin(), expected.end());
    QVERIFY(rows == expected);
}

void tst_Cli::topReadsStdin()
{
    QFile f(data("gen__baseline.cpu.pb.zst"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const Run fromStdin = runQflame({QStringLiteral("top"), QStringLiteral("--tsv"), QStringLiteral("-")}, f.readAll());
    const Run fromFile = runQflame({QStringLiteral("top"), QStringLiteral("--tsv"), data("gen__baseline.cpu.pb.gz")});
    QCOMPARE(fromStdin.code, 0);
    QCOMPARE(fromStdin.out, fromFile.out);
}

void tst_Cli::topMergesFiles()
{
    const Run r = runQflame({QStringLiteral("top"), QStringLiteral("--tsv"), data("gen__baseline.cpu.pb.gz"),
                          data("gen__optimized.cpu.pb.gz")});
    QCOMPARE(r.code, 0);
    int64_t flatSum = 0;
    for (const OracleRow &row : tsvRows(r.out))
        flatSum += row.flat;
    QCOMPARE(flatSum, int64_t(9760000000) + int64_t(9660000000));   // both oracles' "Total samples"
    const std::vector<OracleRow> rows = tsvRows(r.out);
    QCOMPARE(rows.front().name, std::string("main.checksumBlock"));
    QCOMPARE(rows.front().flat, int64_t(1920000000) + int64_t(1150000000));
}

void tst_Cli::topTable()
{
    const Run r = runQflame({QStringLiteral("top"), data("gen__baseline.cpu.pb.gz"), QStringLiteral("--limit"), QStringLiteral("2")});
    QCOMPARE(r.code, 0);
    const QList<QByteArray> lines = r.out.trimmed().split('\n');
    QCOMPARE(lines.size(), 4);
    QCOMPARE(lines[0], QByteArray("Type: cpu/nanoseconds  total 9.76 s  (187 functions, showing 2)"));
    QCOMPARE(lines[2].simplified(), QByteArray("1.92 s 19.67% 19.67% 2.40 s 24.59% main.checksumBlock"));
    QCOMPARE(lines[3].simplified(), QByteArray("1.13 s 11.58% 31.25% 1.13 s 11.58% runtime.asyncPreempt"));
}

void tst_Cli::topTableOfManyRows()
{
    // A table of thousands of rows, written in pieces: every row there once, in the order of --tsv, with the
    // running sum% exact to the last row.
    QByteArray folded;
    for (int i = 0; i < 6000; ++i)
        folded += "main;pkg.f" + QByteArray::number(i) + ' ' + QByteArray::number(1 + i % 9) + '\n';
    const Run text = runQflame({QStringLiteral("top"), QStringLiteral("-")}, folded);
    const Run tsv = runQflame({QStringLiteral("top"), QStringLiteral("--tsv"), QStringLiteral("-")}, folded);
    QCOMPARE(text.code, 0);
    QCOMPARE(tsv.code, 0);
    const std::vector<OracleRow> rows = tsvRows(tsv.out);
    QCOMPARE(rows.size(), size_t(6001));   // and main, with cum only
    const QList<QByteArray> lines = text.out.split('\n');
    QCOMPARE(lines.size(), 2 + 6001 + 1);   // the header lines, the rows, the empty rest after the last newline
    QCOMPARE(lines[0], QByteArray("Type: samples/count  total 30.0 k  (6001 functions)"));
    const double total = 29991;   // 666 rounds of 1 + ... + 9, then 1 + ... + 6
    double sum = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
        const QList<QByteArray> f = lines[int(i) + 2].simplified().split(' ');
        QVERIFY(f.size() >= 6);   // a value with a suffix ("29.99 k") takes two
        QCOMPARE(f.back().toStdString(), rows[i].name);
        QCOMPARE(f[0].toLongLong(), rows[i].flat);
        sum += double(rows[i].flat);
        const double percent = 100.0 * sum / total;
        char expected[32];   // printf rounds the binary value exactly, as the table's formatting does
        std::snprintf(expected, sizeof expected, "%.2f%%", percent);
        QCOMPARE(f[2], std::fabs(percent - 100.0) < 0.005 ? QByteArray("100%") : QByteArray(expected));
    }
    QCOMPARE(sum, total);
}

void tst_Cli::topEscapesNames()
{
    // Names with tabs, newlines, carriage returns and backslashes (as C++ and Java symbolizers can produce)
    // stay one field on one line: escaped as \t, \n, \r and \\, wherever they stand (the printer looks
    // 8 bytes at a time, so the places straddle those steps).
    const std::vector<std::string> names = {
        "a\tb", "line1\nline2", "back\\slash", "cr\r", "12345678\t9", "1234567\\", "\n",
        "plain.function.name.longer.than.eight", "\xc3\xa9\t\xc3\xbc", "0123456789abcdef\\\\0123456789\r\n"};
    perftools::profiles::Profile p;
    for (const char *s : {"", "samples", "count"})
        p.add_string_table(s);
    p.add_sample_type()->set_type(1), p.mutable_sample_type(0)->set_unit(2);
    for (size_t i = 0; i < names.size(); ++i) {
        p.add_string_table(names[i]);
        auto *f = p.add_function();
        f->set_id(i + 1), f->set_name(int64_t(p.string_table_size() - 1));
        auto *l = p.add_location();
        l->set_id(i + 1), l->add_line()->set_function_id(i + 1);
        auto *s = p.add_sample();
        s->add_location_id(i + 1), s->add_value(int64_t(100 - i));   // in this order in the table
    }
    auto escaped = [](const std::string &name) {
        std::string out;
        for (char c : name)
            out += c == '\t' ? "\\t" : c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\\' ? "\\\\" : std::string(1, c);
        return out;
    };
    const QByteArray bytes = QByteArray::fromStdString(p.SerializeAsString());
    const Run tsv = runQflame({QStringLiteral("top"), QStringLiteral("--tsv"), QStringLiteral("-")}, bytes);
    const Run text = runQflame({QStringLiteral("top"), QStringLiteral("-")}, bytes);
    QCOMPARE(tsv.code, 0);
    QCOMPARE(text.code, 0);
    const QList<QByteArray> tsvLines = tsv.out.split('\n'), textLines = text.out.split('\n');
    QCOMPARE(tsvLines.size(), int(names.size()) + 1);
    QCOMPARE(textLines.size(), 2 + int(names.size()) + 1);
    for (size_t i = 0; i < names.size(); ++i) {
        const QByteArray want = QByteArray::fromStdString(escaped(names[i]));
        QCOMPARE(tsvLines[int(i)], QByteArray::number(100 - int(i)) + '\t' + QByteArray::number(100 - int(i)) + '\t' + want);
        QVERIFY2(textLines[int(i) + 2].endsWith("  " + want), textLines[int(i) + 2].constData());
    }
}

void tst_Cli::info()
{
    const Run r = runQflame({QStringLiteral("info"), data("gen__heap.pb.gz")});
    QCOMPARE(r.code, 0);
    const QString out = QString::fromUtf8(r.out);
    QVERIFY2(out.contains(QLatin1String("  1  alloc_space/bytes  total 62869263 (60.0 MiB)\n")), qPrintable(out));
    QVERIFY(out.contains(QLatin1String("  3  inuse_space/bytes  [default]  total 21286415 (20.3 MiB)\n")));
    QVERIFY(out.contains(QLatin1String("\nSamples: 35\n")));
    QVERIFY(out.contains(QLatin1String("\nLocations: 40\n")));
    QVERIFY(out.contains(QLatin1String("\nFunctions: 30\n")));
    QVERIFY(out.contains(QLatin1String("\nMappings: 3\n")));
    QVERIFY(out.contains(QLatin1String("\nPeriod: 4096 space/bytes\n")));
    const Run cpu = runQflame({QStringLiteral("info"), data("gen__baseline.cpu.pb.gz")});
    QVERIFY(cpu.out.contains("\nDuration: 10111935549 ns (10.1 s)\n"));
    QVERIFY(cpu.out.contains("\nTime: 2026-11-29T20:18:23.205Z\n"));
    QVERIFY(cpu.out.contains("\nPeriod: 10000000 cpu/nanoseconds\n"));
}

// `top --json` (docs/json.md) parses, and its rows are the --tsv rows: the same numbers, names and order.
void tst_Cli::topJsonEqualsTsv_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::newRow("heap, default type") << QStringList{data("gen__heap.pb.gz")};
    QTest::newRow("cpu, lines, limit 7") << QStringList{data("gen__baseline.cpu.pb.gz"), "--granularity", "lines",
                                                         "--limit", "7"};
    QTest::newRow("inline frames") << QStringList{data("ddgo__pprof.lines.pb.gz"), "--sample", "cpu"};
}

void tst_Cli::topJsonEqualsTsv()
{
    QFETCH(QStringList, args);
    const Run tsv = runQflame(QStringList{"top"} << args << "--tsv");
    const Run json = runQflame(QStringList{"top"} << args << "--json");
    QCOMPARE(json.code, 0);
    QVERIFY2(json.err.isEmpty(), json.err.constData());
    QJsonParseError error;
    const QJsonObject doc = QJsonDocument::fromJson(json.out, &error).object();
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    QCOMPARE(doc.value("report").toString(), QStringLiteral("top"));
    QCOMPARE(doc.value("version").toInt(), 1);
    const QJsonArray rows = doc.value("rows").toArray();
    const QList<QByteArray> lines = tsv.out.split('\n');
    QCOMPARE(qsizetype(rows.size()), lines.size() - 1);   // the TSV ends with a newline
    int64_t flatSum = 0;
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const QJsonObject row = rows[i].toObject();
        const QString inlined = row.value("inline").toString();
        const QString suffix = inlined == "none" ? QString() : QStringLiteral(" (%1)").arg(inlined);
        const QByteArray expected = QByteArray::number(row.value("flat").toInteger()) + '\t' +
                                    QByteArray::number(row.value("cum").toInteger()) + '\t' +
                                    (row.value("name").toString() + suffix).toUtf8();
        QCOMPARE(expected, lines[i]);
        flatSum += row.value("flat").toInteger();
    }
    if (!args.contains("--limit")) {   // every row: the flats add up to the total
        QCOMPARE(flatSum, doc.value("total").toInteger());
        QCOMPARE(doc.value("functions").toInteger(), qint64(rows.size()));
    }
}

// `info --json`: the numbers `info` prints for people, by field.
void tst_Cli::infoJson()
{
    const Run r = runQflame({QStringLiteral("info"), data("gen__heap.pb.gz"), QStringLiteral("--json")});
    QCOMPARE(r.code, 0);
    const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(doc.value("report").toString(), QStringLiteral("info"));
    const QJsonArray types = doc.value("sample_types").toArray();
    QCOMPARE(types.size(), 4);
    QCOMPARE(types[1].toObject().value("type").toString(), QStringLiteral("alloc_space"));
    QCOMPARE(types[1].toObject().value("total").toInteger(), qint64(62869263));
    QVERIFY(!types[1].toObject().value("default").toBool());
    QCOMPARE(types[3].toObject().value("total").toInteger(), qint64(21286415));
    QVERIFY(types[3].toObject().value("default").toBool());
    QCOMPARE(doc.value("samples").toInteger(), qint64(35));
    QCOMPARE(doc.value("locations").toInteger(), qint64(40));
    QCOMPARE(doc.value("functions").toInteger(), qint64(30));
    QCOMPARE(doc.value("mappings").toInteger(), qint64(3));
    QCOMPARE(doc.value("period").toInteger(), qint64(4096));
    QCOMPARE(doc.value("period_type").toObject().value("type").toString(), QStringLiteral("space"));
    const Run cpu = runQflame({QStringLiteral("info"), data("gen__baseline.cpu.pb.gz"), QStringLiteral("--json")});
    const QJsonObject c = QJsonDocument::fromJson(cpu.out).object();
    QCOMPARE(c.value("duration_nanos").toInteger(), qint64(10111935549));
    QVERIFY(c.value("drop_frames").isNull());
}

// Values past 2^53, which a JSON reader would round as doubles, are strings of their exact digits; names that are
// not UTF-8 still make a valid document.
void tst_Cli::jsonIntegersStayExact()
{
    perftools::profiles::Profile p;
    for (const char *s : {"", "samples", "count", "big", "small", "bad\xff\xfename"})
        p.add_string_table(s);
    p.add_sample_type()->set_type(1), p.mutable_sample_type(0)->set_unit(2);
    const int64_t big = (int64_t(1) << 53) + 1, small = 9007199254740992;   // 2^53 + 1 and 2^53
    for (int i = 0; i < 3; ++i) {
        auto *f = p.add_function();
        f->set_id(i + 1), f->set_name(3 + i);
        auto *l = p.add_location();
        l->set_id(i + 1), l->add_line()->set_function_id(i + 1);
        auto *sample = p.add_sample();
        sample->add_location_id(i + 1), sample->add_value(i == 0 ? big : i == 1 ? small : 1);
    }
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("big.pb"));
    QFile out(file);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(QByteArray::fromStdString(p.SerializeAsString()));
    out.close();
    const Run r = runQflame({QStringLiteral("top"), file, QStringLiteral("--json")});
    QCOMPARE(r.code, 0);
    QJsonParseError error;
    const QJsonObject doc = QJsonDocument::fromJson(r.out, &error).object();
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    const QJsonArray rows = doc.value("rows").toArray();
    QCOMPARE(rows[0].toObject().value("flat").toString(), QStringLiteral("9007199254740993"));
    QVERIFY(rows[1].toObject().value("flat").isDouble());
    QCOMPARE(rows[1].toObject().value("flat").toInteger(), qint64(9007199254740992));
    QCOMPARE(rows[2].toObject().value("name").toString(), QString::fromUtf8("bad\xef\xbf\xbd\xef\xbf\xbdname"));
    QCOMPARE(doc.value("total").toString(), QStringLiteral("18014398509481986"));
}

void tst_Cli::diffPictures()
{
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("diff.png")), svg = dir.filePath(QStringLiteral("diff.svg"));
    const Run r = runQflame({QStringLiteral("diff"), data("gen__baseline.cpu.pb.gz"), data("gen__optimized.cpu.pb.gz"),
                             QStringLiteral("--png"), png, QStringLiteral("--svg=") + svg, QStringLiteral("--tsv")});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.err.isEmpty(), r.err.constData());
    const QImage img(png);
    QCOMPARE(img.width(), 1600);
    // The baseline's deepest stack is 26 frames, the optimized one's 25: the union has 27 rows with the root.
    QCOMPARE(img.height() % 27, 0);
    // main.burn.func1 (depth 5) -> main.ingestPath -> main.checksumBlock got faster: their left part is green.
    const int row = img.height() / 27;
    const QColor c = img.pixelColor(300, img.height() - 5 * row - row / 2);   // right of the label
    QVERIFY2(c.green() > c.red() + 60, qPrintable(c.name()));
    QFile f(svg);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll();
    QVERIFY(text.contains("<svg"));
    QVERIFY(text.contains("main.checksumBlock"));
    const Run bad = runQflame({QStringLiteral("diff"), data("gen__baseline.cpu.pb.gz"), data("gen__optimized.cpu.pb.gz"),
                               QStringLiteral("--png"), QStringLiteral("/nonexistent/dir/x.png")});
    QCOMPARE(bad.code, 2);
    QCOMPARE(bad.err, QByteArray("qflame: /nonexistent/dir/x.png: cannot write the PNG file\n"));
}

void tst_Cli::exitStatus_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("stderrContains");
    const QString baseline = data("gen__baseline.cpu.pb.gz");
    QTest::newRow("version") << QStringList{QStringLiteral("--version")} << 0 << QString();
    QTest::newRow("help") << QStringList{QStringLiteral("--help")} << 0 << QString();
    QTest::newRow("missing file") << QStringList{QStringLiteral("top"), QStringLiteral("/nonexistent/x.pb.gz")} << 2
                                  << QStringLiteral("/nonexistent/x.pb.gz: cannot open");
    QTest::newRow("not a profile") << QStringList{QStringLiteral("info"), data("MANIFEST.tsv")} << 2
                                   << QStringLiteral("text, but none of the text formats (tried legacy pprof, perf script, folded stacks)");
    QTest::newRow("unknown option") << QStringList{QStringLiteral("top"), QStringLiteral("--frobnicate"), baseline} << 1
                                    << QStringLiteral("unknown option --frobnicate");
    QTest::newRow("unknown sample") << QStringList{QStringLiteral("top"), baseline, QStringLiteral("--sample"), QStringLiteral("wall")}
                                    << 1 << QStringLiteral("no sample type 'wall'");
    QTest::newRow("bad limit") << QStringList{QStringLiteral("top"), baseline, QStringLiteral("--limit"), QStringLiteral("ten")} << 1
                               << QStringLiteral("--limit takes a whole number");
    QTest::newRow("bad granularity") << QStringList{QStringLiteral("top"), baseline, QStringLiteral("--granularity"), QStringLiteral("files")}
                                     << 1 << QStringLiteral("--granularity must be");
    QTest::newRow("no file") << QStringList{QStringLiteral("info")} << 1 << QStringLiteral("info takes exactly one FILE");
    QTest::newRow("size cap") << QStringList{QStringLiteral("top"), baseline, QStringLiteral("--max-size"), QStringLiteral("0")} << 1
                              << QStringLiteral("--max-size takes a size in MiB");
}

void tst_Cli::exitStatus()
{
    QFETCH(QStringList, args);
    QFETCH(int, code);
    QFETCH(QString, stderrContains);
    const Run r = runQflame(args);
    QCOMPARE(r.code, code);
    if (code == 0) {
        QVERIFY(!r.out.isEmpty());
        return;
    }
    const QString err = QString::fromUtf8(r.err);
    QVERIFY2(err.contains(stderrContains), qPrintable(err));
    if (code == 2)
        QCOMPARE(err.count(QLatin1Char('\n')), 1);   // one line that says what is wrong
}

void tst_Cli::outputThatCannotBeWritten_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("stderrLine");
    const QString baseline = data("gen__baseline.cpu.pb.gz");
    const QString full = QStringLiteral("qflame: cannot write the output: No space left on device\n");
    QTest::newRow("top") << QStringList{QStringLiteral("top"), baseline} << full;
    QTest::newRow("info") << QStringList{QStringLiteral("info"), baseline} << full;
    QTest::newRow("diff") << QStringList{QStringLiteral("diff"), baseline, baseline} << full;
    QTest::newRow("convert") << QStringList{QStringLiteral("convert"), baseline, QStringLiteral("--to"), QStringLiteral("folded")}
                             << QStringLiteral("qflame: <stdout>: cannot write\n");
    // A verb that draws runs in qflame-gui (a GUI application): the same end.
    QTest::newRow("diff --png") << QStringList{QStringLiteral("diff"), baseline, baseline, QStringLiteral("--png"),
                                               QDir::temp().filePath(QStringLiteral("qflame-tst-cli-full.png"))}
                                << full;
}

void tst_Cli::outputThatCannotBeWritten()
{
    // The verbs end the process without tearing it down; output lost on the way must still fail the command.
    QFETCH(QStringList, args);
    QFETCH(QString, stderrLine);
    if (!QFile::exists(QStringLiteral("/dev/full")))
        QSKIP("no /dev/full here");
    QProcess p;
    p.setStandardOutputFile(QStringLiteral("/dev/full"));
    p.start(QStringLiteral(QFLAME_BINARY), args);
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QFile::remove(QDir::temp().filePath(QStringLiteral("qflame-tst-cli-full.png")));
    QCOMPARE(p.exitCode(), 2);
    QCOMPARE(QString::fromUtf8(p.readAllStandardError()), stderrLine);
}

void tst_Cli::headlessProgramLeavesTheGuiToQflameGui()
{
    // `qflame` links no Qt library at all: that is what keeps a `qflame top` from loading them (issue #31; Qt Core
    // and what it pulls in cost 7-9 ms of every start). Its other verbs are libqflame-cli.so's, on QtCore.
    QProcess readelf;
    readelf.start(QStringLiteral("readelf"), {QStringLiteral("-d"), QStringLiteral(QFLAME_BINARY)});
    if (!readelf.waitForStarted())
        QSKIP("readelf (binutils) is not installed");
    QVERIFY(readelf.waitForFinished());
    const QByteArray dynamic = readelf.readAllStandardOutput();
    QVERIFY2(dynamic.contains("[libc.so.6]"), dynamic.constData());   // the listing is the program's
    for (const char *qt : {"libQt6", "keychain", "libicu", "libglib"})
        QVERIFY2(!dynamic.contains(qt), dynamic.constData());
    // zlib, zstd and PCRE2 inside it where the build links them so (QFLAME_STATIC_INPUT: 0.4-0.6 ms of a `qflame
    // top` on a 14 KB profile), shared otherwise. ISA-L is loaded when it first inflates gzip, not at the start (0.3
    // ms of the same run): the `top` of a gzip profile below runs through it.
    for (const char *input : {"[libz.so", "[libzstd.so", "[libpcre2-8.so"})
        QVERIFY2(dynamic.contains(input) != bool(QFLAME_STATIC_INPUT), dynamic.constData());
    QVERIFY2(!dynamic.contains("[libisal.so"), dynamic.constData());
    // No library search path of its own: the one CMake used to leave there (":::", empty entries) sent the
    // loader to the working directory first for every library.
    QVERIFY2(!dynamic.contains("RUNPATH") && !dynamic.contains("RPATH"), dynamic.constData());

    // The window is qflame-gui's, started from beside `qflame`; without it, a clear error and status 127.
    QTemporaryDir dir;
    const QString alone = dir.filePath(QStringLiteral("qflame"));
    QVERIFY(QFile::copy(QStringLiteral(QFLAME_BINARY), alone));
    QProcess p;
    p.start(alone, {data("gen__baseline.cpu.pb.gz")});
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitCode(), 127);
    const QByteArray missing = "qflame: cannot start " + dir.filePath(QStringLiteral("qflame-gui")).toUtf8() +
                               " (the window, pictures and servers need it): No such file or directory\n";
    QCOMPARE(p.readAllStandardError(), missing);
    // The server verbs are qflame-gui's too (qflame links no QtNetwork).
    p.start(alone, {QStringLiteral("merge"), QStringLiteral("--url"), QStringLiteral("http://127.0.0.1:9")});
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitCode(), 127);
    QCOMPARE(p.readAllStandardError(), missing);
    // Headless verbs on files need nothing beside it.
    p.start(alone, {QStringLiteral("top"), QStringLiteral("--tsv"), QStringLiteral("--limit"), QStringLiteral("1"),
                    data("gen__baseline.cpu.pb.gz")});
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitCode(), 0);
    QCOMPARE(p.readAllStandardOutput(), QByteArray("1920000000\t2400000000\tmain.checksumBlock\n"));
    // The verbs on QtCore are libqflame-cli.so's: without it beside, qflame-gui is asked (missing here too).
    p.start(alone, {QStringLiteral("diff"), data("gen__baseline.cpu.pb.gz"), data("gen__baseline.cpu.pb.gz")});
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitCode(), 127);
    QCOMPARE(p.readAllStandardError(), missing);
}

void tst_Cli::otherVerbsRunInTheModuleOrInQflameGui()
{
    // The same verb on QtCore two ways: in libqflame-cli.so (beside `qflame` in the build tree), and in qflame-gui
    // when there is no module (QFLAME_CLI_MODULE empty); and a verb `qflame` runs itself, which needs neither.
    const QStringList diff = {QStringLiteral("diff"), QStringLiteral("--tsv"), data("gen__baseline.cpu.pb.gz"),
                              data("gen__optimized.cpu.pb.gz")};
    const QString trace = QStringLiteral("QFLAME_TRACE_PHASES"), module = QStringLiteral("QFLAME_CLI_MODULE");
    const Run inModule = qflame::test::runQflameWith(diff, {{}, {}, {{trace, QStringLiteral("1")}}});
    QCOMPARE(inModule.code, 0);
    QVERIFY(inModule.out.count('\n') > 10);
    QVERIFY2(inModule.err.contains("cli module starts") && !inModule.err.contains("qflame-gui starts"),
             inModule.err.constData());
    const Run inGui = qflame::test::runQflameWith(diff, {{}, {}, {{trace, QStringLiteral("1")}, {module, QString()}}});
    QCOMPARE(inGui.code, 0);
    QCOMPARE(inGui.out, inModule.out);
    QVERIFY2(inGui.err.contains("qflame-gui starts") && !inGui.err.contains("cli module starts"), inGui.err.constData());
    // `top` runs in `qflame` itself, even where the module cannot be found.
    const Run top = qflame::test::runQflameWith({QStringLiteral("top"), QStringLiteral("--tsv"), QStringLiteral("--limit"),
                                   QStringLiteral("1"), data("gen__baseline.cpu.pb.gz")},
                                  {{}, {}, {{trace, QStringLiteral("1")}, {module, QStringLiteral("/nonexistent.so")}}});
    QCOMPARE(top.code, 0);
    QCOMPARE(top.out, QByteArray("1920000000\t2400000000\tmain.checksumBlock\n"));
    QVERIFY2(top.err.contains("qflame starts") && !top.err.contains("module starts"), top.err.constData());
}

void tst_Cli::gzipWithoutIsal()
{
    // `qflame` loads ISA-L when it first inflates gzip: where it cannot be loaded, a gzip profile is one line and
    // exit 2 (as a corrupt one), and every other input reads as before.
    if (!QFLAME_WITH_ISAL)
        QSKIP("built without ISA-L (QFLAME_WITH_ISAL=OFF): zlib inflates gzip");
    const qflame::test::RunSetup withoutIsal{
        {},
        {},
        {{QStringLiteral("LD_PRELOAD"), QStringLiteral(QFLAME_REFUSE_DLOPEN_PRELOAD)},
         {QStringLiteral("QFLAME_TEST_REFUSE_DLOPEN"), QStringLiteral("libisal")}}};
    const QString gz = data("gen__baseline.cpu.pb.gz");
    const Run gzip = qflame::test::runQflameWith({QStringLiteral("top"), gz}, withoutIsal);
    QCOMPARE(gzip.code, 2);
    QCOMPARE(gzip.out, QByteArray());
    QCOMPARE(gzip.err, "qflame: " + gz.toUtf8() +
                           ": gzip: cannot load ISA-L, the gzip library (libisal.so.2: cannot open shared object file: "
                           "No such file or directory)\n");
    const QStringList zstdTop = {QStringLiteral("top"), QStringLiteral("--tsv"), QStringLiteral("--limit"),
                                 QStringLiteral("1"), data("gen__baseline.cpu.pb.zst")};
    const Run zstd = qflame::test::runQflameWith(zstdTop, withoutIsal);
    QCOMPARE(zstd.code, 0);
    QCOMPARE(zstd.out, QByteArray("1920000000\t2400000000\tmain.checksumBlock\n"));
}

void tst_Cli::phasesTracedOnRequest_data()
{
    QTest::addColumn<QString>("flag");
    QTest::newRow("steps") << QStringLiteral("1");
    QTest::newRow("steps with cpu") << QStringLiteral("cpu");
}

void tst_Cli::phasesTracedOnRequest()
{
    // QFLAME_TRACE_PHASES=1 (bench/, issue #31): one line a step on standard error, the table unchanged; nothing
    // on standard error without it. With =cpu each line adds the CPU time of the thread that marks it and of the
    // process, its anonymous memory and its page faults so far: the steps are marked on `top`'s one thread, one
    // after another, so the process's figures only grow, and the thread's, taken first, are never above them.
    QFETCH(QString, flag);
    const bool cpu = flag == QLatin1String("cpu");
    const QStringList args{QStringLiteral("top"), QStringLiteral("--tsv"), data("gen__baseline.cpu.pb.gz")};
    const Run plain = runQflame(args);
    qflame::test::RunSetup setup;
    setup.env.insert(QStringLiteral("QFLAME_TRACE_PHASES"), flag);
    const Run traced = qflame::test::runQflameWith(args, setup);
    QCOMPARE(plain.code, 0);
    QCOMPARE(traced.code, 0);
    QCOMPARE(traced.out, plain.out);
    QVERIFY2(plain.err.isEmpty(), plain.err.constData());
    const QRegularExpression form(
        cpu ? QStringLiteral("^phase (\\d+\\.\\d\\d) (.+) \\| thread (\\d+\\.\\d) process (\\d+\\.\\d) anon (-?\\d+) "
                             "faults (\\d+)$")
            : QStringLiteral("^phase (\\d+\\.\\d\\d) (.+)$"));
    QStringList steps;
    double last = 0, lastProcess = 0;
    long lastFaults = 0;
    for (const QByteArray &line : traced.err.split('\n')) {
        if (line.isEmpty())
            continue;
        const QRegularExpressionMatch m = form.match(QString::fromUtf8(line));
        QVERIFY2(m.hasMatch(), line.constData());
        if (m.captured(2) == QLatin1String("inflated"))   // on the inflating thread, when there is one
            continue;
        QVERIFY2(m.captured(1).toDouble() >= last, line.constData());
        last = m.captured(1).toDouble();
        steps << m.captured(2);
        if (!cpu)
            continue;
        const double thread = m.captured(3).toDouble(), process = m.captured(4).toDouble();
        const long faults = m.captured(6).toLong();
        QVERIFY2(thread <= process + 0.1, line.constData());   // each rounded to a tenth
        QVERIFY2(process >= lastProcess && faults >= lastFaults, line.constData());
        lastProcess = process;
        lastFaults = faults;
    }
    QVERIFY2(!cpu || (lastProcess > 0 && lastFaults > 0), traced.err.constData());
    QCOMPARE(steps, QStringList({QStringLiteral("qflame starts"), QStringLiteral("samples decoded"),
                                 QStringLiteral("profile checked"), QStringLiteral("read"), QStringLiteral("table"),
                                 QStringLiteral("printed")}));
}

QTEST_GUILESS_MAIN(tst_Cli)
#include "tst_cli.moc"
