// Debian's Go (golang-1.19-go) for the tests that build real Go programs and ask go tool pprof: where it is, and
// running it with its caches inside the test's own directory.
#pragma once

#include "PgoTestSupport.h"

#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

namespace qflame::pgotest {

// The go command of golang-1.19-go (packaging/setup.sh installs it; Debian keeps it off PATH).
inline QString goBinary()
{
    const QString onPath = QStandardPaths::findExecutable(QStringLiteral("go"));
    if (!onPath.isEmpty())
        return onPath;
    const QString debian = QStringLiteral("/usr/lib/go-1.19/bin/go");
    return QFileInfo(debian).isExecutable() ? debian : QString();
}

// Skips without Go on a developer's machine; on CI (CI=true) a missing Go is a failure, never a silent skip.
#define REQUIRE_GO(go)                                                                                       \
    const QString go = goBinary();                                                                           \
    if (go.isEmpty()) {                                                                                      \
        if (qEnvironmentVariableIsSet("CI"))                                                                 \
            QFAIL("no go command: packaging/setup.sh installs golang-1.19-go");                              \
        QSKIP("no go command (apt install golang-1.19-go)");                                                 \
    }

inline Run runGo(const QString &go, const QStringList &args, const QString &workDir)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("GOCACHE"), workDir + QStringLiteral("/gocache"));
    env.insert(QStringLiteral("GOPATH"), workDir + QStringLiteral("/gopath"));
    env.insert(QStringLiteral("GO111MODULE"), QStringLiteral("off"));   // one file, no module
    env.insert(QStringLiteral("GOFLAGS"), QString());
    p.setProcessEnvironment(env);
    p.setWorkingDirectory(workDir);
    p.start(go, args);
    p.waitForFinished(300000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

}   // namespace qflame::pgotest
