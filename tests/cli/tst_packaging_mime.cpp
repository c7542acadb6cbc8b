// The shared-mime-info entry as a desktop resolves it: a MIME database built by update-mime-database from
// freedesktop.org's types plus resources/desktop/qflame-mime.xml, queried through QMimeDatabase (what Qt and KDE
// file managers use). *.pb.gz must become a pprof profile, not stay a gzip archive.
#include <QDir>
#include <QFile>
#include <QMimeDatabase>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

class tst_PackagingMime : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void typeOfFileName_data();
    void typeOfFileName();
    void pprofTypeIsDescribed();

private:
    QTemporaryDir m_dir;
};

void tst_PackagingMime::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const QString packages = m_dir.filePath(QStringLiteral("share/mime/packages"));
    QVERIFY(QDir().mkpath(packages));
    QVERIFY(QFile::copy(QStringLiteral("/usr/share/mime/packages/freedesktop.org.xml"),
                        packages + QStringLiteral("/freedesktop.org.xml")));
    QVERIFY(QFile::copy(QStringLiteral(QFLAME_SOURCE_DIR "/resources/desktop/qflame-mime.xml"),
                        packages + QStringLiteral("/qflame.xml")));
    QProcess update;
    update.start(QStringLiteral("update-mime-database"), {m_dir.filePath(QStringLiteral("share/mime"))});
    QVERIFY2(update.waitForFinished(60000), "update-mime-database (package shared-mime-info) did not run");
    QCOMPARE(update.exitCode(), 0);
    QVERIFY(QFile::exists(m_dir.filePath(QStringLiteral("share/mime/mime.cache"))));
    // Only this database: QMimeDatabase reads the XDG data dirs the first time it is used, which is below.
    qputenv("XDG_DATA_HOME", m_dir.filePath(QStringLiteral("home")).toUtf8());
    qputenv("XDG_DATA_DIRS", m_dir.filePath(QStringLiteral("share")).toUtf8());
}

void tst_PackagingMime::typeOfFileName_data()
{
    QTest::addColumn<QString>("fileName");
    QTest::addColumn<QString>("mimeType");
    QTest::newRow("Go's profile") << QStringLiteral("cpu.pb.gz") << QStringLiteral("application/x-pprof");
    QTest::newRow("pprof") << QStringLiteral("heap.pprof") << QStringLiteral("application/x-pprof");
    QTest::newRow("go test -cpuprofile") << QStringLiteral("cpu.prof") << QStringLiteral("application/x-pprof");
    QTest::newRow("upper case") << QStringLiteral("CPU.PB.GZ") << QStringLiteral("application/x-pprof");
    QTest::newRow("folded") << QStringLiteral("perf.folded") << QStringLiteral("text/x-folded-stacks");
    QTest::newRow("collapsed") << QStringLiteral("out.collapsed") << QStringLiteral("text/x-folded-stacks");
    // What we must not take over.
    QTest::newRow("other gzip") << QStringLiteral("notes.gz") << QStringLiteral("application/gzip");
    QTest::newRow("tarball") << QStringLiteral("src.tar.gz") << QStringLiteral("application/x-compressed-tar");
    QTest::newRow("json") << QStringLiteral("render.json") << QStringLiteral("application/json");
}

void tst_PackagingMime::typeOfFileName()
{
    QFETCH(QString, fileName);
    QFETCH(QString, mimeType);
    QCOMPARE(QMimeDatabase().mimeTypeForFile(fileName, QMimeDatabase::MatchExtension).name(), mimeType);
}

void tst_PackagingMime::pprofTypeIsDescribed()
{
    const QMimeType pprof = QMimeDatabase().mimeTypeForName(QStringLiteral("application/x-pprof"));
    QVERIFY(pprof.isValid());
    QCOMPARE(pprof.comment(), QStringLiteral("pprof profile"));
    QCOMPARE(pprof.globPatterns(), QStringList({QStringLiteral("*.pb.gz"), QStringLiteral("*.pprof"), QStringLiteral("*.prof")}));
    const QMimeType folded = QMimeDatabase().mimeTypeForName(QStringLiteral("text/x-folded-stacks"));
    QVERIFY(folded.inherits(QStringLiteral("text/plain")));
}

QTEST_GUILESS_MAIN(tst_PackagingMime)
#include "tst_packaging_mime.moc"
