// URLs where FILEs are expected, against a live Go service built here with Debian's Go: every net/http/pprof
// endpoint read by the real binary (`qflame info URL`, `top URL --tsv`, diff, convert, rounds), its numbers
// checked against the same bytes fetched by the test and read as a file; and the faults, each one line naming
// the URL, exit status 2, within seconds: a refused port, a 404, an HTML page, an error status whose body never
// ends, a server that accepts and never answers, an answer over --max-size.
#include "GoToolchain.h"
#include "LivePprofService.h"
#include "MainWindow.h"
#include "SavedUrlConnections.h"
#include "controls/OpenUrlDialog.h"
#include "document/DocumentPane.h"
#include "explorer/ConnectionStore.h"
#include "fetch/ProfileFetch.h"
#include "formats/ProfileInput.h"
#include "io/Compression.h"
#include "io/InputFile.h"

#include <QAction>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace qflame;
using namespace qflame::pgotest;

namespace {

QByteArray get(const QString &url)
{
    QNetworkAccessManager network;
    QNetworkRequest request{QUrl(url)};
    request.setRawHeader("Accept-Encoding", "identity");
    QNetworkReply *reply = network.get(request);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    const QByteArray body = reply->error() == QNetworkReply::NoError ? reply->readAll() : QByteArray();
    delete reply;
    return body;
}

struct Timed {
    Run run;
    qint64 ms;
};

QString tlsFile(const char *name)
{
    return QStringLiteral(QFLAME_TEST_DATA "/../qryn/tls/") + QLatin1String(name);
}

Timed timedQflame(const QStringList &args)
{
    QElapsedTimer clock;
    clock.start();
    Run r = runQflame(args);
    return {r, clock.elapsed()};
}

}   // namespace

