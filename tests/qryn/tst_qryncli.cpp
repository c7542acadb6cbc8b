// `qflame merge` and `qflame top --url` as a user runs them: the real binary against the real qryn of the ctest
// fixture (tests/qryn/qryn-fixture.sh), its output, its files and its exit status (0 ok, 1 usage, 2 failure).
#include "formats/ProfileInput.h"
#include "pgo/PgoEdges.h"
#include "qryn/QrynFixtureEnv.h"
#include "RunQflame.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using qflame::test::Run;
using qflame::test::runQflame;
using qflame::test::runQflameWith;

namespace {

const QString kCpu = QStringLiteral("process_cpu:cpu:nanoseconds:cpu:nanoseconds");
const QString kBase = QStringLiteral("{service_name=\"svc-base\"}");

// flat<TAB>name of the rows with a flat value, pprof's " (inline)" marker dropped (a server cannot know it).
QStringList flatRows(const QByteArray &tsv)
{
    QStringList rows;
    for (const QByteArray &line : tsv.split('\n')) {
        const QList<QByteArray> f = line.split('\t');
        if (f.size() == 3 && f[0] != "0")
            rows << QString::fromUtf8(f[0] + '\t' + f[2]).remove(QLatin1String(" (inline)"));
    }
    rows.sort();
    return rows;
}

}   // namespace

class tst_QrynCli : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void topTsvEqualsLocalTop_data();
    void topTsvEqualsLocalTop();
    void topTable();
    void mergeWritesGzipPprof();
    void mergeRefusesToOverwrite();
    void mergeForPgo();
    void basicAuth();
    void diffTsvEqualsLocalDiff();
    void diffTable_data();
    void diffTable();
    void failures_data();
    void failures();

private:
    QStringList server(const QString &type = kCpu, const QString &query = kBase) const
    {
        return {"--url", m_env.value("QRYN_URL"), "--type", type, "--query", query, "--from", "now-1h", "--to", "now"};
    }

    qflame::test::QrynFixtureEnv m_env, m_auth;
    QTemporaryDir m_tmp;
};

void tst_QrynCli::initTestCase()
{
    m_env = qflame::test::readQrynFixture(QStringLiteral(QFLAME_QRYN_FIXTURE));
    m_auth = qflame::test::readQrynFixture(QStringLiteral(QFLAME_QRYN_AUTH_FIXTURE));
    if (!m_env.skipReason.isEmpty())
        QSKIP(qPrintable(m_env.skipReason));
    QVERIFY2(m_env.error.isEmpty(), qPrintable(m_env.error));
    QVERIFY2(m_auth.error.isEmpty(), qPrintable(m_auth.error));
    QVERIFY(m_tmp.isValid());
}

void tst_QrynCli::topTsvEqualsLocalTop_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<QString>("query");
    QTest::addColumn<QStringList>("files");
    QTest::addColumn<QString>("sample");
    const QString dir = QStringLiteral(QFLAME_QRYN_PROFILES "/");
    QTest::newRow("cpu svc-base") << kCpu << kBase << QStringList{dir + "gen__baseline.cpu.pb.gz"} << "cpu";
    QTest::newRow("samples svc-opt") << "process_cpu:samples:count:cpu:nanoseconds" << "{service_name=\"svc-opt\"}"
                                     << QStringList{dir + "gen__optimized.cpu.pb.gz"} << "samples";
    QTest::newRow("cpu, both") << kCpu << "{}"
                               << QStringList{dir + "gen__baseline.cpu.pb.gz", dir + "gen__optimized.cpu.pb.gz"}
                               << "cpu";
    QTest::newRow("inuse_space") << "memory:inuse_space:bytes:space:bytes" << kBase
                                 << QStringList{dir + "gen__heap.pb.gz"} << "inuse_space";
}

