// Issue #7: secrets never leak. A session with a password and a bearer token runs through the connection dialog,
// the saved connections (ConnectionStore, the application's own QSettings in Qt's test location) and the explorer
// tab, against the real qryn 3.2.39 with basic auth (fixture `qryn_auth`: a wrong then the right password) and
// against faulty servers (garbage, a redirect to another host), plus `qflame top` runs with --password-env and
// --token-env. Every Qt message (qt.network debug enabled) is captured; the secrets must appear in no settings
// file, message, error line, window title or CLI output.
//
// QFLAME_SECRET_SERVICE says what keychain there is: "real" (run by tests/qryn/with-secret-service.sh, a private
// gnome-keyring): secrets round-trip through it and survive the store; "none" (no D-Bus session bus): the keychain
// refuses, the tab says so, the secret is kept for the session only, and nothing is written in plain text.
#include "document/DocumentPane.h"
#include "explorer/ConnectionDialog.h"
#include "explorer/ConnectionStore.h"
#include "explorer/QrynExplorer.h"
#include "qryn/QrynFixtureEnv.h"
#include "qryn/ThreadedFaultServer.h"
#include "RunQflame.h"

#include <QApplication>
#include <QComboBox>
#include <QDirIterator>
#include <QLineEdit>
#include <QLoggingCategory>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace qflame;
using namespace qflame::qryn;
using qflame::test::FaultMode;
using qflame::test::Run;
using qflame::test::runQflame;
using qflame::test::runQflameWith;
using qflame::test::ThreadedFaultServer;

namespace {

const QString kCpu = QStringLiteral("process_cpu:cpu:nanoseconds:cpu:nanoseconds");
const QString kWrongPassword = QStringLiteral("wrong-Pw-7f3a9c");
const QString kToken = QStringLiteral("tok-4711-QFLAME-SECRET");

QStringList g_messages;
QtMessageHandler g_previous = nullptr;

void capture(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    g_messages << QStringLiteral("%1 %2: %3").arg(int(type)).arg(QLatin1String(context.category), message);
    if (g_previous)
        g_previous(type, context, message);
}

// The real binary with QF_SECRET set to `secret`, and Qt's network logging on (whose output must not hold it).
Run runWithSecret(const QStringList &args, const QString &secret)
{
    return runQflameWith(args, {{},
                                {},
                                {{QStringLiteral("QF_SECRET"), secret},
                                 {QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("qt.network*=true")}}});
}

}   // namespace

class tst_Secrets : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void keychain();
    void session();
    void cli();
    void nothingLeaked();
    void cleanupTestCase();

private:
    // Runs the explorer's Connect... dialog; `fill` edits it (the dialog is modal), then it is accepted.
    void throughDialog(QrynExplorer *explorer, const std::function<void(ConnectionDialog *)> &fill);
    QStringList secrets() const;
    bool m_real = false;
    test::QrynFixtureEnv m_auth;
    QString m_rightPassword;
    QStringList m_seen;   // every message, error line and title the session showed
    QStringList m_cliOutput;
    QString m_configDir;
};

void tst_Secrets::initTestCase()
{
    m_real = qEnvironmentVariable("QFLAME_SECRET_SERVICE") == u"real";
    if (!m_real)   // no session bus: what a machine without a Secret Service has
        qputenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/qflame-no-bus");
    m_auth = test::readQrynFixture(QStringLiteral(QFLAME_QRYN_AUTH_FIXTURE));
    if (!m_auth.skipReason.isEmpty())
        QSKIP(qPrintable(m_auth.skipReason));
    QVERIFY2(m_auth.error.isEmpty(), qPrintable(m_auth.error));
    m_rightPassword = m_auth.value(QStringLiteral("QRYN_PASSWORD"));
    QVERIFY(!m_rightPassword.isEmpty());
    // The application's own settings (what a ConnectionStore without a QSettings uses), in Qt's test location.
    // The two runs (with and without a Secret Service) go in parallel under ctest -j and test mode puts both
    // under ~/.qttest whatever XDG_CONFIG_HOME says, so each gets a directory of its own: a shared one was
    // removed by one run while the other was checking it.
    QStandardPaths::setTestModeEnabled(true);
    const QString org = QStringLiteral("qflame-secrets-test-") + QLatin1String(m_real ? "real" : "none");
    QCoreApplication::setOrganizationName(org);
    QCoreApplication::setApplicationName(QStringLiteral("secrets"));
    m_configDir = QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation) + u'/' + org;
    QDir(m_configDir).removeRecursively();
    QLoggingCategory::setFilterRules(QStringLiteral("qt.network*=true"));
    g_previous = qInstallMessageHandler(capture);
}

