#include "explorer/ConnectionStore.h"

#include <qt6keychain/keychain.h>

#include <QSettings>
#include <QUrl>

#include <memory>

namespace qflame::qryn {

namespace {

const QString kService = QStringLiteral("qflame-qryn");
const QString kGroup = QStringLiteral("qryn/connections");

// A connection's settings group: names are often URLs, whose '/' QSettings would read as nested groups.
QString groupOf(const QString &name)
{
    return kGroup + QLatin1Char('/') + QString::fromLatin1(QUrl::toPercentEncoding(name));
}

QString queryGroupOf(const QString &name)
{
    return QStringLiteral("qryn/lastQuery/") + QString::fromLatin1(QUrl::toPercentEncoding(name));
}

QString passwordKey(const QString &name) { return name + QStringLiteral("/password"); }
QString tokenKey(const QString &name) { return name + QStringLiteral("/token"); }
QString connectionOf(const QString &key) { return key.section(QLatin1Char('/'), 0, -2); }
QString secretKind(const QString &key)
{
    return key.endsWith(QLatin1String("/token")) ? ConnectionStore::tr("bearer token") : ConnectionStore::tr("password");
}

}   // namespace

ConnectionStore::ConnectionStore(QSettings *settings, QObject *parent) : QObject(parent), m_settings(settings)
{
    if (!m_settings)
        m_settings = m_own = new QSettings;
}

ConnectionStore::~ConnectionStore()
{
    delete m_own;
}

QSettings *ConnectionStore::settings() const
{
    return m_settings;
}

QStringList ConnectionStore::names() const
{
    settings()->beginGroup(kGroup);
    QStringList n;
    for (const QString &g : settings()->childGroups())
        n << QUrl::fromPercentEncoding(g.toLatin1());
    settings()->endGroup();
    n.sort(Qt::CaseInsensitive);
    return n;
}

ConnectionSettings ConnectionStore::connection(const QString &name) const
{
    ConnectionSettings c;
    QSettings *s = settings();
    s->beginGroup(groupOf(name));
    c.url = QUrl(s->value(QStringLiteral("url")).toString());
    c.user = s->value(QStringLiteral("user")).toString();
    c.tenant = s->value(QStringLiteral("tenant")).toString();
    c.caFile = s->value(QStringLiteral("caFile")).toString();
    c.protocol = s->value(QStringLiteral("connect")).toBool() ? WireProtocol::Connect : WireProtocol::Qryn;
    s->endGroup();
    return c;
}

void ConnectionStore::save(const QString &name, const ConnectionSettings &c, std::function<void(QString)> done)
{
    QSettings *s = settings();
    s->beginGroup(groupOf(name));
    s->remove(QString());
    // The URL without any user info: a password typed into the URL must not reach the file either.
    s->setValue(QStringLiteral("url"), c.url.adjusted(QUrl::RemoveUserInfo).toString());
    s->setValue(QStringLiteral("user"), c.user);
    s->setValue(QStringLiteral("tenant"), c.tenant);
    s->setValue(QStringLiteral("caFile"), c.caFile);
    s->setValue(QStringLiteral("connect"), c.protocol == WireProtocol::Connect);
    s->endGroup();
    s->sync();
    auto errors = std::make_shared<QStringList>();
    auto pending = std::make_shared<int>(2);
    auto one = [errors, pending, done](const QString &error) {
        if (!error.isEmpty())
            *errors << error;
        if (--*pending == 0 && done)
            done(errors->join(QStringLiteral("; ")));
    };
    writeSecret(passwordKey(name), c.password, one);
    writeSecret(tokenKey(name), c.bearerToken, one);
}

void ConnectionStore::remove(const QString &name)
{
    settings()->remove(groupOf(name));
    writeSecret(passwordKey(name), QString(), {});
    writeSecret(tokenKey(name), QString(), {});
}

void ConnectionStore::withSecrets(const QString &name, ConnectionSettings c,
                                  std::function<void(ConnectionSettings, QString)> done)
{
    readSecret(passwordKey(name), [this, name, c, done](QString password, QString error) mutable {
        c.password = password;
        readSecret(tokenKey(name), [c, done, error](QString token, QString error2) mutable {
            c.bearerToken = token;
            done(c, error.isEmpty() ? error2 : error);
        });
    });
}

void ConnectionStore::rememberQuery(const QString &name, const SavedQuery &q)
{
    QSettings *s = settings();
    s->beginGroup(queryGroupOf(name));
    s->setValue(QStringLiteral("type"), q.profileType);
    s->setValue(QStringLiteral("selector"), q.selector);
    s->setValue(QStringLiteral("comparisonSelector"), q.comparisonSelector);
    s->setValue(QStringLiteral("groupBy"), q.groupBy);
    s->setValue(QStringLiteral("preset"), q.preset);
    s->setValue(QStringLiteral("from"), q.fromMs);
    s->setValue(QStringLiteral("to"), q.toMs);
    s->endGroup();
    s->sync();
}

std::optional<SavedQuery> ConnectionStore::lastQuery(const QString &name) const
{
    QSettings *s = settings();
    s->beginGroup(queryGroupOf(name));
    std::optional<SavedQuery> q;
    if (s->contains(QStringLiteral("type")))
        q = SavedQuery{s->value(QStringLiteral("type")).toString(), s->value(QStringLiteral("selector")).toString(),
                       s->value(QStringLiteral("comparisonSelector")).toString(),
                       s->value(QStringLiteral("groupBy")).toString(), s->value(QStringLiteral("preset")).toInt(),
                       s->value(QStringLiteral("from")).toLongLong(), s->value(QStringLiteral("to")).toLongLong()};
    s->endGroup();
    return q;
}

void ConnectionStore::writeSecret(const QString &key, const QString &secret, std::function<void(QString)> done)
{
    if (!m_keychain) {
        if (secret.isEmpty())
            m_memory.remove(key);
        else
            m_memory.insert(key, secret);
        if (done)
            done(QString());
        return;
    }
    QKeychain::Job *job;
    if (secret.isEmpty()) {
        job = new QKeychain::DeletePasswordJob(kService, this);
        static_cast<QKeychain::DeletePasswordJob *>(job)->setKey(key);
    } else {
        auto *w = new QKeychain::WritePasswordJob(kService, this);
        w->setKey(key);
        w->setTextData(secret);
        job = w;
    }
    job->setAutoDelete(true);
    connect(job, &QKeychain::Job::finished, this, [this, done, key, secret](QKeychain::Job *j) {
        // Deleting a secret that was never stored is fine; the error text never includes the secret.
        const bool failed = j->error() != QKeychain::NoError
                            && !(secret.isEmpty() && j->error() == QKeychain::EntryNotFound);
        QString error;
        if (failed && secret.isEmpty()) {
            // Not an error for anyone: a keychain that cannot be reached holds nothing of ours to remove.
            m_memory.remove(key);
        } else if (failed) {
            // Kept for this session, so that the connection still works until the application quits; written
            // nowhere else (no plain-text fallback).
            m_memory.insert(key, secret);
            error = tr("The system keychain did not store the %1 of the connection %2 (%3): it is kept until qflame "
                       "quits and written nowhere else")
                        .arg(secretKind(key), connectionOf(key), j->errorString());
            Q_EMIT keychainError(error);
        } else {
            m_memory.remove(key);
        }
        if (done)
            done(error);
    });
    job->start();
}

void ConnectionStore::readSecret(const QString &key, std::function<void(QString, QString)> done)
{
    if (!m_keychain) {
        done(m_memory.value(key), QString());
        return;
    }
    auto *job = new QKeychain::ReadPasswordJob(kService, this);
    job->setKey(key);
    job->setAutoDelete(true);
    connect(job, &QKeychain::Job::finished, this, [this, done, key](QKeychain::Job *j) {
        auto *r = static_cast<QKeychain::ReadPasswordJob *>(j);
        if (m_memory.contains(key) && r->error() != QKeychain::NoError) {
            done(m_memory.value(key), QString());   // the keychain refused it earlier in this session
        } else if (r->error() == QKeychain::EntryNotFound) {
            done(QString(), QString());
        } else if (r->error() != QKeychain::NoError) {
            const QString error = tr("The system keychain did not give the %1 of the connection %2 (%3)")
                                      .arg(secretKind(key), connectionOf(key), r->errorString());
            Q_EMIT keychainError(error);
            done(QString(), error);
        } else {
            done(r->textData(), QString());
        }
    });
    job->start();
}

}   // namespace qflame::qryn