void tst_QrynCli::topTsvEqualsLocalTop()
{
    QFETCH(QString, type);
    QFETCH(QString, query);
    QFETCH(QStringList, files);
    QFETCH(QString, sample);
    const Run remote = runQflame(QStringList{"top"} << server(type, query) << "--tsv");
    QVERIFY2(remote.code == 0, remote.err.constData());
    const Run local = runQflame(QStringList{"top"} << files << "--sample" << sample << "--tsv");
    QVERIFY2(local.code == 0, local.err.constData());
    const QStringList rows = flatRows(remote.out);
    QVERIFY(rows.size() >= 5);
    QCOMPARE(rows, flatRows(local.out));
    // --json holds the --tsv rows' numbers, in their order (the server's names carry no inline marks).
    const Run json = runQflame(QStringList{"top"} << server(type, query) << "--json");
    QVERIFY2(json.code == 0, json.err.constData());
    QByteArray fromJson;
    for (const QJsonValue &r : QJsonDocument::fromJson(json.out).object().value(QLatin1String("rows")).toArray()) {
        QCOMPARE(r[QLatin1String("inline")].toString(), QStringLiteral("none"));
        fromJson += QByteArray::number(qint64(r[QLatin1String("flat")].toDouble())) + '\t' +
                    QByteArray::number(qint64(r[QLatin1String("cum")].toDouble())) + '\t' +
                    r[QLatin1String("name")].toString().toUtf8() + '\n';
    }
    QCOMPARE(fromJson, remote.out);
}

void tst_QrynCli::topTable()
{
    const Run r = runQflame(QStringList{"top"} << server() << "--limit" << "3");
    QVERIFY2(r.code == 0, r.err.constData());
    QCOMPARE(QString::fromUtf8(r.out), QStringLiteral("Type: cpu/nanoseconds  total 9.76 s  (174 functions, showing 3)\n"
                                                      "        flat   flat%    sum%          cum    cum%  name\n"
                                                      "      1.92 s  19.67%  19.67%       2.40 s  24.59%  main.checksumBlock\n"
                                                      "      1.13 s  11.58%  31.25%       1.13 s  11.58%  runtime.asyncPreempt\n"
                                                      "      700 ms   7.17%  38.42%       700 ms   7.17%  cmpbody\n"));
    QVERIFY(r.err.isEmpty());
}

void tst_QrynCli::mergeWritesGzipPprof()
{
    const QString out = m_tmp.filePath("svc-base.pb.gz");
    const Run r = runQflame(QStringList{"merge"} << server() << "--output" << out);
    QVERIFY2(r.code == 0, r.err.constData());
    QCOMPARE(QString::fromUtf8(r.out),
             "Wrote " + out + ": 611 samples, 2 sample types, 38306 bytes of pprof (gzip-compressed)\n");
    // qryn 3.2.39's inflated export is written as served, and said so.
    QCOMPARE(QString::fromUtf8(r.err),
             QStringLiteral("qflame: warning: the merged pprof (SelectMergeProfile) has a cpu/nanoseconds total of "
                            "15870000000 (15.9 s), the flamegraph (SelectMergeStacktraces) 9760000000 (9.76 s) "
                            "(+62.6%); qryn 3.2.39 inflates SelectMergeProfile values (a known server bug), so the "
                            "flamegraph's numbers are the right ones\n"));
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.read(2), QByteArray("\x1f\x8b"));   // gzip, as profilecli writes it
    const auto p = qflame::readPprofFile(out);
    QCOMPARE(p->sampleTypes.size(), size_t(2));
    QCOMPARE(p->typeName(1), std::string("cpu"));
    QCOMPARE(p->unitName(1), std::string("nanoseconds"));
    QCOMPARE(p->total(1), 15870000000LL);
    QCOMPARE(p->period, 10000000LL);
    QCOMPARE(int(p->sampleCount()), 611);
}

