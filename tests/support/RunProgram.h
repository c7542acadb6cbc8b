// A program run in a directory, for the tests that build and profile programs of their own (g++, perf, nm,
// objdump, c++filt, the qflame binary on files they wrote).
#pragma once

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace qflame::test {

// Its standard output; its exit status (-1 when it did not start or did not exit normally) and its standard
// error where asked; `input` written to its standard input, which is then closed. Waits up to three minutes
// (perf record of a program built by the test, under load).
inline QString runProgram(const QString &program, const QStringList &args, const QString &dir, int *exitCode = nullptr,
                          QString *errors = nullptr, const QByteArray &input = {})
{
    QProcess p;
    p.setWorkingDirectory(dir);
    p.start(program, args);
    p.write(input);
    p.closeWriteChannel();
    p.waitForFinished(180000);
    if (exitCode)
        *exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    if (errors)
        *errors = QString::fromLocal8Bit(p.readAllStandardError());
    return QString::fromUtf8(p.readAllStandardOutput());
}

}   // namespace qflame::test
