// The window's command line for a server (issue 19), as a user runs it: `qflame --url URL --type ID ...` and
// `qflame --connection NAME`. A wrong argument is one line on standard error and exit status 2, before any window
// or display is needed: the runs here have no display, so a window that tried to open would end otherwise. The
// saved connections come from a settings file of the test's own (XDG_CONFIG_HOME).
#include <QFile>
#include <QProcess>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Run {
    int code = -1;
    QByteArray out, err;
};

}   // namespace

class tst_CliExplorer : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void errors_data();
    void errors();
    void usageNamesTheForms();

private:
    Run run(const QStringList &args) const;
    QTemporaryDir m_config;
};

void tst_CliExplorer::initTestCase()
{
    QVERIFY(m_config.isValid());
    // Where qflame-gui's QSettings (organisation and application "qflame") reads its connections.
    QSettings s(m_config.filePath(QStringLiteral("qflame/qflame.conf")), QSettings::IniFormat);
    s.setValue(QStringLiteral("qryn/connections/prod/url"), QStringLiteral("https://qryn.example.com"));
    s.setValue(QStringLiteral("qryn/connections/local%20qryn/url"), QStringLiteral("http://127.0.0.1:3100"));
    s.sync();
    QCOMPARE(s.status(), QSettings::NoError);
}

Run tst_CliExplorer::run(const QStringList &args) const
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_config.path());
    env.remove(QStringLiteral("QFLAME_TEST_PASSWORD"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(QFLAME_BINARY), args);
    if (!p.waitForStarted())
        return {};
    p.closeWriteChannel();
    p.waitForFinished(60000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

void tst_CliExplorer::errors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("error");
    const QString cpu = QStringLiteral("process_cpu:cpu:nanoseconds:cpu:nanoseconds");
    QTest::newRow("not a URL") << QStringList{"--url", "qryn.example.com", "--type", cpu}
                               << "'qryn.example.com' is not an http:// or https:// URL";
    QTest::newRow("another scheme") << QStringList{"--url", "ftp://qryn.example.com", "--type", cpu}
                                    << "'ftp://qryn.example.com' is not an http:// or https:// URL";
    QTest::newRow("credentials in the URL") << QStringList{"--url", "http://u:p@qryn.example.com", "--type", cpu}
                                            << "put credentials in the user and password settings, not in the URL";
    QTest::newRow("missing --type") << QStringList{"--url", "http://127.0.0.1:3100"}
                                    << "--url needs --type PROFILE_TYPE_ID, e.g. --type "
                                       "process_cpu:cpu:nanoseconds:cpu:nanoseconds";
    QTest::newRow("bad --type") << QStringList{"--url", "http://127.0.0.1:3100", "--type", "cpu"}
                                << "--type must be a profile type ID name:sample_type:sample_unit:period_type:"
                                   "period_unit, e.g. process_cpu:cpu:nanoseconds:cpu:nanoseconds, not 'cpu'";
    QTest::newRow("unknown connection") << QStringList{"--connection", "staging"}
                                        << "no saved connection named 'staging' (saved: local qryn, prod)";
    QTest::newRow("both forms") << QStringList{"--url", "http://127.0.0.1:3100", "--connection", "prod"}
                                << "give --url or --connection, not both";
    QTest::newRow("server option with a connection")
        << QStringList{"--connection", "prod", "--token-env", "T"}
        << "--token-env does not go with --connection: the saved connection has its own (give --url with the "
           "server options instead)";
    QTest::newRow("query without type") << QStringList{"--connection", "prod", "--query", "{}"}
                                        << "--query needs --type PROFILE_TYPE_ID";
    QTest::newRow("bad selector") << QStringList{"--url", "http://127.0.0.1:3100", "--type", cpu, "--query", "{env=ci}"}
                                  << "--query: the value of env must be in double quotes: env=\"ci\"";
    QTest::newRow("bad time") << QStringList{"--url", "http://127.0.0.1:3100", "--type", cpu, "--from", "yesterday"}
                              << "--from: 'yesterday' is not a time: use RFC 3339 (2026-11-29T21:00:00Z), epoch "
                                 "seconds or ms, now, or now-<N><unit> (ms s m h d w)";
    QTest::newRow("from after to") << QStringList{"--url", "http://127.0.0.1:3100", "--type", cpu, "--from", "now",
                                                  "--to", "now-1h"}
                                   << "--from is after --to";
    QTest::newRow("password without user") << QStringList{"--url", "http://127.0.0.1:3100", "--type", cpu,
                                                          "--password-env", "QFLAME_TEST_PASSWORD"}
                                           << "--password-env needs --user";
    QTest::newRow("unset password variable")
        << QStringList{"--url", "http://127.0.0.1:3100", "--type", cpu, "--user", "u", "--password-env",
                       "QFLAME_TEST_PASSWORD"}
        << "--password-env: the environment variable QFLAME_TEST_PASSWORD is not set or empty";
    QTest::newRow("a file as well") << QStringList{"--url", "http://127.0.0.1:3100", "--type", cpu, "cpu.pb.gz"}
                                    << "'cpu.pb.gz': the explorer takes no FILE (open files without --url or "
                                       "--connection)";
    QTest::newRow("unknown option") << QStringList{"--url", "http://127.0.0.1:3100", "--type", cpu, "--limit", "3"}
                                    << "unknown option --limit for the explorer (--url or --connection)";
    QTest::newRow("missing value") << QStringList{"--url", "http://127.0.0.1:3100", "--type"}
                                   << "option --type needs a value";
}

void tst_CliExplorer::errors()
{
    QFETCH(QStringList, args);
    QFETCH(QString, error);
    const Run r = run(args);
    QCOMPARE(r.err, QByteArray("qflame: " + error.toUtf8() + "\n"));
    QCOMPARE(r.code, 2);
    QCOMPARE(r.out, QByteArray());
}

void tst_CliExplorer::usageNamesTheForms()
{
    const Run r = run({"--help"});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("  qflame --url URL --type PROFILE_TYPE_ID [--query SELECTOR] [--from TIME] [--to TIME]\n"));
    QVERIFY(r.out.contains("  qflame --connection NAME [--type PROFILE_TYPE_ID [--query SELECTOR] [--from TIME] "
                           "[--to TIME]]\n"));
}

QTEST_GUILESS_MAIN(tst_CliExplorer)
#include "tst_cliexplorer.moc"