void tst_QrynCli::mergeRefusesToOverwrite()
{
    const QString out = m_tmp.filePath("exists.pb.gz");
    QFile f(out);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("keep me");
    f.close();
    const Run refused = runQflame(QStringList{"merge"} << server() << "--output" << out);
    QCOMPARE(refused.code, 1);
    QCOMPARE(QString::fromUtf8(refused.err),
             "qflame: " + out + " already exists (--force overwrites it)\nRun 'qflame --help' for usage.\n");
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray("keep me"));
    f.close();
    const Run forced = runQflame(QStringList{"merge"} << server("process_cpu:samples:count:cpu:nanoseconds")
                                                      << "--output" << out << "--force");
    QVERIFY2(forced.code == 0, forced.err.constData());
    QCOMPARE(qflame::readPprofFile(out)->total(0), 1587LL);
}

// --for pgo trims the server's merge (as convert --for pgo trims files): the same edges as the untrimmed merge.
void tst_QrynCli::mergeForPgo()
{
    const QString whole = m_tmp.filePath("whole.pb.gz"), trimmed = m_tmp.filePath("pgo.pb.gz");
    const Run plain = runQflame(QStringList{"merge"} << server() << "--output" << whole);
    QVERIFY2(plain.code == 0, plain.err.constData());
    const Run r = runQflame(QStringList{"merge"} << server() << "--output" << trimmed << "--for" << "pgo");
    QVERIFY2(r.code == 0, r.err.constData());
    const auto before = qflame::computePgoEdges({qflame::readPprofFile(whole)});
    const auto after = qflame::computePgoEdges({qflame::readPprofFile(trimmed)});
    QVERIFY(!before.edges.empty());
    QVERIFY(after.edges == before.edges);
    const qint64 wholeBytes = QFileInfo(whole).size(), trimmedBytes = QFileInfo(trimmed).size();
    QCOMPARE(QString::fromUtf8(r.out), QStringLiteral("Wrote %1: trimmed for go build -pgo: %2 bytes from %3 (%4x "
                                                      "smaller), the same %5 edges\n")
                                           .arg(trimmed)
                                           .arg(trimmedBytes)
                                           .arg(wholeBytes)
                                           .arg(double(wholeBytes) / double(trimmedBytes), 0, 'f', 1)
                                           .arg(before.edges.size()));
    // qryn keeps no Function.start_line: the build would fail, and the user hears it before building.
    QVERIFY2(r.err.contains("qflame: error: start-lines: "), r.err.constData());
    QVERIFY2(r.err.contains("qflame: warning: the merged pprof (SelectMergeProfile) has a cpu/nanoseconds total"),
             r.err.constData());
    const Run bad = runQflame(QStringList{"merge"} << server() << "--output" << m_tmp.filePath("x.pb.gz") << "--for"
                                                   << "perf");
    QCOMPARE(bad.code, 1);
    QVERIFY(bad.err.startsWith("qflame: --for takes pgo (the profile go build -pgo reads), not 'perf'\n"));
}

void tst_QrynCli::basicAuth()
{
    const QStringList args{"top",  "--url",  m_auth.value("QRYN_URL"), "--type",       kCpu,     "--from",
                           "now-1h", "--to", "now",                    "--user", "qflame", "--password-env",
                           "QF_TEST_PASSWORD", "--tsv"};
    const Run wrong = runQflameWith(args, {{}, {}, {{"QF_TEST_PASSWORD", "wrong"}}});
    QCOMPARE(wrong.code, 2);
    QCOMPARE(QString::fromUtf8(wrong.err), "qflame: SelectMergeStacktraces at " + m_auth.value("QRYN_URL") +
                                               ": HTTP 401 Unauthorized: the server rejected the credentials: "
                                               "Unauthorized!: Wrong username/password.\n");
    const Run right = runQflameWith(args, {{}, {}, {{"QF_TEST_PASSWORD", m_auth.value("QRYN_PASSWORD")}}});
    QVERIFY2(right.code == 0, right.err.constData());
    qint64 flat = 0;
    for (const QByteArray &line : right.out.split('\n'))
        flat += line.split('\t').first().toLongLong();
    QCOMPARE(flat, 19420000000LL);   // the flat column sums to the total: both CPU profiles of the seed
}

