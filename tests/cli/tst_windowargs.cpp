// The window's command line, run as a user runs it (`qflame ...`, offscreen): --time-to-paint, --max-size, and
// one line instead of a crash where there is no display; which files are read before the window exists, and that
// the window's tab takes over the job begun for them, in the window module and in qflame-gui alike.
#include "RunQflame.h"
#include "WindowFiles.h"

#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using qflame::test::Run;
using qflame::test::runQflame;

namespace {

// The phase marks on standard error (QFLAME_TRACE_PHASES=1), in order; `at` gets each one's time.
QStringList phaseSteps(const QByteArray &err, QMap<QString, double> *at = nullptr)
{
    QStringList steps;
    for (const QByteArray &line : err.split('\n')) {
        const QRegularExpressionMatch m =
            QRegularExpression(QStringLiteral("^phase (\\d+\\.\\d\\d) (.+)$")).match(QString::fromUtf8(line));
        if (!m.hasMatch())
            continue;   // Qt's own lines
        steps << m.captured(2);
        if (at)
            at->insert(m.captured(2), m.captured(1).toDouble());
    }
    return steps;
}

QString data(const char *name)
{
    return QStringLiteral(QFLAME_TEST_DATA "/") + QLatin1String(name);
}

}   // namespace

class tst_WindowArgs : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void timeToPaint();
    void phasesTraced_data();
    void phasesTraced();
    void foreignHandoffRefused_data();
    void foreignHandoffRefused();
    void windowFiles_data();
    void windowFiles();
    void windowMaxSize();
    void windowWithoutDisplay_data();
    void windowWithoutDisplay();
};

void tst_WindowArgs::timeToPaint()
{
    // Offscreen (the tests' platform): one line with the milliseconds from the process's start, status 0; a
    // profile and a comparison alike. What the time is, bench/ measures; here it must be a plausible count.
    for (const QStringList &files : {QStringList{data("gen__baseline.cpu.pb.gz")},
                                     QStringList{data("gen__baseline.cpu.pb.gz"), data("gen__optimized.cpu.pb.gz")}}) {
        const Run run = runQflame(QStringList{QStringLiteral("--time-to-paint")} + files);
        QCOMPARE(run.code, 0);
        const QRegularExpressionMatch m =
            QRegularExpression(QStringLiteral("^first paint: (\\d+) ms\n$")).match(QString::fromUtf8(run.out));
        QVERIFY2(m.hasMatch(), run.out.constData());
        QVERIFY(m.captured(1).toInt() > 0 && m.captured(1).toInt() < 60000);
    }
    const Run missing = runQflame({QStringLiteral("--time-to-paint"), QStringLiteral("/nonexistent.pb.gz")});
    QCOMPARE(missing.code, 2);
    QVERIFY2(missing.err.contains("qflame: /nonexistent.pb.gz: cannot open: No such file or directory\n"),
             missing.err.constData());
    QVERIFY(missing.out.isEmpty());
    QCOMPARE(runQflame({QStringLiteral("--time-to-paint")}).code, 1);
}

void tst_WindowArgs::phasesTraced_data()
{
    QTest::addColumn<QString>("module");   // QFLAME_WINDOW_MODULE: unset (null) or empty (none: qflame-gui started)
    QTest::addColumn<QString>("starts");   // the window's first mark
    QTest::addColumn<QString>("absent");   // the other's
    QTest::newRow("window module") << QString() << QStringLiteral("window module starts")
                                   << QStringLiteral("qflame-gui starts");
    QTest::newRow("qflame-gui started") << QStringLiteral("") << QStringLiteral("qflame-gui starts")
                                        << QStringLiteral("window module starts");
}

