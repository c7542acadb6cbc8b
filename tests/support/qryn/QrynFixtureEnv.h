// What the qryn fixture (qryn-fixture.sh ctest-up DIR) tells the tests: DIR/env, DIR/seed.env, DIR/skipped.
#pragma once

#include <QMap>
#include <QString>
#include <QUrl>

namespace qflame::test {

struct QrynFixtureEnv {
    QString dir;
    QString skipReason;              // set when the setup was skipped (no node/npm outside CI)
    QString error;                   // set when the fixture's files are missing or incomplete
    QMap<QString, QString> values;   // KEY=value of env and seed.env

    QString value(const QString &key) const { return values.value(key); }
    qint64 number(const QString &key) const { return values.value(key).toLongLong(); }
    QUrl url() const { return QUrl(value(QStringLiteral("QRYN_URL"))); }
};

// Reads DIR's files; `needSeed` requires seed.env too.
QrynFixtureEnv readQrynFixture(const QString &dir, bool needSeed = true);

}   // namespace qflame::test
