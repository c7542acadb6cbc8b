// The Assembly pane's screenshots for qflame_screenshots (docs/screenshots/assembly.png, assembly-diff.png): the
// pgo-inlining test program built here with and without inlining (-gcflags=-l) and profiled; main.spin of the
// inlined build (jump gutter, Go's syntax, source interleaved), then the two builds side by side with the call to
// main.mix that became inlined marked. Without a go command it says so and shoots nothing.
#include "asmview/AsmView.h"
#include "disasm/ToolRun.h"
#include "formats/ProfileInput.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>

using namespace qflame;

namespace {

// `go ARGS` in dir, its caches inside dir and GOPATH mode (one file, no module), as tests/support/GoToolchain.h runs it.
bool runGo(const QString &go, const QStringList &args, const QString &dir)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("GOCACHE"), dir + QStringLiteral("/gocache"));
    env.insert(QStringLiteral("GOPATH"), dir + QStringLiteral("/gopath"));
    env.insert(QStringLiteral("GO111MODULE"), QStringLiteral("off"));
    env.insert(QStringLiteral("GOFLAGS"), QString());
    p.setProcessEnvironment(env);
    p.setWorkingDirectory(dir);
    p.start(go, args);
    if (!p.waitForFinished(300000) || p.exitCode() != 0) {
        qWarning("go %s: %s", qPrintable(args.join(QLatin1Char(' '))), p.readAllStandardError().constData());
        return false;
    }
    return true;
}

// The program built with `flags` in dir/name and profiled for a second: its profile, or null.
std::shared_ptr<const Profile> buildAndProfile(const QString &go, const QDir &dir, const QString &name,
                                               const QStringList &flags)
{
    dir.mkpath(name);
    const QString src = dir.filePath(name);
    QFile::copy(QStringLiteral(QFLAME_TEST_DATA "/pgo-inlining/main.go"), src + QStringLiteral("/main.go"));
    if (!runGo(go, QStringList{QStringLiteral("build")} + flags +
                       QStringList{QStringLiteral("-o"), QStringLiteral("prog"), QStringLiteral("main.go")},
               src))
        return nullptr;
    QProcess run;
    run.start(src + QStringLiteral("/prog"), {QStringLiteral("-o"), src + QStringLiteral("/cpu.pprof"),
                                             QStringLiteral("-s"), QStringLiteral("1")});
    if (!run.waitForFinished(60000) || run.exitCode() != 0)
        return nullptr;
    return readProfileFile(src + QStringLiteral("/cpu.pprof"), ReadOptions{});
}

}   // namespace

void assemblyShots(const QString &out)
{
    const QString go = findGoTool();   // PATH, else Debian's /usr/lib/go-*/bin/go
    if (go.isEmpty()) {
        qWarning("no go command (apt install golang-1.19-go): no Assembly screenshots");
        return;
    }
    QTemporaryDir tmp;
    const QDir dir(tmp.path());
    const auto inlined = buildAndProfile(go, dir, QStringLiteral("inl"), {});
    const auto plain = buildAndProfile(go, dir, QStringLiteral("noinl"), {QStringLiteral("-gcflags=-l")});
    if (!inlined || !plain)
        return;
    const size_t type = inlined->sampleTypes.size() - 1;   // cpu/nanoseconds
    AsmView view;
    view.resize(900, 560);
    view.show();
    QSignalSpy ready(&view, &AsmView::disassemblyReady);
    view.showFunction({inlined}, type, "main.spin");
    ready.wait(60000);
    QApplication::processEvents();
    view.grab().save(out + QStringLiteral("/assembly.png"));
    qInfo("wrote %s", qPrintable(out + QStringLiteral("/assembly.png")));

    view.resize(1280, 640);
    view.showFunctionDiff({plain}, {inlined}, type, "main.spin", 2.0);
    ready.wait(60000);
    QApplication::processEvents();
    view.grab().save(out + QStringLiteral("/assembly-diff.png"));
    qInfo("wrote %s", qPrintable(out + QStringLiteral("/assembly-diff.png")));
}
