// Running binutils (objdump, nm, readelf) and Go's tools on a binary: a QProcess with a timeout and a cap on what
// it prints, so a huge or hostile binary costs bounded time and memory. Never a decoder of our own.
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace qflame {

struct ToolOutput {
    QByteArray out, err;
    int exitCode = -1;
};

struct ToolLimits {
    int timeoutMs = 60000;
    qint64 maxOutput = 256ll << 20;   // bytes of standard output
};

// Runs `program` with `args`. Throws ProfileError (one line naming the program) when it cannot start, times out,
// prints more than the cap or dies of a signal; a non-zero exit is returned for the caller to word.
ToolOutput runTool(const QString &program, const QStringList &args, const ToolLimits &limits = {});

// The program's path: $QFLAME_OBJDUMP / $QFLAME_NM style overrides are not taken; the one on PATH, else empty.
QString findTool(const QString &name);

// Go's go command (PATH, else Debian's /usr/lib/go-*/bin/go), for `go tool objdump`; empty when absent.
QString findGoTool();

}   // namespace qflame