namespace {

// before_flat, after_flat, delta_flat and the name of the rows with a flat value on either side.
QStringList diffFlatRows(const QByteArray &tsv)
{
    QStringList rows;
    for (const QByteArray &line : tsv.split('\n')) {
        const QList<QByteArray> f = line.split('\t');
        if (f.size() == 8 && (f[0] != "0" || f[1] != "0"))
            rows << QString::fromUtf8(f[0] + '\t' + f[1] + '\t' + f[2] + '\t' + f[7]).remove(QLatin1String(" (inline)"));
    }
    rows.sort();
    return rows;
}

}   // namespace

void tst_QrynCli::diffTsvEqualsLocalDiff()
{
    const Run remote = runQflame({"diff", "--url", m_env.value("QRYN_URL"), "--type", kCpu, "--base-query", kBase,
                                  "--query", "{service_name=\"svc-opt\"}", "--from", "now-1h", "--to", "now", "--tsv"});
    QVERIFY2(remote.code == 0, remote.err.constData());
    const QString dir = QStringLiteral(QFLAME_QRYN_PROFILES "/");
    const Run local = runQflame({"diff", dir + "gen__baseline.cpu.pb.gz", dir + "gen__optimized.cpu.pb.gz", "--tsv"});
    QVERIFY2(local.code == 0, local.err.constData());
    const QStringList rows = diffFlatRows(remote.out);
    QVERIFY(rows.size() > 10);
    QCOMPARE(rows, diffFlatRows(local.out));
}

void tst_QrynCli::diffTable_data()
{
    QTest::addColumn<QStringList>("extra");
    QTest::addColumn<QString>("head");   // the first two lines
    QTest::newRow("absolute")
        << QStringList{}
        << "Comparing cpu/nanoseconds by functions: base -> new\n"
           "Total 9.76 s -> 9.66 s, delta -100 ms (-1.02% of the baseline total); durations 1 h -> 1 h; normalisation: "
           "none (absolute values in nanoseconds); within noise: |delta| < 2 standard errors (counts: samples/count)\n";
    QTest::newRow("per second over a 2 h and a 1 h window")
        << QStringList{"--base-from", "now-2h", "--normalize", "per-second"}
        << "Comparing cpu/nanoseconds by functions: base -> new\n"
           "Total 0.00136 cores -> 0.00268 cores, delta +0.00133 cores (+97.95% of the baseline total); durations "
           "2 h -> 1 h (-50.0%, more than 5% apart); normalisation: per-second (each side divided by its own "
           "duration); within noise: |delta| < 2 standard errors (counts: samples/count)\n";
}

void tst_QrynCli::diffTable()
{
    QFETCH(QStringList, extra);
    QFETCH(QString, head);
    const Run r = runQflame(QStringList{"diff", "--url", m_env.value("QRYN_URL"), "--type", kCpu, "--base-query",
                                        kBase, "--query", "{service_name=\"svc-opt\"}", "--from", "now-1h", "--to",
                                        "now"}
                            << extra);
    QVERIFY2(r.code == 0, r.err.constData());
    const QList<QByteArray> lines = r.out.split('\n');
    QVERIFY(lines.size() > 3);
    QCOMPARE(QString::fromUtf8(lines[0] + '\n' + lines[1] + '\n'), head);
}

