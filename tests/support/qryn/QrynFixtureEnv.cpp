#include "QrynFixtureEnv.h"

#include <QFile>

namespace qflame::test {

namespace {

// KEY=value lines as qryn-fixture.sh writes them (printf %q: plain for URLs, ports, paths and the test password).
bool readEnvFile(const QString &path, QMap<QString, QString> *out)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return false;
    for (const QByteArray &raw : f.readAll().split('\n')) {
        const QString line = QString::fromUtf8(raw).trimmed();
        if (line.startsWith(QLatin1String("# stopped")))
            return false;   // `stop` appends this: the URL in the file no longer answers
        if (line.isEmpty() || line.startsWith(u'#'))
            continue;
        const qsizetype eq = line.indexOf(u'=');
        if (eq > 0)
            out->insert(line.left(eq), line.mid(eq + 1));
    }
    return true;
}

}   // namespace

QrynFixtureEnv readQrynFixture(const QString &dir, bool needSeed)
{
    QrynFixtureEnv env;
    env.dir = dir;
    QFile skipped(dir + QStringLiteral("/skipped"));
    if (skipped.open(QIODevice::ReadOnly)) {
        env.skipReason = QString::fromUtf8(skipped.readAll()).trimmed();
        return env;
    }
    if (!readEnvFile(dir + QStringLiteral("/env"), &env.values)) {
        env.error = QStringLiteral("%1/env is missing or the fixture was stopped: run the tests through ctest, "
                                   "whose fixture qryn_fixture_up starts qryn").arg(dir);
        return env;
    }
    if (needSeed && !readEnvFile(dir + QStringLiteral("/seed.env"), &env.values))
        env.error = QStringLiteral("%1/seed.env is missing: the fixture was started but not seeded").arg(dir);
    else if (env.value(QStringLiteral("QRYN_URL")).isEmpty())
        env.error = QStringLiteral("%1/env has no QRYN_URL").arg(dir);
    return env;
}

}   // namespace qflame::test
