// URLs where FILEs are expected, against a live Go service built here with Debian's Go: every net/http/pprof
// endpoint read by the real binary (`qflame info URL`, `top URL --tsv`, diff, convert, rounds), its numbers
// checked against the same bytes fetched by the test and read as a file; and the faults, each one line naming
// the URL, exit status 2, within seconds: a refused port, a 404, an HTML page, an error status whose body never
// ends, a server that accepts and never answers, an answer over --max-size.
#include "GoToolchain.h"
#include "controls/OpenUrlDialog.h"
#include "fetch/ProfileFetch.h"
#include "formats/ProfileInput.h"
#include "io/InputFile.h"

#include <QDialogButtonBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QPushButton>
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

// Busy handlers and goroutines so that every profile has samples: CPU in spin, allocations in churn, a contended
// mutex and blocking channel operations. /snapshot/NAME answers the bytes of /debug/pprof/NAME taken at its first
// request, the same on every later one, so that two fetches can be compared exactly.
const char kService[] = R"GO(package main

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	_ "net/http/pprof"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"
)

var sink [][]byte

func spin(n int) float64 {
	s := 0.0
	for i := 0; i < n; i++ {
		s += float64(i%7) * 1.5
	}
	return s
}

func churn() {
	for i := 0; i < 100; i++ {
		sink = append(sink, make([]byte, 4096))
		if len(sink) > 2000 {
			sink = sink[:0]
		}
	}
}

func main() {
	runtime.SetBlockProfileRate(1)
	runtime.SetMutexProfileFraction(1)
	var mu sync.Mutex
	for g := 0; g < 2; g++ {
		go func() {
			for {
				mu.Lock()
				spin(20000)
				churn()
				mu.Unlock()
			}
		}()
	}
	ch := make(chan int)
	go func() {
		for {
			ch <- 1
			time.Sleep(time.Millisecond)
		}
	}()
	go func() {
		for range ch {
		}
	}()
	var snapMu sync.Mutex
	snaps := map[string][]byte{}
	http.HandleFunc("/snapshot/", func(w http.ResponseWriter, r *http.Request) {
		key := r.URL.RequestURI()
		snapMu.Lock()
		b, ok := snaps[key]
		snapMu.Unlock()
		if !ok {
			rec := httptest.NewRecorder()
			inner, _ := http.NewRequest("GET", strings.Replace(key, "/snapshot/", "/debug/pprof/", 1), nil)
			http.DefaultServeMux.ServeHTTP(rec, inner)
			b = rec.Body.Bytes()
			snapMu.Lock()
			snaps[key] = b
			snapMu.Unlock()
		}
		w.Write(b)
	})
	http.HandleFunc("/busy", func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, spin(1000000)) })
	// An error status whose body never ends: the client must not wait for its timeout.
	http.HandleFunc("/stuck-error", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
		w.Write([]byte("profiling is broken\n"))
		w.(http.Flusher).Flush()
		time.Sleep(120 * time.Second)
	})
	http.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Write(bytes.Repeat([]byte{0x1f}, 3<<20))
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(ln.Addr().(*net.TCPAddr).Port)
	http.Serve(ln, nil)
}
)GO";

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
    QString m_base;   // http://127.0.0.1:PORT

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
        REQUIRE_GO(go);
        QVERIFY(m_dir.isValid());
        QFile src(m_dir.filePath(QStringLiteral("main.go")));
        QVERIFY(src.open(QIODevice::WriteOnly) && src.write(kService) > 0);
        src.close();
        const Run build = runGo(go, {QStringLiteral("build"), QStringLiteral("-o"), QStringLiteral("svc"),
                                     QStringLiteral("main.go")}, m_dir.path());
        QVERIFY2(build.code == 0, build.err.constData());
        m_service.start(m_dir.filePath(QStringLiteral("svc")), QStringList());
        QVERIFY(m_service.waitForStarted());
        QVERIFY(m_service.waitForReadyRead(20000));
        const int port = m_service.readLine().trimmed().toInt();
        QVERIFY(port > 0);
        m_base = QStringLiteral("http://127.0.0.1:%1").arg(port);
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
