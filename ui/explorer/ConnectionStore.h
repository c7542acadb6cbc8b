// Saved qryn connections: everything but the secrets in QSettings, passwords and tokens only through the system
// keychain (qtkeychain), so that no secret ever lands in a plain settings file.
#pragma once

#include "qryn/ConnectionSettings.h"

#include <QHash>
#include <QObject>

#include <functional>

class QSettings;

namespace qflame::qryn {

class ConnectionStore : public QObject {
    Q_OBJECT

public:
    // `settings` is not owned (tests inject their own file); null = the application's QSettings.
    explicit ConnectionStore(QSettings *settings = nullptr, QObject *parent = nullptr);
    ~ConnectionStore() override;

    // Without the keychain secrets live in memory for this store's lifetime only: for tests and for machines
    // without a secret service. They are still never written to the settings. A keychain that refuses a secret
    // has the same effect for that secret (and keychainError says so).
    void setKeychainEnabled(bool on) { m_keychain = on; }

    QStringList names() const;
    // The saved connection without its secrets (user, URL, tenant, CA file, protocol).
    ConnectionSettings connection(const QString &name) const;
    // Saves (or replaces) `name`; the secrets go to the keychain. `done` gets an empty string or why the
    // keychain refused (the rest is saved anyway).
    void save(const QString &name, const ConnectionSettings &settings, std::function<void(QString)> done = {});
    void remove(const QString &name);
    // Reads the secrets of `name` into a copy of `settings`; `done` gets it and an error line (empty when ok; a
    // missing secret is not an error).
    void withSecrets(const QString &name, ConnectionSettings settings,
                     std::function<void(ConnectionSettings, QString)> done);

Q_SIGNALS:
    // The keychain refused to store or to give a secret: one line for the user, naming the connection and the
    // secret's kind, never the secret.
    void keychainError(const QString &message);

private:
    QSettings *settings() const;
    void writeSecret(const QString &key, const QString &secret, std::function<void(QString)> done);
    void readSecret(const QString &key, std::function<void(QString, QString)> done);

    QSettings *m_settings;
    QSettings *m_own = nullptr;
    bool m_keychain = true;
    QHash<QString, QString> m_memory;
};

}   // namespace qflame::qryn