void tst_Secrets::cleanupTestCase()
{
    qInstallMessageHandler(g_previous);
    // Not set when initTestCase stopped before it (no fixture): QDir("") is the working directory, the build's
    // tests folder, which this removed with every test program in it.
    if (!m_configDir.isEmpty())
        QDir(m_configDir).removeRecursively();
}

QStringList tst_Secrets::secrets() const
{
    // The secrets, and the Authorization header values that carry them.
    QStringList s{kWrongPassword, m_rightPassword, kToken};
    for (const QString &pw : {kWrongPassword, m_rightPassword})
        s << QString::fromLatin1(("qflame:" + pw).toUtf8().toBase64());
    return s;
}

void tst_Secrets::keychain()
{
    ConnectionSettings c;
    c.url = m_auth.url();
    c.user = QStringLiteral("qflame");
    c.password = kWrongPassword;
    ConnectionStore store;
    QSignalSpy refused(&store, &ConnectionStore::keychainError);
    QString error = QStringLiteral("(not called)");
    store.save(QStringLiteral("kc-basic"), c, [&](QString e) { error = e; });
    QTRY_VERIFY_WITH_TIMEOUT(error != u"(not called)", 20'000);
    ConnectionSettings t;
    t.url = m_auth.url();
    t.bearerToken = kToken;
    QString error2 = QStringLiteral("(not called)");
    store.save(QStringLiteral("kc-token"), t, [&](QString e) { error2 = e; });
    QTRY_VERIFY_WITH_TIMEOUT(error2 != u"(not called)", 20'000);
    m_seen << error << error2;
    for (const QList<QVariant> &args : refused)
        m_seen << args.value(0).toString();
    if (m_real) {
        QCOMPARE(error, QString());
        QCOMPARE(error2, QString());
        QCOMPARE(refused.count(), 0);
    } else {
        qInfo("keychain without a Secret Service: %s", qPrintable(error));
        QVERIFY2(error.startsWith(QStringLiteral("The system keychain did not store the password of the connection "
                                                 "kc-basic (")),
                 qPrintable(error));
        QVERIFY2(error.endsWith(QStringLiteral("): it is kept until qflame quits and written nowhere else")),
                 qPrintable(error));
        QVERIFY2(error2.contains(QStringLiteral("did not store the bearer token of the connection kc-token")),
                 qPrintable(error2));
        QCOMPARE(refused.count(), 2);   // removing the absent other secret is not worth a message
    }
    // This store gives the secrets back either way (from the keychain, or kept for the session).
    ConnectionSettings back;
    bool read = false;
    store.withSecrets(QStringLiteral("kc-basic"), store.connection(QStringLiteral("kc-basic")),
                      [&](ConnectionSettings s, QString) {
                          back = s;
                          read = true;
                      });
    QTRY_VERIFY_WITH_TIMEOUT(read, 20'000);
    QCOMPARE(back.password, kWrongPassword);
    QCOMPARE(back.user, QStringLiteral("qflame"));
    // A new store (the next start of qflame) has them only from a real keychain.
    ConnectionStore next;
    read = false;
    QString readError;
    next.withSecrets(QStringLiteral("kc-token"), next.connection(QStringLiteral("kc-token")),
                     [&](ConnectionSettings s, QString e) {
                         back = s;
                         readError = e;
                         read = true;
                     });
    QTRY_VERIFY_WITH_TIMEOUT(read, 20'000);
    m_seen << readError;
    if (m_real) {
        QCOMPARE(back.bearerToken, kToken);
        QCOMPARE(readError, QString());
    } else {
        QCOMPARE(back.bearerToken, QString());
        QVERIFY2(readError.startsWith(QStringLiteral("The system keychain did not give the password of the "
                                                     "connection kc-token (")),
                 qPrintable(readError));
    }
    QCOMPARE(back.url, m_auth.url());
    for (const QString &name : {QStringLiteral("kc-basic"), QStringLiteral("kc-token")})
        store.remove(name);
    QTest::qWait(500);   // the keychain's removals
}

void tst_Secrets::throughDialog(QrynExplorer *explorer, const std::function<void(ConnectionDialog *)> &fill)
{
    bool done = false;
    QTimer poll;
    connect(&poll, &QTimer::timeout, this, [&] {
        auto *dialog = qobject_cast<ConnectionDialog *>(QApplication::activeModalWidget());
        if (!dialog || done)
            return;
        done = true;
        m_seen << dialog->windowTitle();
        fill(dialog);
        dialog->accept();
    });
    poll.start(20);
    explorer->connectDialog();
    poll.stop();
    QVERIFY(done);
    m_seen << explorer->title() << explorer->windowTitle();
}

void tst_Secrets::session()
{
    QrynExplorer explorer;   // its own ConnectionStore: the application's settings and the keychain
    explorer.resize(1200, 800);
    explorer.show();
    QVERIFY(QTest::qWaitForWindowExposed(&explorer));
    QSignalSpy answers(&explorer, &QrynExplorer::requestFinished);
    auto waitFor = [&](const QString &what) {
        for (int i = 0; i < 600; ++i) {
            for (const QList<QVariant> &a : answers)
                if (a.value(0).toString() == what)
                    return a;
            answers.wait(50);
        }
        return QList<QVariant>{what, false, QStringLiteral("timed out")};
    };
    ConnectionSettings c;
    c.url = m_auth.url();
    c.user = QStringLiteral("qflame");
    c.password = kWrongPassword;
    // 1. A new connection with the wrong password, saved.
    throughDialog(&explorer, [&](ConnectionDialog *d) {
        d->setSettings(c);
        for (QLineEdit *e : d->findChildren<QLineEdit *>())
            if (e->placeholderText().isEmpty() && e->echoMode() == QLineEdit::Normal && e->text().isEmpty()) {
                e->setText(QStringLiteral("auth"));   // the name, the first empty plain field
                break;
            }
    });
    const QString unauthorized = waitFor(QStringLiteral("types")).value(2).toString();
    QVERIFY2(unauthorized.contains(QStringLiteral("HTTP 401 Unauthorized: the server rejected the credentials")),
             qPrintable(unauthorized));
    if (!m_real) {
        const QString said = waitFor(QStringLiteral("keychain")).value(2).toString();
        QVERIFY2(said.startsWith(QStringLiteral("The system keychain did not store the password of the connection "
                                                "auth (")),
                 qPrintable(said));
    }
    m_seen << explorer.message();
    // 2. The saved connection, picked in the dialog, comes back with its password; corrected, it works.
    answers.clear();
    QString loaded;
    throughDialog(&explorer, [&](ConnectionDialog *d) {
        d->savedBox()->setCurrentText(QStringLiteral("auth"));
        QLineEdit *password = nullptr;
        for (QLineEdit *e : d->findChildren<QLineEdit *>())
            if (e->echoMode() == QLineEdit::Password && !password)
                password = e;
        QTRY_VERIFY_WITH_TIMEOUT(!password->text().isEmpty(), 20'000);   // the keychain answers asynchronously
        loaded = password->text();
        password->setText(m_rightPassword);
    });
    QCOMPARE(loaded, kWrongPassword);
    const QList<QVariant> types = waitFor(QStringLiteral("types"));
    QVERIFY2(types.value(1).toBool(), qPrintable(types.value(2).toString()));
    explorer.setProfileType(kCpu);
    answers.clear();
    explorer.load();
    const QList<QVariant> flame = waitFor(QStringLiteral("flamegraph"));
    QVERIFY2(flame.value(1).toBool(), qPrintable(flame.value(2).toString()));
    m_seen << explorer.message() << explorer.title();
    // 3. A bearer token sent to faulty servers: garbage, and a redirect to another host (not followed).
    for (FaultMode mode : {FaultMode::Garbage, FaultMode::RedirectElsewhere}) {
        ThreadedFaultServer server(mode);
        ConnectionSettings t;
        t.url = server.url();
        t.bearerToken = kToken;
        t.timeoutMs = 3000;
        answers.clear();
        throughDialog(&explorer, [&](ConnectionDialog *d) {
            d->savedBox()->setCurrentIndex(0);
            d->setSettings(t);
        });
        const QList<QVariant> failed = waitFor(QStringLiteral("types"));
        QVERIFY(!failed.value(1).toBool());
        waitFor(QStringLiteral("labels"));
        explorer.load();
        waitFor(QStringLiteral("flamegraph"));
        waitFor(QStringLiteral("timeline"));
        m_seen << explorer.message();
        QCOMPARE(server.requests(), 4);   // each request once, the redirect's target never
    }
    for (const QList<QVariant> &a : answers)
        m_seen << a.value(2).toString();
    m_seen << explorer.title() << explorer.windowTitle();
    QTest::qWait(500);   // the keychain's last answers
}

void tst_Secrets::cli()
{
    const QStringList common{"top", "--type", kCpu, "--from", "now-1h", "--to", "now", "--tsv"};
    const QStringList basic = QStringList(common) << "--url" << m_auth.value(QStringLiteral("QRYN_URL")) << "--user"
                                                  << "qflame" << "--password-env" << "QF_SECRET";
    const Run wrong = runWithSecret(basic, kWrongPassword);
    QCOMPARE(wrong.code, 2);
    QVERIFY2(wrong.err.contains("HTTP 401 Unauthorized: the server rejected the credentials"), wrong.err.constData());
    const Run right = runWithSecret(basic, m_rightPassword);
    QCOMPARE(right.code, 0);
    ThreadedFaultServer server(FaultMode::Garbage);
    const Run token = runWithSecret(QStringList(common) << "--url" << server.url().toString() << "--token-env"
                                                        << "QF_SECRET",
                                    kToken);
    QCOMPARE(token.code, 2);
    QVERIFY2(token.err.contains("HTTP 200 but the body"), token.err.constData());
    for (const Run &r : {wrong, right, token})
        m_cliOutput << QString::fromUtf8(r.err) << QString::fromUtf8(r.out);
}

void tst_Secrets::nothingLeaked()
{
    QSettings().sync();
    QStringList files;
    QDirIterator it(m_configDir, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        files << it.next();
    QVERIFY2(!files.isEmpty(), "the session saved no settings");   // the saved connection is there
    QByteArray settingsText;
    for (const QString &f : files) {
        QFile file(f);
        QVERIFY(file.open(QIODevice::ReadOnly));
        settingsText += file.readAll();
    }
    QVERIFY2(settingsText.contains("qflame"), settingsText.constData());   // the user name is saved
    if (m_real) {
        // The keyring's own file holds the secrets encrypted, not as text.
        QDirIterator keyrings(qEnvironmentVariable("XDG_DATA_HOME") + QStringLiteral("/keyrings"), QDir::Files);
        int n = 0;
        while (keyrings.hasNext()) {
            QFile file(keyrings.next());
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray bytes = file.readAll();
            for (const QString &s : secrets())
                QVERIFY2(!bytes.contains(s.toUtf8()), qPrintable(file.fileName()));
            ++n;
        }
        QVERIFY(n > 0);
    }
    QMap<QString, int> categories;
    for (const QString &m : g_messages)
        ++categories[m.section(QLatin1Char(':'), 0, 0)];
    for (auto it = categories.begin(); it != categories.end(); ++it)
        qInfo("captured %d messages of type/category %s", it.value(), qPrintable(it.key()));
    const QString logs = g_messages.join(QLatin1Char('\n'));
    const QString seen = m_seen.join(QLatin1Char('\n'));
    const QString cli = m_cliOutput.join(QLatin1Char('\n'));
    qInfo("checked %lld settings bytes in %lld files, %lld captured Qt messages, %lld lines shown, %lld bytes of "
          "CLI output",
          qint64(settingsText.size()), qint64(files.size()), qint64(g_messages.size()), qint64(m_seen.size()),
          qint64(cli.size()));
    QVERIFY(!g_messages.isEmpty());   // the capture works (qt.network's debug lines among them)
    for (const QString &s : secrets()) {
        QVERIFY2(!settingsText.contains(s.toUtf8()), qPrintable("settings hold " + s));
        QVERIFY2(!logs.contains(s), qPrintable("a Qt message holds " + s));
        QVERIFY2(!seen.contains(s), qPrintable("a message or title holds " + s));
        QVERIFY2(!cli.contains(s), qPrintable("the CLI printed " + s));
    }
}

QTEST_MAIN(tst_Secrets)
#include "tst_secrets.moc"
