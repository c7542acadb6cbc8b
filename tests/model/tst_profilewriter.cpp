// pprof export: a whole profile written back reads as the same profile and still gives go tool pprof's numbers;
// a call tree written as pprof reads back as the same tree at every granularity; the gzip is real gzip.
#include "export/ProfileWriter.h"
#include "formats/ProfileInput.h"
#include "OracleFile.h"
#include "tree/CallTreeBuilder.h"
#include "tree/FlatTable.h"
#include "TreePaths.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cstring>

using namespace qflame;
using qflame::test::firstDifference;
using qflame::test::OracleRow;
using qflame::test::treePaths;
using qflame::test::TreePaths;

namespace {

const char *const kFiles[] = {"gen__baseline.cpu.pb.gz", "gen__baseline.cpu.pb.zst", "gen__optimized.cpu.pb.gz",
                              "gen__heap.pb.gz", "gen__block.pb.gz", "pprof__sample.cpu",
                              "parca__normal-cpu.stripped.pprof", "parca__node-profile.pb.gz", "ddgo__pprof.lines.pb.gz"};

QString data(const QString &name)
{
    return QStringLiteral(QFLAME_TEST_DATA "/") + name;
}

std::shared_ptr<const CallTree> build(const std::shared_ptr<const Profile> &p, int type, Granularity g)
{
    BuildOptions o;
    o.granularity = g;
    return CallTreeBuilder::build({p}, size_t(type), o);
}

std::vector<OracleRow> rows(const CallTree &tree, bool withInlineMarkers)
{
    const auto table = FlatTable::compute(std::make_shared<CallTree>(tree));
    std::vector<OracleRow> out;
    for (const FlatRow &r : table->rows())
        out.push_back({r.flat, r.cum, withInlineMarkers ? table->displayName(r) : tree.frames().label(r.frame)});
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<OracleRow> oracleRows(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QString error;
    std::vector<OracleRow> out = qflame::test::parseTopOracle(f.readAll(), &error);
    std::sort(out.begin(), out.end());
    return out;
}

}   // namespace

class tst_ProfileWriter : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void wholeProfileReadsBackEqual_data();
    void wholeProfileReadsBackEqual();
    void exportGivesGoToolPprofNumbers_data();
    void exportGivesGoToolPprofNumbers();
    void treeReadsBackEqual_data();
    void treeReadsBackEqual();
    void treeExportOfHandMadeTree();
    void gzipIsRealGzip();
    void goToolPprofReadsTheExport();
};

void tst_ProfileWriter::wholeProfileReadsBackEqual_data()
{
    QTest::addColumn<QString>("file");
    for (const char *f : kFiles)
        QTest::newRow(f) << QString::fromLatin1(f);
}

void tst_ProfileWriter::wholeProfileReadsBackEqual()
{
    QFETCH(QString, file);
    const auto a = readProfileFile(data(file));
    const std::string gz = gzipCompress(encodePprof(*a));
    QCOMPARE(sniffCompression(gz), Compression::Gzip);
    const auto b = readPprof(gz, "export");
    QCOMPARE(b->strings, a->strings);
    QCOMPARE(b->sampleTypes.size(), a->sampleTypes.size());
    QCOMPARE(b->defaultSampleType, a->defaultSampleType);
    QCOMPARE(b->sampleLocations, a->sampleLocations);
    QCOMPARE(b->sampleLocBegin, a->sampleLocBegin);
    QCOMPARE(b->values, a->values);
    QCOMPARE(b->sampleLabelSet, a->sampleLabelSet);
    QCOMPARE(b->labelSetBegin, a->labelSetBegin);
    QCOMPARE(b->labels.size(), a->labels.size());
    for (size_t i = 0; i < a->labels.size(); ++i)
        QVERIFY(b->labels[i].key == a->labels[i].key && b->labels[i].str == a->labels[i].str &&
                b->labels[i].num == a->labels[i].num && b->labels[i].numUnit == a->labels[i].numUnit);
    QCOMPARE(b->locations.size(), a->locations.size());
    for (size_t i = 0; i < a->locations.size(); ++i)
        QVERIFY(b->locations[i].id == a->locations[i].id && b->locations[i].address == a->locations[i].address &&
                b->locations[i].mapping == a->locations[i].mapping && b->locations[i].lineCount == a->locations[i].lineCount);
    QCOMPARE(b->lines.size(), a->lines.size());
    for (size_t i = 0; i < a->lines.size(); ++i)
        QVERIFY(b->lines[i].function == a->lines[i].function && b->lines[i].line == a->lines[i].line);
    QCOMPARE(b->functions.size(), a->functions.size());
    QCOMPARE(b->mappings.size(), a->mappings.size());
    QCOMPARE(b->period, a->period);
    QCOMPARE(b->timeNanos, a->timeNanos);
    QCOMPARE(b->durationNanos, a->durationNanos);
    QCOMPARE(b->dropFrames, a->dropFrames);
    QCOMPARE(b->comments, a->comments);
}

void tst_ProfileWriter::exportGivesGoToolPprofNumbers_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("type");
    QTest::addColumn<int>("granularity");
    QTest::addColumn<QString>("oracle");
    // <file>.<sample type>[.lines|.addresses].topall, as regen-oracle.sh and regen-granularity-oracle.sh name them.
    int count = 0;
    for (const QString &o : QDir(data(QStringLiteral("oracle"))).entryList({QStringLiteral("*.topall")})) {
        QStringList parts = o.chopped(int(strlen(".topall"))).split(QLatin1Char('.'));
        Granularity g = Granularity::Functions;
        if (parseGranularity(parts.last().toStdString(), &g))
            parts.removeLast();
        const QString type = parts.takeLast();
        if (type == QLatin1String("diff_base"))
            continue;
        // example__NAME: the bundled example resources/examples/NAME (its oracle beside the others').
        QString file = parts.join(QLatin1Char('.'));
        if (file.startsWith(QLatin1String("example__")))
            file = QStringLiteral("../../resources/examples/") + file.mid(int(strlen("example__")));
        QTest::newRow(qPrintable(o)) << file << type << int(g) << data(QStringLiteral("oracle/") + o);
        ++count;
    }
    QCOMPARE(count, 41);   // every oracle in tests/data/oracle but the -diff_base ones
}