void tst_QrynCli::failures_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("err");   // "URL" stands for the server's URL
    const QString url = m_env.value("QRYN_URL");
    const QString usage = QStringLiteral("\nRun 'qflame --help' for usage.\n");
    QTest::newRow("3 days ago") << QStringList{"top", "--url", url, "--type", kCpu, "--from", "1795700000",
                                               "--to", "1795703600"}
                                << 2 << "qflame: no profiles of type " + kCpu +
                                            " match {} between 2026-11-26T13:33:20.000Z and 2026-11-26T14:33:20.000Z\n";
    QTest::newRow("unquoted selector") << QStringList{"top", "--url", url, "--type", kCpu, "--query", "{env=ci}",
                                                      "--from", "now-1h", "--to", "now"}
                                       << 2
                                       << "qflame: SelectMergeStacktraces at URL: HTTP 500 Internal Server Error: the "
                                          "server gave no details (its log has the cause); the label selector {env=ci} "
                                          "is malformed: the value of env must be in double quotes: env=\"ci\"\n";
    QTest::newRow("unknown type, merge") << QStringList{"merge", "--url", url, "--type", "nope:nope:nope:nope:nope",
                                                        "--from", "2026-11-26T13:33:20Z", "--to",
                                                        "2026-11-26T14:33:20+00:00", "--output", "/nonexistent/x"}
                                         << 2
                                         << "qflame: no profiles of type nope:nope:nope:nope:nope match {} between "
                                            "2026-11-26T13:33:20.000Z and 2026-11-26T14:33:20.000Z\n";
    QTest::newRow("bad time") << QStringList{"top", "--url", url, "--type", kCpu, "--from", "yesterday", "--to", "now"}
                              << 1
                              << "qflame: --from: 'yesterday' is not a time: use RFC 3339 (2026-11-29T21:00:00Z), "
                                 "epoch seconds or ms, now, or now-<N><unit> (ms s m h d w)" + usage;
    QTest::newRow("no output") << QStringList{"merge", "--url", url, "--type", kCpu, "--from", "now-1h", "--to", "now"}
                               << 1 << "qflame: merge needs --output FILE" + usage;
    QTest::newRow("no --to") << QStringList{"top", "--url", url, "--type", kCpu, "--from", "now-1h"} << 1
                             << "qflame: top needs --to" + usage;
    QTest::newRow("password variable unset")
        << QStringList{"top", "--url", url, "--type", kCpu, "--from", "now-1h", "--to", "now", "--user", "u",
                       "--password-env", "QF_TEST_UNSET_VARIABLE"}
        << 1 << "qflame: --password-env: the environment variable QF_TEST_UNSET_VARIABLE is not set or empty" + usage;
    QTest::newRow("granularity") << QStringList{"top", "--url", url, "--type", kCpu, "--from", "now-1h", "--to",
                                                "now", "--granularity", "lines"}
                                 << 1
                                 << "qflame: --granularity does not apply to a server: --type picks the sample type, "
                                    "and the server's flamegraph has function names only" + usage;
    QTest::newRow("diff, empty base") << QStringList{"diff", "--url", url, "--type", kCpu, "--base-query",
                                                     "{service_name=\"nope\"}", "--from", "1795700000", "--to",
                                                     "1795703600"}
                                      << 2
                                      << "qflame: no profiles of type " + kCpu + " match {service_name=\"nope\"} "
                                         "between 2026-11-26T13:33:20.000Z and 2026-11-26T14:33:20.000Z\n";
    QTest::newRow("refused") << QStringList{"top", "--url", "http://127.0.0.1:1", "--type", kCpu, "--from",
                                            "now-1h", "--to", "now"}
                             << 2
                             << "qflame: SelectMergeStacktraces at http://127.0.0.1:1: connection refused: nothing "
                                "listens on 127.0.0.1 port 1\n";
}

void tst_QrynCli::failures()
{
    QFETCH(QStringList, args);
    QFETCH(int, code);
    QFETCH(QString, err);
    const Run r = runQflame(args);
    QCOMPARE(QString::fromUtf8(r.err), err.replace(QLatin1String("URL"), m_env.value("QRYN_URL")));
    QCOMPARE(r.code, code);
    QVERIFY(r.out.isEmpty());
}

QTEST_GUILESS_MAIN(tst_QrynCli)
#include "tst_qryncli.moc"
