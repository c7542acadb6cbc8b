// `qflame heatmap` and `--from/--to` through the real binary (issue #35): the heatmap's TSV lines of a hand-made
// perf script counted by hand from its records, `top` of a range, and the errors of a file without times.
#include "TimedFormats.h"
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
    void eventedSpeedscope();
    void wallClockPprof();
    void wallClockPerfScript();

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
    // Two ranges, their union: [0, 0.3 s) holds f 1000 (at 0) and g 3000 (0.2499), [2 s, 3 s) other's g 1000.
    r = run({QStringLiteral("top"), m_perf, QStringLiteral("--tsv"), QStringLiteral("--from"), QStringLiteral("0"),
             QStringLiteral("--to"), QStringLiteral("0.3"), QStringLiteral("--from=2"), QStringLiteral("--to=3")});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out, QByteArray("4000\t4000\tg\n1000\t1000\tf\n0\t5000\tmain\n"));
    // The heatmap of the union: those three records' cells (1 s x 50: 0:0, 0:12, 2:30).
    r = run({QStringLiteral("heatmap"), m_perf, QStringLiteral("--tsv"), QStringLiteral("--sample"),
             QStringLiteral("cpu-clock"), QStringLiteral("--from=0"), QStringLiteral("--to=0.3"),
             QStringLiteral("--from=2"), QStringLiteral("--to=3")});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out, QByteArray("0\t0\t1000\n0\t12\t3000\n2000000000\t30\t1000\n"));
    r = runQflame({QStringLiteral("top"), m_perf, QStringLiteral("--from=0"), QStringLiteral("--from=2"),
                   QStringLiteral("--to=3")});
    QCOMPARE(r.code, 2);
    QCOMPARE(r.err, QByteArray("qflame: " + m_perf.toUtf8() + ": several time ranges need --from and --to in pairs "
                               "(2 --from, 1 --to)\n"));
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
                               "needs (perf script, Chrome .cpuprofile and speedscope files have them, and pprof files "
                               "whose samples have timestamp labels)\n"));
    r = runQflame({QStringLiteral("heatmap"), m_folded});
    QCOMPARE(r.code, 2);
    QCOMPARE(r.err, QByteArray("qflame: " + m_folded.toUtf8() + ": the profile has no sample times, which a heatmap "
                               "needs (perf script, Chrome .cpuprofile and speedscope files have them, and pprof files "
                               "whose samples have timestamp labels)\n"));
    r = runQflame({QStringLiteral("heatmap"), m_perf, QStringLiteral("--rows"), QStringLiteral("0")});
    QCOMPARE(r.code, 1);
    QVERIFY(r.err.startsWith("qflame: --rows takes a whole number from 1 to 100000, not '0'\n"));
    r = runQflame({QStringLiteral("top"), m_perf, QStringLiteral("--from"), QStringLiteral("2026-12-04T11:00:00Z")});
    QCOMPARE(r.code, 2);
    QCOMPARE(r.err, QByteArray("qflame: " + m_perf.toUtf8() + ": '2026-12-04T11:00:00Z' is a clock time, but the "
                               "file's sample times are not (give seconds from the first sample)\n"));
}

void tst_CliTime::eventedSpeedscope()
{
    // The evented profile of TimedFormats.h: each interval's length at its start, 2 ms columns of 1 ms rows.
    const QString file = write(QStringLiteral("worker.speedscope.json"), qflame::test::kEventedSpeedscope);
    Run r = run({QStringLiteral("heatmap"), file, QStringLiteral("--tsv"), QStringLiteral("--column-ms"),
                 QStringLiteral("2"), QStringLiteral("--rows"), QStringLiteral("2")});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out, QByteArray("0\t0\t1000000\n0\t1\t1000000\n2000000\t0\t2000000\n4000000\t0\t2000000\n"
                               "6000000\t0\t1000000\n8000000\t0\t1000000\n"));
    // [1 ms, 5 ms): top equals top of the file the test cut by hand.
    r = run({QStringLiteral("top"), file, QStringLiteral("--tsv"), QStringLiteral("--from"), QStringLiteral("0.001"),
             QStringLiteral("--to"), QStringLiteral("0.005")});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out, QByteArray("3000000\t5000000\ta\n2000000\t2000000\tb\n0\t5000000\tmain\n"));
    const QString cut = write(QStringLiteral("cut.speedscope.json"), qflame::test::kEventedSpeedscopeCut);
    QCOMPARE(run({QStringLiteral("top"), cut, QStringLiteral("--tsv")}).out, r.out);
}