void tst_WindowArgs::phasesTraced()
{
    // QFLAME_TRACE_PHASES=1: the window's steps on standard error, on one clock from `qflame`'s start, through its
    // loading of the window module or its exec of qflame-gui (where the module is not there). Either way the job
    // that began before the window (in `qflame`, or in qflame-gui before its application) is the one the tab
    // takes over. The reading thread starts before the application, so only the GUI thread's marks have an order.
    QFETCH(QString, module);
    QFETCH(QString, starts);
    QFETCH(QString, absent);
    qflame::test::RunSetup setup;
    setup.env.insert(QStringLiteral("QFLAME_TRACE_PHASES"), QStringLiteral("1"));
    if (!module.isNull())
        setup.env.insert(QStringLiteral("QFLAME_WINDOW_MODULE"), module);
    const Run run =
        qflame::test::runQflameWith({QStringLiteral("--time-to-paint"), data("gen__baseline.cpu.pb.gz")}, setup);
    QCOMPARE(run.code, 0);
    QMap<QString, double> at;
    const QStringList steps = phaseSteps(run.err, &at);
    const QStringList gui{QStringLiteral("qflame starts"), starts, QStringLiteral("application"),
                          QStringLiteral("window shown"), QStringLiteral("early job taken over"),
                          QStringLiteral("first paint")};
    for (const QString &step : gui + QStringList{QStringLiteral("read"), QStringLiteral("tree")})
        QVERIFY2(steps.count(step) == 1, qPrintable(step + QStringLiteral(" in ") + steps.join(QLatin1Char(','))));
    QVERIFY2(!steps.contains(absent), qPrintable(steps.join(QLatin1Char(','))));
    QCOMPARE(steps.front(), gui.front());
    QCOMPARE(steps.back(), gui.back());
    QVERIFY(at[starts] > 0);   // the clock went on
    for (int i = 1; i < gui.size(); ++i)
        QVERIFY2(at[gui[i - 1]] <= at[gui[i]], qPrintable(gui[i]));
    QVERIFY(at[QStringLiteral("read")] <= at[QStringLiteral("tree")]);
    QVERIFY(at[QStringLiteral("tree")] <= at[QStringLiteral("first paint")]);
}

void tst_WindowArgs::foreignHandoffRefused_data()
{
    QTest::addColumn<QString>("mode");   // qflame-test-handoff's: "same" as `qflame`, or another build's
    QTest::addColumn<int>("reads");      // "read" marks: the handed job's, and the window's own where refused
    QTest::newRow("this build's") << QStringLiteral("same") << 1;
    QTest::newRow("another version") << QStringLiteral("version") << 2;
    QTest::newRow("another size") << QStringLiteral("size") << 2;
}

void tst_WindowArgs::foreignHandoffRefused()
{
    // A handoff whose version or size is not the module's comes from another build, whose job may be laid out
    // otherwise: the module leaves it alone (done here before the module starts) and the window starts its own
    // read, as qflame-gui does, which its tab takes over. So the file is read twice, where this build's job is
    // the only read.
    QFETCH(QString, mode);
    QFETCH(int, reads);
    qflame::test::RunSetup setup;
    setup.env.insert(QStringLiteral("QFLAME_TRACE_PHASES"), QStringLiteral("1"));
    const Run run = qflame::test::runProgramWith(QStringLiteral(QFLAME_HANDOFF_PROGRAM),
                                                 {mode, data("gen__baseline.cpu.pb.gz")}, setup);
    QCOMPARE(run.code, 0);
    QVERIFY2(QRegularExpression(QStringLiteral("^first paint: \\d+ ms\n$")).match(QString::fromUtf8(run.out)).hasMatch(),
             run.out.constData());
    const QStringList steps = phaseSteps(run.err);
    QVERIFY2(steps.count(QStringLiteral("window module starts")) == 1, qPrintable(steps.join(QLatin1Char(','))));
    QVERIFY2(steps.count(QStringLiteral("read")) == reads, qPrintable(steps.join(QLatin1Char(','))));
    QVERIFY2(steps.count(QStringLiteral("early job taken over")) == 1, qPrintable(steps.join(QLatin1Char(','))));
    QCOMPARE(steps.back(), QStringLiteral("first paint"));
}

