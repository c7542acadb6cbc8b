// The real `qflame` binary run from a test, as a user runs it: its exit status, standard output and standard
// error. One helper for every test of the command line (the binary is QFLAME_BINARY, set by tests/CMakeLists.txt).
#pragma once

#include <QByteArray>
#include <QMap>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

namespace qflame::test {

struct Run {
    int code = -1;   // -1: it did not start, crashed or ran past two minutes (and was killed)
    QByteArray out, err;
};

struct RunSetup {
    QByteArray stdinData;           // written to its standard input, which is then closed
    QString workDir;                // empty: this process's
    QMap<QString, QString> env;     // added to this process's environment
};

// Another program of the build run the same way (a test's helper standing in for `qflame`).
inline Run runProgramWith(const QString &program, const QStringList &args, const RunSetup &setup)
{
    // A window it opens (--time-to-paint, URLs) records recent files and its geometry: in a folder of this test
    // process, not in the user's settings (unless the test names one).
    static const QTemporaryDir config;
    QProcess p;
    if (!setup.workDir.isEmpty())
        p.setWorkingDirectory(setup.workDir);
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    if (config.isValid())
        e.insert(QStringLiteral("XDG_CONFIG_HOME"), config.path());
    for (auto it = setup.env.begin(); it != setup.env.end(); ++it)
        e.insert(it.key(), it.value());
    p.setProcessEnvironment(e);
    p.start(program, args);
    if (!p.waitForStarted())
        return {};
    if (!setup.stdinData.isEmpty())
        p.write(setup.stdinData);
    p.closeWriteChannel();
    if (!p.waitForFinished(120'000)) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

inline Run runQflameWith(const QStringList &args, const RunSetup &setup)
{
    return runProgramWith(QStringLiteral(QFLAME_BINARY), args, setup);
}

inline Run runQflame(const QStringList &args, const QByteArray &stdinData = {})
{
    return runQflameWith(args, {stdinData, {}, {}});
}

inline Run runQflameIn(const QString &workDir, const QStringList &args)
{
    return runQflameWith(args, {{}, workDir, {}});
}

}   // namespace qflame::test