void tst_ProfileWriter::exportGivesGoToolPprofNumbers()
{
    QFETCH(QString, file);
    QFETCH(QString, type);
    QFETCH(int, granularity);
    QFETCH(QString, oracle);
    const auto exported = readPprof(gzipCompress(encodePprof(*readProfileFile(data(file)))), "export");
    const int t = exported->findSampleType(type.toStdString());
    QVERIFY(t >= 0);
    const auto expected = oracleRows(oracle);
    QVERIFY(!expected.empty());
    QCOMPARE(rows(*build(exported, t, Granularity(granularity)), true), expected);
}

void tst_ProfileWriter::treeReadsBackEqual_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("type");
    QTest::addColumn<int>("granularity");
    for (const char *f : kFiles) {
        const auto p = readProfileFile(data(QLatin1String(f)));
        for (size_t t = 0; t < p->sampleTypes.size(); ++t)
            for (Granularity g : {Granularity::Functions, Granularity::Lines, Granularity::Addresses})
                QTest::addRow("%s %s %s", f, p->typeName(t).c_str(), granularityName(g)) << QString::fromLatin1(f)
                                                                                          << int(t) << int(g);
    }
}

void tst_ProfileWriter::treeReadsBackEqual()
{
    QFETCH(QString, file);
    QFETCH(int, type);
    QFETCH(int, granularity);
    const Granularity g = Granularity(granularity);
    const auto original = build(readProfileFile(data(file)), type, g);
    const auto exported = readPprof(gzipCompress(encodePprof(*original)), "export");
    QCOMPARE(exported->sampleTypes.size(), size_t(1));
    QCOMPARE(exported->typeName(0), original->sampleType().type);
    QCOMPARE(exported->unitName(0), original->sampleType().unit);
    QCOMPARE(exported->durationNanos, original->durationNanos());
    const auto back = build(exported, 0, g);
    const TreePaths e = treePaths(*original), a = treePaths(*back);
    QVERIFY2(e == a, qPrintable(firstDifference(e, a)));
    QCOMPARE(back->size(), original->size());
    // The flat and cum of every function too (inline markers aside: which calls were inlined is not kept).
    QCOMPARE(rows(*back, false), rows(*original, false));
}

void tst_ProfileWriter::treeExportOfHandMadeTree()
{
    const auto p = readProfile("main;a;b 3\nmain;a 2\nmain;c 5\n", "t.folded");
    const auto t = build(p, 0, Granularity::Functions);
    const auto e = readPprof(encodePprof(*t), "export");
    // One sample per node with a self value, one location and function per frame.
    QCOMPARE(e->sampleCount(), size_t(3));
    QCOMPARE(e->locations.size(), size_t(4));
    QCOMPARE(e->functions.size(), size_t(4));
    QCOMPARE(e->total(0), int64_t(10));
    QCOMPARE(e->str(e->comments.at(0)), std::string("qflame: exported from a functions call tree"));
}

void tst_ProfileWriter::gzipIsRealGzip()
{
    const std::string text = "hello hello hello hello hello";
    const std::string gz = gzipCompress(text);
    QCOMPARE(gz.substr(0, 3), std::string("\x1f\x8b\x08", 3));
    QVERIFY(gz.size() < text.size() + 20);
    QCOMPARE(decompress(gz, Compression::Gzip, 1 << 20), text);
    QCOMPARE(decompress(gzipCompress(""), Compression::Gzip, 1 << 20), std::string());
}

void tst_ProfileWriter::goToolPprofReadsTheExport()
{
    // pprof itself, when it is installed (Debian golang-1.19-go), reads the export and prints the oracle's table.
    const QString go = QStringLiteral("/usr/lib/go-1.19/bin/go");
    if (!QFile::exists(go))
        QSKIP("go tool pprof is not installed (apt-get install golang-1.19-go)");
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("export.pb.gz"));
    QFile f(out);
    QVERIFY(f.open(QIODevice::WriteOnly));
    const std::string gz = gzipCompress(encodePprof(*readProfileFile(data(QStringLiteral("gen__heap.pb.gz")))));
    f.write(gz.data(), qint64(gz.size()));
    f.close();
    QProcess p;
    p.start(go, {QStringLiteral("tool"), QStringLiteral("pprof"), QStringLiteral("-top"),
                 QStringLiteral("-nodecount=1000000"), QStringLiteral("-nodefraction=0"),
                 QStringLiteral("-edgefraction=0"), QStringLiteral("-sample_index=1"), QStringLiteral("-unit=B"),
                 QStringLiteral("-symbolize=none"), out});
    QVERIFY(p.waitForFinished(120000));
    QCOMPARE(p.exitCode(), 0);
    QString error;
    std::vector<OracleRow> got = qflame::test::parseTopOracle(p.readAllStandardOutput(), &error);
    std::sort(got.begin(), got.end());
    QCOMPARE(got, oracleRows(data(QStringLiteral("oracle/gen__heap.pb.gz.alloc_space.topall"))));
}

QTEST_GUILESS_MAIN(tst_ProfileWriter)
#include "tst_profilewriter.moc"