void tst_CliTime::wallClockPprof()
{
    using namespace qflame::test;
    const auto samples = timedPprofSamples(kWallT0, "end_timestamp_ns");
    const QString file = write(QStringLiteral("timed.pb"), QByteArray::fromStdString(timedPprofBytes(samples, kWallT0)));
    // cpu (the last type) per cell: A at 0, B at 0.25 s, C's two halves at 1.5 and 1.6 s, D at 2.1 s.
    Run r = run({QStringLiteral("heatmap"), file, QStringLiteral("--tsv")});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out, QByteArray("0\t0\t10000000\n0\t12\t10000000\n1000000000\t25\t10000000\n"
                               "1000000000\t30\t10000000\n2000000000\t5\t10000000\n"));
    // RFC 3339, in UTC and with an offset: [0.5 s, 2.1 s) holds C alone; top equals top of a file of C alone.
    r = run({QStringLiteral("top"), file, QStringLiteral("--tsv"), QStringLiteral("--from"),
             QStringLiteral("2025-12-04T11:00:01Z"), QStringLiteral("--to"), QStringLiteral("2025-12-04T12:00:02.6+01:00")});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out, QByteArray("20000000\t20000000\tf\n0\t20000000\tmain\n"));
    const QString alone = write(QStringLiteral("c.pb"), QByteArray::fromStdString(timedPprofBytes({samples[2]}, kWallT0)));
    QCOMPARE(run({QStringLiteral("top"), alone, QStringLiteral("--tsv")}).out, r.out);
    // Seconds from the first sample select the same.
    QCOMPARE(run({QStringLiteral("top"), file, QStringLiteral("--tsv"), QStringLiteral("--from"), QStringLiteral("0.5"),
                  QStringLiteral("--to"), QStringLiteral("2.1")}).out, r.out);
    // The same samples timed from boot (perf_data_converter's timestamp_ns): a clock time is refused, clearly.
    const QString boot = write(QStringLiteral("boot.pb"), QByteArray::fromStdString(
                                   timedPprofBytes(timedPprofSamples(5000000000, "timestamp_ns"), kWallT0)));
    r = runQflame({QStringLiteral("top"), boot, QStringLiteral("--from"), QStringLiteral("2025-12-04T11:00:01Z")});
    QCOMPARE(r.code, 2);
    QCOMPARE(r.err, QByteArray("qflame: " + boot.toUtf8() + ": '2025-12-04T11:00:01Z' is a clock time, but the "
                               "file's sample times are not (give seconds from the first sample)\n"));
}

void tst_CliTime::wallClockPerfScript()
{
    // perf record -k CLOCK_REALTIME: 11:00:00.2Z to 11:00:01Z is [0.1999 s, 0.9999 s) from the first record,
    // thread 101's g alone.
    const QString file = write(QStringLiteral("realtime.perf"), qflame::test::kRealtimePerfScript);
    const Run r = run({QStringLiteral("top"), file, QStringLiteral("--tsv"), QStringLiteral("--from"),
                       QStringLiteral("2025-12-04T11:00:00.2Z"), QStringLiteral("--to"), QStringLiteral("2025-12-04T11:00:01Z")});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out, QByteArray("3000\t3000\tg\n0\t3000\tmain\n"));
}

QTEST_GUILESS_MAIN(tst_CliTime)
#include "tst_clitime.moc"
