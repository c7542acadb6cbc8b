// The team's shared folder, ../shared beside the checkout: the corpus of real profiles and go tool pprof's oracle.
// CI has it; a clone alone does not, and then every test that needs it skips with one line naming what is missing
// (the project's own fixtures in tests/data cover the rest). QFLAME_SHARED_DIR in the environment overrides the
// folder the build was configured with, so "a clone alone" can be tried without one
// (QFLAME_SHARED_DIR=/nonexistent ctest ...).
#pragma once

#include <QFileInfo>
#include <QString>
#include <QtTest>

namespace qflame::test {

inline QString sharedDir()
{
    const QByteArray fromEnvironment = qgetenv("QFLAME_SHARED_DIR");
    return fromEnvironment.isEmpty() ? QStringLiteral(QFLAME_SHARED_DIR) : QString::fromLocal8Bit(fromEnvironment);
}

// A path below the shared folder, e.g. sharedPath("corpus/pprof__large.cpu").
inline QString sharedPath(const QString &relative)
{
    return sharedDir() + QLatin1Char('/') + relative;
}

inline bool haveSharedCorpus()
{
    return QFileInfo::exists(sharedPath(QStringLiteral("corpus/MANIFEST.tsv")));
}

}   // namespace qflame::test

// In a test function: skip it, with one line, when a file of the shared folder is not there.
#define QFLAME_SKIP_WITHOUT_SHARED(path)                                                                          \
    do {                                                                                                       \
        if (!QFileInfo::exists(path))                                                                          \
            QSKIP(qPrintable(QStringLiteral("needs the shared corpus: %1 is not there").arg(path)));          \
    } while (false)