void tst_WindowArgs::windowFiles_data()
{
    // The command lines whose files are read before the window exists (by `qflame` itself when it loads the window
    // module): local files and the window's three options only; anything else leaves the files to the window.
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QStringList>("files");   // empty: none read early
    QTest::addColumn<bool>("inverted");
    QTest::addColumn<qint64>("maxBytes");   // -1: none given
    const QString base = data("gen__baseline.cpu.pb.gz"), next = data("gen__optimized.cpu.pb.gz");
    const QString paint = QStringLiteral("--time-to-paint"), cap = QStringLiteral("--max-size");
    QTest::newRow("a profile") << QStringList{base} << QStringList{base} << false << qint64(-1);
    QTest::newRow("a comparison, timed") << QStringList{paint, base, next} << QStringList{base, next} << false
                                         << qint64(-1);
    QTest::newRow("bottom-up") << QStringList{QStringLiteral("--inverted"), base} << QStringList{base} << true
                               << qint64(-1);
    QTest::newRow("cap, two words") << QStringList{cap, QStringLiteral("3"), base} << QStringList{base} << false
                                    << qint64(3 << 20);
    QTest::newRow("cap, one word") << QStringList{base, QStringLiteral("--max-size=2")} << QStringList{base}
                                   << false << qint64(2 << 20);
    QTest::newRow("cap of zero") << QStringList{cap, QStringLiteral("0"), base} << QStringList() << false
                                 << qint64(-1);
    QTest::newRow("cap without a value") << QStringList{base, cap} << QStringList() << false << qint64(-1);
    QTest::newRow("three files") << QStringList{base, next, base} << QStringList() << false << qint64(-1);
    QTest::newRow("no file") << QStringList{paint} << QStringList() << false << qint64(-1);
    QTest::newRow("a verb") << QStringList{QStringLiteral("top"), base} << QStringList() << false << qint64(-1);
    QTest::newRow("a missing file") << QStringList{QStringLiteral("/nonexistent.pb.gz")} << QStringList() << false
                                    << qint64(-1);
    QTest::newRow("a folder") << QStringList{QStringLiteral(QFLAME_TEST_DATA)} << QStringList() << false
                              << qint64(-1);
    QTest::newRow("a URL") << QStringList{QStringLiteral("http://localhost:6060/debug/pprof/heap")} << QStringList()
                           << false << qint64(-1);
    QTest::newRow("Qt's own option") << QStringList{QStringLiteral("-platform"), QStringLiteral("offscreen"), base}
                                     << QStringList() << false << qint64(-1);
    QTest::newRow("help") << QStringList{QStringLiteral("--help")} << QStringList() << false << qint64(-1);
}

void tst_WindowArgs::windowFiles()
{
    QFETCH(QStringList, args);
    QFETCH(QStringList, files);
    QFETCH(bool, inverted);
    QFETCH(qint64, maxBytes);
    std::vector<QByteArray> words{QByteArrayLiteral("qflame")};
    for (const QString &a : std::as_const(args))
        words.push_back(a.toLocal8Bit());
    std::vector<char *> argv;
    for (QByteArray &w : words)
        argv.push_back(w.data());
    argv.push_back(nullptr);
    const std::optional<qflame::WindowFiles> window = qflame::windowFilesOf(int(words.size()), argv.data());
    QCOMPARE(window.has_value(), !files.isEmpty());
    if (!window)
        return;
    QCOMPARE(window->files, files);
    QCOMPARE(window->inverted, inverted);
    QCOMPARE(window->maxReadBytes ? qint64(*window->maxReadBytes) : qint64(-1), maxBytes);
}

void tst_WindowArgs::windowMaxSize()
{
    // The window's cap on what it reads (`qflame --max-size MIB FILE`, issue #35: an hour of perf script is 11 GB,
    // over the default 1 GiB). A folded-stacks file of 1,600,000 bytes, raw: over a 1 MiB cap (1,048,576 bytes),
    // under a 2 MiB one and under the default.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString big = dir.filePath(QStringLiteral("big.folded"));
    {
        QFile f(big);
        QVERIFY(f.open(QIODevice::WriteOnly));
        const QByteArray line("main;work;lea 1\n");   // 16 bytes
        QCOMPARE(line.size(), 16);
        for (int i = 0; i < 100000; ++i)
            f.write(line);
    }
    QCOMPARE(QFileInfo(big).size(), qint64(1600000));
    const QString paint = QStringLiteral("--time-to-paint");
    for (const QStringList &cap : {QStringList{QStringLiteral("--max-size"), QStringLiteral("1")},
                                   QStringList{QStringLiteral("--max-size=1")}}) {
        const Run refused = runQflame(QStringList{paint} + cap + QStringList{big});
        QCOMPARE(refused.code, 2);
        // The reader's line, then how to open it in the window.
        QVERIFY2(refused.err.contains("qflame: " + big.toUtf8() +
                                      ": the file is larger than the size limit of 1048576 bytes\n\n"
                                      "The window reads at most 1 MiB of a profile (after decompression). To open a "
                                      "larger one, start qflame with a higher limit: qflame --max-size MIB FILE\n"),
                 refused.err.constData());
        QVERIFY(refused.out.isEmpty());
    }
    for (const QStringList &args : {QStringList{QStringLiteral("--max-size"), QStringLiteral("2"), paint, big},
                                    QStringList{paint, big}}) {
        const Run run = runQflame(args);
        QCOMPARE(run.code, 0);
        QVERIFY2(run.out.startsWith("first paint: "), run.err.constData());
    }
    // A size that is not a count of MiB is the verbs' usage error, before any window.
    for (const QString &wrong : {QStringLiteral("0"), QStringLiteral("x"), QStringLiteral("-3")}) {
        const Run run = runQflame({QStringLiteral("--max-size"), wrong, paint, big});
        QCOMPARE(run.code, 1);
        QVERIFY2(run.err.contains("--max-size takes a size in MiB, not '" + wrong.toUtf8() + "'"), run.err.constData());
    }
    const Run missing = runQflame({paint, big, QStringLiteral("--max-size")});
    QCOMPARE(missing.code, 1);
    QVERIFY2(missing.err.contains("--max-size needs a value (MiB)"), missing.err.constData());
}

