// The process's resident memory now (/proc/self/statm), in MB, or -1 where it cannot be read: what the tests and
// benchmarks of memory given back compare (tst_windowmemory, bench/reopen_main.cpp).
#pragma once

#include <QFile>
#include <QList>

#include <unistd.h>

namespace qflame::test {

inline double residentMb()
{
    QFile statm(QStringLiteral("/proc/self/statm"));
    if (!statm.open(QIODevice::ReadOnly))
        return -1;
    const QList<QByteArray> fields = statm.readAll().split(' ');
    return fields.size() > 1 ? fields[1].toDouble() * double(sysconf(_SC_PAGESIZE)) / (1 << 20) : -1;
}

}   // namespace qflame::test
