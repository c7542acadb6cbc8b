// Saved qryn connections: everything but the secrets in QSettings, passwords and tokens only through the system
// keychain (qtkeychain), so that no secret ever lands in a plain settings file.
#pragma once

#include "qryn/ConnectionSettings.h"

#include <QHash>
#include <QObject>

#include <functional>
#include <optional>

class QSettings;

namespace qflame::qryn {

// The explorer's last query on a connection, restored when it connects again.
struct SavedQuery {
    QString profileType, selector, comparisonSelector, groupBy;
    int preset = 1;             // QrynExplorer::Preset
    qint64 fromMs = 0, toMs = 0;   // the custom range (preset Custom)
    bool operator==(const SavedQuery &) const = default;
};

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

    // The last query of the connection `name` (a saved connection's name, or a URL): kept in the settings, beside
    // the connections and not removed with one (the explorer remembers a URL's query too).
    void rememberQuery(const QString &name, const SavedQuery &query);
    std::optional<SavedQuery> lastQuery(const QString &name) const;

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
