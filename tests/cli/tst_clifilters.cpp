// `qflame top` with pprof's filter options, through the real binary: every case of
// tests/data/oracle-filters/cases.tsv printed with --tsv equals go tool pprof -top, and bad options fail as
// usage errors.
#include "OracleFile.h"
#include "SharedCorpus.h"
#include "RunQflame.h"

#include <QFile>
#include <QProcess>
#include <QTest>

#include <algorithm>

using qflame::test::OracleRow;
using qflame::test::Run;
using qflame::test::runQflame;

namespace {

const QString kCaseDir = QStringLiteral(QFLAME_TEST_DATA "/oracle-filters");

// A case's files and pprof options as `qflame top` arguments.
QStringList topArgs(const QStringList &cols)
{
    QStringList args{QStringLiteral("top"), QStringLiteral("--tsv")};
    for (const QString &f : cols[1].split(QLatin1Char(','))) {
        if (f.startsWith(QLatin1String("corpus/")))
            args << qflame::test::sharedPath(f);
        else if (f.startsWith(QLatin1String("data/")))
            args << QStringLiteral(QFLAME_TEST_DATA "/") + f.mid(5);
        else
            args << kCaseDir + QLatin1Char('/') + f;
    }
    for (const QString &o : cols.mid(2)) {
        if (o == QLatin1String("-lines") || o == QLatin1String("-addresses"))
            args << QStringLiteral("--granularity=") + o.mid(1);
        else if (o.startsWith(QLatin1String("-sample_index=")))
            args << QStringLiteral("--sample=") + o.section(QLatin1Char('='), 1);
        else if (o.startsWith(QLatin1String("--")))
            args << o;
        else   // -focus=RE -> --focus RE: the value as its own argument, as a shell user would pass it
            args << QLatin1Char('-') + o.section(QLatin1Char('='), 0, 0) << o.section(QLatin1Char('='), 1);
    }
    return args;
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

}   // namespace

class tst_CliFilters : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void topEqualsGoToolPprof_data();
    void topEqualsGoToolPprof();
    void equalsFormWorksToo();
    void tableShowsTheFilteredTotal();
    void badOptions_data();
    void badOptions();
};

void tst_CliFilters::topEqualsGoToolPprof_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("oracle");
    QFile cases(kCaseDir + QStringLiteral("/cases.tsv"));
    QVERIFY(cases.open(QIODevice::ReadOnly));
    const bool haveCorpus = qflame::test::haveSharedCorpus();
    int count = 0;
    while (!cases.atEnd()) {
        const QString line = QString::fromUtf8(cases.readLine()).chopped(1);
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const QStringList cols = line.split(QLatin1Char('\t'));
        if (!haveCorpus && cols[1].contains(QLatin1String("corpus/")))
            continue;
        QTest::newRow(qPrintable(cols[0])) << topArgs(cols) << kCaseDir + QLatin1Char('/') + cols[0] + QStringLiteral(".top");
        ++count;
    }
    QVERIFY(count >= 40);
}

void tst_CliFilters::topEqualsGoToolPprof()
{
    QFETCH(QStringList, args);
    QFETCH(QString, oracle);
    const Run r = runQflame(args);
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY2(r.err.isEmpty(), r.err.constData());
    std::vector<OracleRow> rows = tsvRows(r.out);
    QFile f(oracle);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QString error;
    std::vector<OracleRow> expected = qflame::test::parseTopOracle(f.readAll(), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    std::sort(rows.begin(), rows.end());
    std::sort(expected.begin(), expected.end());
    QCOMPARE(rows.size(), expected.size());
    QVERIFY(rows == expected);
}

void tst_CliFilters::equalsFormWorksToo()
{
    const QString heap = QStringLiteral(QFLAME_TEST_DATA "/gen__heap.pb.gz");
    const Run spaced = runQflame({QStringLiteral("top"), QStringLiteral("--tsv"), heap, QStringLiteral("--tagfocus"),
                                  QStringLiteral("bytes=1kb:1mb"), QStringLiteral("--hide"), QStringLiteral("^main\\.main$")});
    const Run joined = runQflame({QStringLiteral("top"), QStringLiteral("--tsv"), heap, QStringLiteral("--tagfocus=bytes=1kb:1mb"),
                                  QStringLiteral("--hide=^main\\.main$")});
    QCOMPARE(spaced.code, 0);
    QCOMPARE(joined.out, spaced.out);
    QVERIFY(!spaced.out.contains("main.main"));
    QVERIFY(spaced.out.contains("\tmain.heapWork\n"));
}

void tst_CliFilters::tableShowsTheFilteredTotal()
{
    // Percentages are of what the filters keep: main.checksumBlock is 2.40 s of the 2.40 s focused on.
    const Run r = runQflame({QStringLiteral("top"), QStringLiteral(QFLAME_TEST_DATA "/gen__baseline.cpu.pb.gz"),
                             QStringLiteral("--focus=^main\\.checksumBlock$"), QStringLiteral("--limit=1")});
    QCOMPARE(r.code, 0);
    const QList<QByteArray> lines = r.out.trimmed().split('\n');
    QCOMPARE(lines.size(), 3);
    QVERIFY2(lines[0].startsWith("Type: cpu/nanoseconds  total 2.40 s  ("), lines[0].constData());
    QCOMPARE(lines[2].simplified(), QByteArray("1.92 s 80.00% 80.00% 2.40 s 100% main.checksumBlock"));
}

void tst_CliFilters::badOptions_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("stderrContains");
    QTest::newRow("focus") << QStringList{QStringLiteral("--focus"), QStringLiteral("main(")}
                           << "qflame: parsing focus regexp: missing closing parenthesis at offset 5";
    QTest::newRow("show") << QStringList{QStringLiteral("--show=[x")} << "qflame: parsing show regexp:";
    QTest::newRow("tagignore number") << QStringList{QStringLiteral("--tagignore=bytes=99999999999999999999")}
                                      << "qflame: tagignore: the number 99999999999999999999 is out of range";
    QTest::newRow("missing value") << QStringList{QStringLiteral("--ignore")} << "qflame: option --ignore needs a value";
}

void tst_CliFilters::badOptions()
{
    QFETCH(QStringList, options);
    QFETCH(QString, stderrContains);
    const Run r = runQflame(QStringList{QStringLiteral("top"), QStringLiteral(QFLAME_TEST_DATA "/gen__heap.pb.gz")} + options);
    QCOMPARE(r.code, 1);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(QString::fromUtf8(r.err).contains(stderrContains), r.err.constData());
}

QTEST_GUILESS_MAIN(tst_CliFilters)
#include "tst_clifilters.moc"
