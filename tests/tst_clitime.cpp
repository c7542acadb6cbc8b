// `qflame heatmap` and `--from/--to` through the real binary (issue #35): the heatmap's TSV lines of a hand-made
// perf script counted by hand from its records, `top` of a range, and the errors of a file without times.
#include "TimedPerfScript.h"
#include "RunQflame.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using qflame::test::Run;
using qflame::test::runQflame;

class tst_CliTime : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void heatmapTsv();
    void heatmapGrid();
    void topOfARange();
    void convertAndDiffOfARange();
    void errors();

private:
    QString write(const QString &name, const QByteArray &bytes);
    QTemporaryDir m_dir;
    QString m_perf, m_folded;
};

namespace {

const auto &kPerf = qflame::test::kTimedPerfScript;

Run run(const QStringList &args)
{
    Run r = runQflame(args);
    if (r.code != 0)
        qWarning("%s", r.err.constData());
    return r;
}

}   // namespace

QString tst_CliTime::write(const QString &name, const QByteArray &bytes)
{
    const QString path = m_dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

void tst_CliTime::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_perf = write(QStringLiteral("prog.perf"), kPerf);
    m_folded = write(QStringLiteral("prog.folded"), "main;f 3\nmain;g 1\n");
}

void tst_CliTime::heatmapTsv()
{
    // cpu-clock (the default type): 1 s columns of 50 rows of 20 ms; 0 s -> row 0, 0.2499 -> 12, 0.5 -> 25,
    // 1.0001 -> column 1 row 0, 2.6 -> column 2 row 30.
    Run r = run({QStringLiteral("heatmap"), m_perf, QStringLiteral("--tsv")});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out, QByteArray("0\t0\t1000\n0\t12\t3000\n0\t25\t1000\n1000000000\t0\t2000\n2000000000\t30\t1000\n"));
    // Counts, 500 ms columns of 5 rows of 100 ms, thread 100/100 alone: 0 -> 0:0, 0.5 -> 500 ms:0, 1.0001 -> 1 s:0.
    r = run({QStringLiteral("heatmap"), m_perf, QStringLiteral("--tsv"), QStringLiteral("--column-ms"),
             QStringLiteral("500"), QStringLiteral("--rows=5"), QStringLiteral("--sample"), QStringLiteral("samples"),
             QStringLiteral("--thread"), QStringLiteral("100/100")});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out, QByteArray("0\t0\t1\n500000000\t0\t1\n1000000000\t0\t1\n"));
    // From 1 s on: the same columns, seconds still counted from the first record.
    r = run({QStringLiteral("heatmap"), m_perf, QStringLiteral("--tsv"), QStringLiteral("--from"), QStringLiteral("1")});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out, QByteArray("1000000000\t0\t2000\n2000000000\t30\t1000\n"));
}

void tst_CliTime::heatmapGrid()
{
    const Run r = run({QStringLiteral("heatmap"), m_perf, QStringLiteral("--rows"), QStringLiteral("2")});
    QCOMPARE(r.code, 0);
    // 3 columns of 2 rows of 500 ms: column 0's first half 1000 + 3000 (at 0 and 0.2499: '@', the most), its
    // second half 1000 (0.5: '-', the third of nine shades), column 1's first half 2000 ('+'), column 2's second
    // half 1000 (2.6).
    QCOMPARE(r.out, QByteArray(m_perf.toUtf8() + ": 3 columns of 1000 ms, 2 rows; cpu-clock/nanoseconds, at most 4000 "
                               "per cell (.:-=+*#%@ from low to high)\nfrom 0.000000 s\n|@+ |\n|- -|\n"));
}

void tst_CliTime::topOfARange()
{
    // [0.2 s, 1 s): g 3000 (thread 101 at 0.2499) and f 1000 (at 0.5).
    Run r = run({QStringLiteral("top"), m_perf, QStringLiteral("--tsv"), QStringLiteral("--from"), QStringLiteral("0.2"),
                 QStringLiteral("--to"), QStringLiteral("1")});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out, QByteArray("3000\t3000\tg\n1000\t1000\tf\n0\t4000\tmain\n"));
    // --to alone: from the first record, f 1000 + 1000, g 3000.
    r = run({QStringLiteral("top"), m_perf, QStringLiteral("--tsv"), QStringLiteral("--to=1")});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out, QByteArray("3000\t3000\tg\n2000\t2000\tf\n0\t5000\tmain\n"));
}

void tst_CliTime::convertAndDiffOfARange()
{
    // convert's own --to names the format; a --to that starts with a digit is the range's end.
    Run r = run({QStringLiteral("convert"), m_perf, QStringLiteral("--to"), QStringLiteral("folded"),
                 QStringLiteral("--from"), QStringLiteral("1"), QStringLiteral("--to"), QStringLiteral("3"),
                 QStringLiteral("--output"), QStringLiteral("-")});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out, QByteArray("main;f 2000\nmain;g 1000\n"));
    // diff of the file against itself, both cut to [1 s, 3 s): nothing changed.
    r = run({QStringLiteral("diff"), m_perf, m_perf, QStringLiteral("--tsv"), QStringLiteral("--from"),
             QStringLiteral("1"), QStringLiteral("--to"), QStringLiteral("3")});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("\tmain\t") || r.out.contains("main"), r.out.constData());
}

void tst_CliTime::errors()
{
    Run r = runQflame({QStringLiteral("top"), m_folded, QStringLiteral("--from"), QStringLiteral("1")});
    QCOMPARE(r.code, 2);
    QCOMPARE(r.err, QByteArray("qflame: " + m_folded.toUtf8() + ": the profile has no sample times, which --from/--to "
                               "needs (perf script and Chrome .cpuprofile files have them)\n"));
    r = runQflame({QStringLiteral("heatmap"), m_folded});
    QCOMPARE(r.code, 2);
    QCOMPARE(r.err, QByteArray("qflame: " + m_folded.toUtf8() + ": the profile has no sample times, which a heatmap "
                               "needs (perf script and Chrome .cpuprofile files have them)\n"));
    r = runQflame({QStringLiteral("heatmap"), m_perf, QStringLiteral("--rows"), QStringLiteral("0")});
    QCOMPARE(r.code, 1);
    QVERIFY(r.err.startsWith("qflame: --rows takes a whole number from 1 to 100000, not '0'\n"));
    r = runQflame({QStringLiteral("top"), m_perf, QStringLiteral("--from"), QStringLiteral("2026-12-04T11:00:00Z")});
    QCOMPARE(r.code, 2);
    QCOMPARE(r.err, QByteArray("qflame: " + m_perf.toUtf8() + ": '2026-12-04T11:00:00Z' is a clock time, but the "
                               "file's sample times are not (give seconds from the first sample)\n"));
}

QTEST_GUILESS_MAIN(tst_CliTime)
#include "tst_clitime.moc"