void tst_WindowArgs::windowWithoutDisplay_data()
{
    QTest::addColumn<QString>("platform");   // QT_QPA_PLATFORM, "" for unset
    QTest::addColumn<QString>("display");    // DISPLAY, "" for unset
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("why");        // what the line says in its parentheses
    const QString none = QStringLiteral("neither DISPLAY nor WAYLAND_DISPLAY is set");
    QTest::newRow("file") << QString() << QString() << QStringList{data("gen__baseline.cpu.pb.gz")} << none;
    QTest::newRow("comparison") << QString() << QString()
                                << QStringList{data("gen__baseline.cpu.pb.gz"), data("gen__optimized.cpu.pb.gz")}
                                << none;
    QTest::newRow("no arguments") << QString() << QString() << QStringList{} << none;
    // An unknown verb is taken for a file name, which opens the window.
    QTest::newRow("unknown verb") << QString() << QString() << QStringList{QStringLiteral("tpo")} << none;
    QTest::newRow("xcb asked for") << QStringLiteral("xcb") << QString() << QStringList{} << none;
    // rounds without --tsv, --csv or --markdown is the window's rounds tab.
    QTest::newRow("rounds tab") << QString() << QString()
                                << QStringList{QStringLiteral("rounds"), QStringLiteral("-r"), QStringLiteral("a"),
                                               data("gen__baseline.cpu.pb.gz")}
                                << none;
    // A DISPLAY that names no X server: Qt's xcb plugin gives up with a fatal message, which becomes the line.
    QTest::newRow("unreachable display") << QStringLiteral("xcb") << QStringLiteral(":93") << QStringList{}
                                         << QStringLiteral("could not connect to display :93");
}

void tst_WindowArgs::windowWithoutDisplay()
{
    QFETCH(QString, platform);
    QFETCH(QString, display);
    QFETCH(QStringList, args);
    QFETCH(QString, why);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char *name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
        env.remove(QLatin1String(name));
    if (!platform.isEmpty())
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), platform);
    if (!display.isEmpty())
        env.insert(QStringLiteral("DISPLAY"), display);
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(QFLAME_BINARY), args);
    QVERIFY(p.waitForFinished(30000));
    const QByteArray err = p.readAllStandardError();
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);   // no SIGABRT
    QCOMPARE(p.exitCode(), 1);
    const QByteArray tail = "); without one, these verbs work: info, top, diff, convert, merge, pgo, rounds, list, graph, disasm, heatmap (qflame --help)\n";
    QVERIFY2(err.startsWith("qflame: the window needs a display (") && err.endsWith(tail), err.constData());
    QCOMPARE(err.count('\n'), 1);
    if (!why.isEmpty())
        QCOMPARE(err, "qflame: the window needs a display (" + why.toUtf8() + tail);
    QVERIFY(p.readAllStandardOutput().isEmpty());
}

QTEST_GUILESS_MAIN(tst_WindowArgs)
#include "tst_windowargs.moc"