class tst_LiveUrl : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QProcess m_service;
    QString m_base;      // http://127.0.0.1:PORT
    QString m_tlsBase;   // https://127.0.0.1:PORT, a certificate of tests/qryn/tls's CA

    QString save(const QString &name, const QByteArray &bytes)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
            return {};
        return path;
    }

    // One line on stderr, naming the URL, status 2, within `seconds`.
    void expectFault(const QStringList &args, const QString &url, const QString &words, int seconds)
    {
        const Timed t = timedQflame(args);
        const QString err = QString::fromUtf8(t.run.err);
        QVERIFY2(t.run.code == 2, qPrintable(QStringLiteral("status %1: %2").arg(t.run.code).arg(err)));
        QVERIFY2(err.endsWith(u'\n') && err.count(u'\n') == 1, qPrintable(err));
        QVERIFY2(err.startsWith(QStringLiteral("qflame: ") + url + QStringLiteral(": ")), qPrintable(err));
        QVERIFY2(err.contains(words), qPrintable(err));
        QVERIFY2(t.ms < seconds * 1000, qPrintable(QStringLiteral("%1 ms: %2").arg(t.ms).arg(err)));
        QVERIFY(t.run.out.isEmpty());
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);   // the window's settings (recent files) go to a test location
        QCoreApplication::setOrganizationName(QStringLiteral("qflame-test"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_liveurl"));
        REQUIRE_GO(go);
        QVERIFY(m_dir.isValid());
        QFile src(m_dir.filePath(QStringLiteral("main.go")));
        QVERIFY(src.open(QIODevice::WriteOnly) && src.write(test::kLivePprofService) > 0);
        src.close();
        const Run build = runGo(go, {QStringLiteral("build"), QStringLiteral("-o"), QStringLiteral("svc"),
                                     QStringLiteral("main.go")}, m_dir.path());
        QVERIFY2(build.code == 0, build.err.constData());
        m_service.setWorkingDirectory(m_dir.path());
        m_service.start(m_dir.filePath(QStringLiteral("svc")), {tlsFile("server.pem"), tlsFile("server.key")});
        QVERIFY(m_service.waitForStarted());
        QVERIFY(m_service.waitForReadyRead(20000));
        const QList<QByteArray> ports = m_service.readLine().trimmed().split(' ');
        QCOMPARE(ports.size(), 2);
        QVERIFY(ports[0].toInt() > 0 && ports[1].toInt() > 0);
        m_base = QStringLiteral("http://127.0.0.1:%1").arg(ports[0].toInt());
        m_tlsBase = QStringLiteral("https://127.0.0.1:%1").arg(ports[1].toInt());
        QCOMPARE(get(m_base + QStringLiteral("/busy")).isEmpty(), false);
    }

    void cleanupTestCase()
    {
        if (m_service.state() != QProcess::NotRunning) {
            m_service.kill();   // the service this test started, by its process
            m_service.waitForFinished(5000);
        }
    }

    void everyEndpoint_data()
    {
        QTest::addColumn<QString>("endpoint");
        QTest::addColumn<QString>("types");   // the sample types `info` lists
        QTest::newRow("profile") << "profile?seconds=1" << "samples/count cpu/nanoseconds";
        QTest::newRow("heap") << "heap" << "alloc_objects/count alloc_space/bytes inuse_objects/count inuse_space/bytes";
        QTest::newRow("allocs") << "allocs" << "alloc_objects/count alloc_space/bytes inuse_objects/count inuse_space/bytes";
        QTest::newRow("goroutine") << "goroutine" << "goroutine/count";
        QTest::newRow("block") << "block" << "contentions/count delay/nanoseconds";
        QTest::newRow("mutex") << "mutex" << "contentions/count delay/nanoseconds";
    }

    // The live endpoint read by qflame; then a snapshot (the same bytes on every request) fetched by the test,
    // saved and read as a file, and by qflame from its URL: the same table to the last digit.
    void everyEndpoint()
    {
        QFETCH(QString, endpoint);
        QFETCH(QString, types);
        if (m_base.isEmpty())
            QSKIP("no service");
        const QString live = m_base + QStringLiteral("/debug/pprof/") + endpoint;
        const Timed info = timedQflame({QStringLiteral("info"), live});
        QVERIFY2(info.run.code == 0, info.run.err.constData());
        const QString text = QString::fromUtf8(info.run.out);
        QVERIFY2(text.startsWith(QStringLiteral("File: ") + live + u'\n'), qPrintable(text));
        QStringList listed;
        for (const QString &line : text.split(u'\n'))
            if (line.startsWith(QLatin1String("  ")))
                listed << line.simplified().section(u' ', 1, 1);
        QCOMPARE(listed.join(u' '), types);
        if (endpoint.startsWith(QLatin1String("profile"))) {
            QVERIFY2(info.ms >= 1000 && info.ms < 15000, qPrintable(QString::number(info.ms)));
            QVERIFY2(text.contains(QLatin1String("Duration: 1")), qPrintable(text));
        }

        const QString snapshot = m_base + QStringLiteral("/snapshot/") + endpoint;
        const QByteArray bytes = get(snapshot);
        QVERIFY(bytes.size() > 20);
        QVERIFY(bytes.startsWith("\x1f\x8b"));   // Go serves gzip-compressed pprof
        const QString file = save(QStringLiteral("%1.pb.gz").arg(QString(QTest::currentDataTag())), bytes);
        const auto p = readProfileFile(file);
        const Run fromFile = runQflame({QStringLiteral("top"), file, QStringLiteral("--tsv")});
        const Run fromUrl = runQflame({QStringLiteral("top"), snapshot, QStringLiteral("--tsv")});
        QVERIFY2(fromUrl.code == 0, fromUrl.err.constData());
        QCOMPARE(fromUrl.out, fromFile.out);
        if (p->total(size_t(p->effectiveDefaultType())) > 0)
            QVERIFY(!fromUrl.out.isEmpty());
        const Run infoFile = runQflame({QStringLiteral("info"), file});
        const Run infoUrl = runQflame({QStringLiteral("info"), snapshot});
        QCOMPARE(infoUrl.out.mid(infoUrl.out.indexOf('\n')), infoFile.out.mid(infoFile.out.indexOf('\n')));
    }

    // Every verb that reads FILEs reads URLs: diff, convert (byte-equal to converting the saved file), rounds.
    void theOtherVerbs()
    {
        if (m_base.isEmpty())
            QSKIP("no service");
        const QString heap = m_base + QStringLiteral("/snapshot/heap");
        const QString file = save(QStringLiteral("heap-verbs.pb.gz"), get(heap));
        const Run diff = runQflame({QStringLiteral("diff"), heap, file, QStringLiteral("--tsv")});
        QVERIFY2(diff.code == 0, diff.err.constData());
        for (const QByteArray &line : diff.out.split('\n'))
            if (!line.isEmpty())
                QCOMPARE(line.split('\t').at(2), QByteArray("0"));   // delta_flat: the same bytes on both sides
        const QString out = m_dir.filePath(QStringLiteral("converted.pb.gz")), outFile = m_dir.filePath(QStringLiteral("c2.pb.gz"));
        QCOMPARE(runQflame({QStringLiteral("convert"), heap, QStringLiteral("--to"), QStringLiteral("folded"),
                            QStringLiteral("--output"), out}).code, 0);
        QCOMPARE(runQflame({QStringLiteral("convert"), file, QStringLiteral("--to"), QStringLiteral("folded"),
                            QStringLiteral("--output"), outFile}).code, 0);
        QFile a(out), b(outFile);
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        QCOMPARE(a.readAll(), b.readAll());
        const Run rounds = runQflame({QStringLiteral("rounds"), QStringLiteral("-r"), QStringLiteral("url"), heap,
                                      QStringLiteral("-r"), QStringLiteral("file"), file, QStringLiteral("--tsv")});
        QVERIFY2(rounds.code == 0, rounds.err.constData());
        QVERIFY(!rounds.out.isEmpty());
        const Run pgo = runQflame({QStringLiteral("pgo"), m_base + QStringLiteral("/snapshot/profile?seconds=1"),
                                   QStringLiteral("--tsv")});
        QVERIFY2(pgo.code == 0, pgo.err.constData());
    }

    // Rounds of CPU profiles of one process, read side by side: taken one after the other, as Go takes one CPU
    // profile at a time (side by side, the second failed with "cpu profiling already in use").
    void cpuRoundsOfOneProcess()
    {
        if (m_base.isEmpty())
            QSKIP("no service");
        const Timed rounds = timedQflame({QStringLiteral("rounds"), QStringLiteral("-r"), QStringLiteral("a"),
                                          m_base + QStringLiteral("/debug/pprof/profile?seconds=1"), QStringLiteral("-r"),
                                          QStringLiteral("b"), m_base + QStringLiteral("/debug/pprof/profile?seconds=1&b"),
                                          QStringLiteral("--tsv")});
        QVERIFY2(rounds.run.code == 0, rounds.run.err.constData());
        QVERIFY(!rounds.run.out.isEmpty());
        QVERIFY2(rounds.ms >= 1900, qPrintable(QString::number(rounds.ms)));
    }

    // "Any URL that serves a pprof (gzip, zstd or raw)": bodies the door tells apart as it does files.
    void rawAndZstdBodies()
    {
        if (m_base.isEmpty())
            QSKIP("no service");
        QFile gz(QStringLiteral(QFLAME_TEST_DATA "/pprof__sample.cpu"));
        QVERIFY(gz.open(QIODevice::ReadOnly));
        const QByteArray compressed = gz.readAll();
        const std::string raw = decompress(std::string_view(compressed.constData(), size_t(compressed.size())),
                                           Compression::Gzip, uint64_t(1) << 30);
        QVERIFY(!raw.empty() && raw[0] != '\x1f');
        QVERIFY(!save(QStringLiteral("sample.pb"), QByteArray::fromStdString(raw)).isEmpty());
        QFile zst(QStringLiteral(QFLAME_TEST_DATA "/gen__baseline.cpu.pb.zst"));
        QVERIFY(zst.open(QIODevice::ReadOnly));
        const QByteArray zstBytes = zst.readAll();
        QVERIFY(zstBytes.startsWith("\x28\xb5\x2f\xfd"));
        QVERIFY(!save(QStringLiteral("baseline.pb.zst"), zstBytes).isEmpty());
        for (const char *name : {"sample.pb", "baseline.pb.zst"}) {
            const Run fromUrl = runQflame({QStringLiteral("top"), m_base + QStringLiteral("/files/") + QLatin1String(name),
                                           QStringLiteral("--tsv")});
            QVERIFY2(fromUrl.code == 0, fromUrl.err.constData());
            QVERIFY(!fromUrl.out.isEmpty());
            QCOMPARE(fromUrl.out, runQflame({QStringLiteral("top"), m_dir.filePath(QLatin1String(name)), QStringLiteral("--tsv")}).out);
        }
    }

    // The window's path: the Open URL dialog's fetch (countdown, Cancel), its bytes handed to the tab's read,
    // and kept byte for byte for Save Fetched Profile.
    void windowFetch()
    {
        if (m_base.isEmpty())
            QSKIP("no service");
        qryn::ConnectionSettings settings;
        settings.timeoutMs = 0;
        fetch::installUrlReader(settings, true);
        const QString heap = m_base + QStringLiteral("/snapshot/heap");
        const QByteArray expected = get(heap);
        {
            OpenUrlDialog dialog;
            dialog.setUrl(heap);
            dialog.startFetch();
            QTRY_COMPARE_WITH_TIMEOUT(dialog.result(), int(QDialog::Accepted), 10000);
            QCOMPARE(dialog.fetchedName(), heap);
        }
        // The tab reads what the dialog fetched (the server is not asked again: its snapshot is the same anyway,
        // so the proof is the kept bytes) and keeps them.
        const auto p = readProfileFile(heap);
        QCOMPARE(QString::fromStdString(p->sourceName), heap);
        QCOMPARE(fetch::fetchedBytes(heap).value_or(QByteArray()), expected);
        // A CPU profile's countdown, and Cancel stops it at once.
        OpenUrlDialog dialog;
        dialog.setUrl(m_base + QStringLiteral("/debug/pprof/profile"));
        dialog.setSeconds(20);
        QVERIFY(dialog.url().endsWith(QLatin1String("/debug/pprof/profile?seconds=20")));
        dialog.startFetch();
        const QLabel *status = dialog.findChild<QLabel *>(QStringLiteral("status"));
        QVERIFY(status && status->text().contains(QLatin1String("s left")));
        QElapsedTimer clock;
        clock.start();
        dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Cancel)->click();
        QTRY_COMPARE_WITH_TIMEOUT(status->text(), QStringLiteral("Cancelled."), 3000);
        QVERIFY(clock.elapsed() < 3000);
        QCOMPARE(dialog.result(), 0);   // still open, for another try
        setUrlReader(nullptr);
    }

    // File > Open URL...'s connection settings reach the request: a server that checks the Authorization header
    // (basic auth, a bearer token), TLS with the test CA as the CA file, and a saved qryn connection for the same
    // server whose user and password the dialog takes when the URL is typed.
    void dialogCredentials()
    {
        if (m_base.isEmpty())
            QSKIP("no service");
        qryn::ConnectionSettings defaults;
        defaults.timeoutMs = 0;
        fetch::installUrlReader(defaults, true);
        const QByteArray heap = get(m_base + QStringLiteral("/snapshot/heap"));
        QVERIFY(heap.size() > 20);
        auto fetchWith = [](OpenUrlDialog &dialog) {
            dialog.startFetch();
            (void)QTest::qWaitFor([&] { return dialog.result() == QDialog::Accepted || !dialog.lastError().isEmpty(); }, 10000);
            return dialog.result() == QDialog::Accepted;
        };
        const QString basic = m_base + QStringLiteral("/basic/heap");
        {
            OpenUrlDialog dialog;   // no credentials: the server's 401, in the dialog, which stays open
            dialog.setUrl(basic);
            QVERIFY(!fetchWith(dialog));
            QVERIFY2(dialog.lastError().startsWith(basic + QStringLiteral(": HTTP 401")), qPrintable(dialog.lastError()));
            QVERIFY2(dialog.lastError().contains(QLatin1String("requires credentials")), qPrintable(dialog.lastError()));
            dialog.findChild<QLineEdit *>(QStringLiteral("user"))->setText(QStringLiteral("alice"));
            dialog.findChild<QLineEdit *>(QStringLiteral("password"))->setText(QStringLiteral("wrong"));
            QVERIFY(!fetchWith(dialog));
            QVERIFY2(dialog.lastError().contains(QLatin1String("rejected the credentials")), qPrintable(dialog.lastError()));
            dialog.findChild<QLineEdit *>(QStringLiteral("password"))->setText(QStringLiteral("s3cret"));
            QVERIFY2(fetchWith(dialog), qPrintable(dialog.lastError()));
            QCOMPARE(dialog.fetchedName(), basic);
            QCOMPARE(readProfileFile(basic)->sampleCount(), readProfile(std::string_view(heap.constData(), size_t(heap.size())), "h")->sampleCount());
            QCOMPARE(fetch::fetchedBytes(basic).value_or(QByteArray()), heap);   // the server's bytes, as served
        }
        {
            OpenUrlDialog dialog;
            const QString bearer = m_base + QStringLiteral("/bearer/heap");
            dialog.setUrl(bearer);
            dialog.findChild<QLineEdit *>(QStringLiteral("token"))->setText(QStringLiteral("tok-123"));
            QVERIFY2(fetchWith(dialog), qPrintable(dialog.lastError()));
            QCOMPARE(readProfileFile(bearer)->sourceName, bearer.toStdString());
            QCOMPARE(fetch::fetchedBytes(bearer).value_or(QByteArray()), heap);
        }
        {
            OpenUrlDialog dialog;   // TLS: refused without the CA file, read with it
            const QString tls = m_tlsBase + QStringLiteral("/snapshot/heap");
            dialog.setUrl(tls);
            QVERIFY(!fetchWith(dialog));
            QVERIFY2(dialog.lastError().contains(QLatin1String("TLS handshake failed")), qPrintable(dialog.lastError()));
            dialog.findChild<QLineEdit *>(QStringLiteral("caFile"))->setText(tlsFile("ca.pem"));
            QVERIFY2(fetchWith(dialog), qPrintable(dialog.lastError()));
            QVERIFY(readProfileFile(tls));
            QCOMPARE(fetch::fetchedBytes(tls).value_or(QByteArray()), heap);
        }
        // A saved connection (the explorer's store, secrets in memory here as without a keychain) for this server.
        QTemporaryDir settingsDir;
        QSettings settings(settingsDir.filePath(QStringLiteral("c.ini")), QSettings::IniFormat);
        qryn::ConnectionStore store(&settings);
        store.setKeychainEnabled(false);
        qryn::ConnectionSettings other;
        other.url = QUrl(QStringLiteral("http://localhost:1"));
        other.user = QStringLiteral("bob");
        other.password = QStringLiteral("not-this-one");
        store.save(QStringLiteral("elsewhere"), other);
        qryn::ConnectionSettings svc;
        svc.url = QUrl(m_base);
        svc.user = QStringLiteral("alice");
        svc.password = QStringLiteral("s3cret");
        store.save(QStringLiteral("svc"), svc);
        {
            OpenUrlDialog dialog;
            dialog.setSavedConnections(savedConnectionsOf(&store));
            QCOMPARE(dialog.savedBox()->count(), 3);
            dialog.setUrl(basic);
            QCOMPARE(dialog.savedBox()->currentText(), QStringLiteral("svc"));
            QTRY_COMPARE(dialog.settings().password, QStringLiteral("s3cret"));
            QCOMPARE(dialog.settings().user, QStringLiteral("alice"));
            QVERIFY2(fetchWith(dialog), qPrintable(dialog.lastError()));
            // Another host: no saved connection covers it, and none of svc's credentials stay in the fields.
            OpenUrlDialog again;
            again.setSavedConnections(savedConnectionsOf(&store));
            again.setUrl(basic);
            QCOMPARE(again.savedBox()->currentText(), QStringLiteral("svc"));
            again.setUrl(QStringLiteral("http://127.0.0.2:1/debug/pprof/heap"));
            QCOMPARE(again.savedBox()->currentIndex(), 0);
            QVERIFY(again.settings().user.isEmpty() && again.settings().password.isEmpty());
        }
        QVERIFY(OpenUrlDialog::connectionCovers(QUrl(QStringLiteral("http://h:80/pyro/")), QUrl(QStringLiteral("http://h/pyro/debug/pprof/heap"))));
        QVERIFY(!OpenUrlDialog::connectionCovers(QUrl(QStringLiteral("http://h/pyro")), QUrl(QStringLiteral("http://h/pyroscope/heap"))));
        QVERIFY(!OpenUrlDialog::connectionCovers(QUrl(QStringLiteral("http://h:8080")), QUrl(QStringLiteral("http://h/heap"))));
        QVERIFY(!OpenUrlDialog::connectionCovers(QUrl(QStringLiteral("https://h")), QUrl(QStringLiteral("http://h/heap"))));
        setUrlReader(nullptr);
    }

    // A URL from the command line (`qflame URL` opens the window with openArguments) takes File > Open URL's path:
    // the tab counts the CPU profile's seconds down, Cancel stops it and the tab says so, the tab opened before
    // keeps what it shows; "Fetch again" takes the profile; reading the tabs again (View > Collapse Template
    // Arguments) reads the bytes fetched before instead of asking the server again.
    void windowCountdownFromCommandLine()
    {
        if (m_base.isEmpty())
            QSKIP("no service");
        qryn::ConnectionSettings defaults;
        defaults.timeoutMs = 0;
        fetch::installUrlReader(defaults, true);
        MainWindow w;
        const QString counted = m_base + QStringLiteral("/counted/heap");
        QSignalSpy loads(&w, &MainWindow::loadFinished);
        w.openArguments({counted});
        QVERIFY(loads.wait(20000));
        QCOMPARE(loads.takeFirst().at(0).toBool(), true);
        auto *heapTab = qobject_cast<ProfilePane *>(w.tabs()->widget(0));
        QVERIFY(heapTab && heapTab->hasContent());
        const int heapRows = heapTab->topTable()->model()->rowCount();
        QCOMPARE(get(m_base + QStringLiteral("/served")).trimmed(), QByteArray("1"));

        const QString cpu = m_base + QStringLiteral("/debug/pprof/profile?seconds=2");
        QElapsedTimer clock;
        clock.start();
        w.openArguments({cpu});
        QCOMPARE(w.tabs()->count(), 2);
        auto *cpuTab = qobject_cast<ProfilePane *>(w.tabs()->currentWidget());
        QVERIFY(cpuTab && cpuTab != heapTab);
        QVERIFY(cpuTab->isLoading());
        QCOMPARE(cpuTab->statusLabel()->text(), QStringLiteral("Taking a CPU profile: 2 s left (Cancel stops it)"));
        QTRY_COMPARE_WITH_TIMEOUT(cpuTab->statusLabel()->text(), QStringLiteral("Taking a CPU profile: 1 s left (Cancel stops it)"), 1500);
        QPushButton *cancel = nullptr;
        for (QPushButton *b : cpuTab->findChildren<QPushButton *>())
            if (b->text() == QLatin1String("Cancel") && b->isVisibleTo(cpuTab))
                cancel = b;
        QVERIFY(cancel);
        cancel->click();
        QTRY_VERIFY_WITH_TIMEOUT(cpuTab->statusLabel()->text().startsWith(QStringLiteral("Cancelled: nothing was fetched from ") + cpu.toHtmlEscaped()), 1000);
        QVERIFY2(clock.elapsed() < 2000, qPrintable(QString::number(clock.elapsed())));   // before the profile's end
        QVERIFY(!cpuTab->isLoading() && !cpuTab->hasContent());
        QCOMPARE(w.tabs()->count(), 2);   // the cancelled tab stays and says so
        QVERIFY(heapTab->hasContent());
        QCOMPARE(heapTab->topTable()->model()->rowCount(), heapRows);
        QCOMPARE(loads.count(), 0);   // neither an error nor a load

        // Fetch again: the whole profile this time, as long as it asked for. (The Go process notices the closed
        // connection and stops the profile it was taking within a few hundred milliseconds; until then a new one
        // would be refused as "cpu profiling already in use".)
        QTest::qWait(1000);
        clock.restart();
        QVERIFY(QMetaObject::invokeMethod(cpuTab->statusLabel(), "linkActivated", Q_ARG(QString, QStringLiteral("again"))));
        QVERIFY(cpuTab->statusLabel()->text().contains(QLatin1String("s left")));
        QVERIFY(loads.wait(20000));
        QVERIFY2(loads.takeFirst().at(0).toBool(), qPrintable(w.lastError()));
        QVERIFY(clock.elapsed() >= 1900);
        QVERIFY(cpuTab->hasContent() && cpuTab->statusLabel()->isHidden());
        QVERIFY(cpuTab->view().profiles.at(0)->durationNanos >= 1'900'000'000);

        // Read again for other names: from the bytes kept, the server not asked (its count stays 1).
        QAction *collapse = w.findChild<QAction *>(QStringLiteral("collapseTemplates"));
        QVERIFY(collapse);
        collapse->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(loads.count(), 2, 10000);
        QVERIFY(loads.at(0).at(0).toBool() && loads.at(1).at(0).toBool());
        QCOMPARE(get(m_base + QStringLiteral("/served")).trimmed(), QByteArray("1"));
        collapse->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(loads.count(), 4, 10000);
        QCOMPARE(heapTab->topTable()->model()->rowCount(), heapRows);

        // A rounds tab of URLs (`qflame rounds -r NAME URL ...` without an output option): the same countdown;
        // two CPU profiles of one process are taken one after the other (Go takes one at a time).
        loads.clear();
        clock.restart();
        w.openRounds({{"a", {m_base + QStringLiteral("/debug/pprof/profile?seconds=1")}},
                      {"b", {m_base + QStringLiteral("/debug/pprof/profile?seconds=1&round=b")}}});
        auto *rounds = qobject_cast<DocumentPane *>(w.tabs()->currentWidget());
        QVERIFY(rounds && rounds != cpuTab);
        QCOMPARE(rounds->statusLabel()->text(),
                 QStringLiteral("Taking a CPU profile: 1 s left (Cancel stops it); then 1 more from the same server"));
        QTRY_VERIFY_WITH_TIMEOUT(loads.count() >= 1, 20000);
        QVERIFY2(loads.at(0).at(0).toBool(), qPrintable(w.lastError()));
        QVERIFY(clock.elapsed() >= 1900);
        QVERIFY(rounds->hasContent() && rounds->statusLabel()->isHidden());
        // A new tab asks again for what another tab fetched.
        w.openArguments({counted});
        QTRY_VERIFY_WITH_TIMEOUT(loads.count() >= 2, 20000);
        QCOMPARE(get(m_base + QStringLiteral("/served")).trimmed(), QByteArray("2"));
        setUrlReader(nullptr);
    }

    // `qflame URL` with the fetch options opens the window on the URL, fetched with them (exit 2 and the server's
    // 401 without; --time-to-paint ends the window at its first paint).
    void commandLineCredentials()
    {
        if (m_base.isEmpty())
            QSKIP("no service");
        const QString basic = m_base + QStringLiteral("/basic/heap");
        const Run refused = runQflame({QStringLiteral("--time-to-paint"), basic});
        QCOMPARE(refused.code, 2);
        QVERIFY2(refused.err.contains("HTTP 401"), refused.err.constData());
        qputenv("QFLAME_TEST_PASSWORD", "s3cret");
        qputenv("QFLAME_TEST_TOKEN", "tok-123");
        const Run painted = runQflame({QStringLiteral("--time-to-paint"), basic, QStringLiteral("--user"),
                                       QStringLiteral("alice"), QStringLiteral("--password-env"),
                                       QStringLiteral("QFLAME_TEST_PASSWORD")});
        QVERIFY2(painted.code == 0 && painted.out.startsWith("first paint: "), painted.err.constData());
        const Run bearer = runQflame({QStringLiteral("--time-to-paint"), m_base + QStringLiteral("/bearer/heap"),
                                      QStringLiteral("--token-env"), QStringLiteral("QFLAME_TEST_TOKEN")});
        QVERIFY2(bearer.code == 0 && bearer.out.startsWith("first paint: "), bearer.err.constData());
        const Run tls = runQflame({QStringLiteral("--time-to-paint"), m_tlsBase + QStringLiteral("/snapshot/heap"),
                                   QStringLiteral("--ca-file"), tlsFile("ca.pem")});
        QVERIFY2(tls.code == 0 && tls.out.startsWith("first paint: "), tls.err.constData());
        // The verbs take the same options (CliFetch).
        const Run top = runQflame({QStringLiteral("top"), basic, QStringLiteral("--tsv"), QStringLiteral("--user"),
                                   QStringLiteral("alice"), QStringLiteral("--password-env"),
                                   QStringLiteral("QFLAME_TEST_PASSWORD")});
        QVERIFY2(top.code == 0, top.err.constData());
        QCOMPARE(top.out, runQflame({QStringLiteral("top"), m_base + QStringLiteral("/snapshot/heap"), QStringLiteral("--tsv")}).out);
    }

    void faults()
    {
        if (m_base.isEmpty())
            QSKIP("no service");
        // A port nobody listens on: taken, then closed.
        QTcpServer closed;
        QVERIFY(closed.listen(QHostAddress::LocalHost));
        const QString refused = QStringLiteral("http://127.0.0.1:%1/debug/pprof/heap").arg(closed.serverPort());
        closed.close();
        expectFault({QStringLiteral("info"), refused}, refused, QStringLiteral("connection refused"), 5);
        const QString missing = m_base + QStringLiteral("/debug/pprof/nothing-here");
        expectFault({QStringLiteral("top"), missing}, missing, QStringLiteral("HTTP 404"), 5);
        const QString index = m_base + QStringLiteral("/debug/pprof/");
        expectFault({QStringLiteral("info"), index}, index, QStringLiteral("HTML page"), 5);
        // The status is known at once; its body never ends, and the default timeout is 30 s.
        const QString stuck = m_base + QStringLiteral("/stuck-error");
        expectFault({QStringLiteral("info"), stuck}, stuck, QStringLiteral("HTTP 500"), 6);
        const QString big = m_base + QStringLiteral("/big");
        expectFault({QStringLiteral("info"), big, QStringLiteral("--max-size"), QStringLiteral("1")}, big,
                    QStringLiteral("size limit of 1048576 bytes"), 5);
        // Accepts and never answers: the kernel completes the connection, nobody reads the request.
        QTcpServer silent;
        QVERIFY(silent.listen(QHostAddress::LocalHost));
        const QString hang = QStringLiteral("http://127.0.0.1:%1/debug/pprof/profile?seconds=1").arg(silent.serverPort());
        expectFault({QStringLiteral("info"), hang, QStringLiteral("--timeout"), QStringLiteral("2")}, hang,
                    QStringLiteral("timeout"), 5);
    }
};

QTEST_MAIN(tst_LiveUrl)
#include "tst_liveurl.moc"
