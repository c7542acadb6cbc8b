#include "disasm/ToolRun.h"

#include "io/ReadOptions.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>

namespace qflame {

ToolOutput runTool(const QString &program, const QStringList &args, const ToolLimits &limits)
{
    const std::string name = QFileInfo(program).fileName().toStdString();
    QProcess p;
    p.start(program, args);
    if (!p.waitForStarted(limits.timeoutMs))
        throw ProfileError("cannot run " + name + ": " + p.errorString().toStdString());
    ToolOutput r;
    QDeadlineTimer deadline(limits.timeoutMs);
    for (;;) {
        const bool done = p.waitForFinished(50);
        r.out += p.readAllStandardOutput();
        const QByteArray err = p.readAllStandardError();
        if (r.err.size() < (1 << 20))
            r.err += err;
        if (r.out.size() > limits.maxOutput) {
            p.kill();
            p.waitForFinished(5000);
            throw ProfileError(name + " printed more than " + std::to_string(limits.maxOutput >> 20) +
                               " MiB: the range is too large to disassemble");
        }
        if (done || p.state() == QProcess::NotRunning)
            break;
        if (deadline.hasExpired()) {
            p.kill();
            p.waitForFinished(5000);
            throw ProfileError(name + " did not finish within " + std::to_string(limits.timeoutMs / 1000) + " s");
        }
    }
    r.out += p.readAllStandardOutput();
    r.err += p.readAllStandardError();
    if (p.exitStatus() != QProcess::NormalExit)
        throw ProfileError(name + " crashed");
    r.exitCode = p.exitCode();
    return r;
}

QString findTool(const QString &name)
{
    return QStandardPaths::findExecutable(name);
}

QString findGoTool()
{
    const QString onPath = QStandardPaths::findExecutable(QStringLiteral("go"));
    if (!onPath.isEmpty())
        return onPath;
    const QDir lib(QStringLiteral("/usr/lib"));
    QStringList gos = lib.entryList({QStringLiteral("go-*")}, QDir::Dirs, QDir::Name | QDir::Reversed);
    for (const QString &d : gos) {
        const QString go = lib.filePath(d + QStringLiteral("/bin/go"));
        if (QFileInfo(go).isExecutable())
            return go;
    }
    return {};
}

}   // namespace qflame
