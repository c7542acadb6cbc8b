// File > Open URL...: a profile from a live process (net/http/pprof) or any server of a profile. While a CPU
// profile is taken (its `seconds`), a countdown with Cancel; then the bytes are handed to the front door's URL
// reader (fetch::handOver), so the tab that opens the URL reads them without asking the server again.
//
// How to reach the server are the CLI's fetch options (--user/--password-env, --token-env, --ca-file, --timeout),
// the qryn client's ConnectionSettings: basic auth or a bearer token, a CA file to trust besides the system's (TLS
// is always verified), a timeout (0: the profile's seconds plus a margin). They can come from a saved qryn
// connection whose URL covers the profile's (the same scheme, host and port, its path a prefix): the first such is
// chosen as the URL is typed, and its secrets read from the keychain.
#pragma once

#include "qryn/ConnectionSettings.h"

#include <QDialog>
#include <QTimer>

#include <functional>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace qflame {

namespace fetch {
class ProfileFetch;
}

// The countdown's words, shared with the tabs that fetch a URL themselves (document/UrlFetches).
QString fetchStatusText(const fetch::ProfileFetch &fetch);

// Saved connections as the dialog asks for them (ui/explorer's ConnectionStore is wired in by the window, which
// may include it; this folder may not).
struct SavedConnections {
    std::function<QStringList()> names;
    std::function<qryn::ConnectionSettings(const QString &name)> connection;   // without its secrets
    // Calls `done` with `settings` and the secrets of `name`, and an error line (empty when ok), maybe later.
    std::function<void(const QString &name, qryn::ConnectionSettings settings,
                       std::function<void(qryn::ConnectionSettings, QString)> done)>
        withSecrets;
};

class OpenUrlDialog : public QDialog {
    Q_OBJECT

public:
    explicit OpenUrlDialog(QWidget *parent = nullptr);
    ~OpenUrlDialog() override;

    // The URL asked for, with `seconds` added to a CPU profile's URL that has none.
    QString url() const;
    void setUrl(const QString &url);
    void setSeconds(int seconds);
    // How the profile is fetched: the fields' user, password, token, CA file and timeout (0 = the default).
    qryn::ConnectionSettings settings() const;
    void setSettings(const qryn::ConnectionSettings &settings);
    // Offers these saved connections; the first whose URL covers the URL typed is chosen.
    void setSavedConnections(SavedConnections saved);
    QComboBox *savedBox() const { return m_saved; }
    // Whether a saved connection at `base` is meant for `profile`: same scheme, host and port, and base's path
    // (without a trailing '/') a prefix of profile's at a '/'.
    static bool connectionCovers(const QUrl &base, const QUrl &profile);
    // After the dialog was accepted: the name the tab opens (fetch::sourceNameOf of the URL fetched).
    QString fetchedName() const { return m_fetchedName; }
    // The message of the last failed fetch (also shown in the dialog).
    QString lastError() const { return m_lastError; }
    // Starts the fetch, as the Open button does (tests). Waits for a saved connection's secrets first.
    void startFetch();

private:
    void finished();
    void tick();
    void setBusy(bool busy);
    void chooseSaved(int index);
    void matchSaved();

    QLineEdit *m_url;
    QSpinBox *m_seconds;
    QComboBox *m_saved;
    QLineEdit *m_user, *m_password, *m_token, *m_caFile;
    QSpinBox *m_timeout;
    QLabel *m_status;
    QDialogButtonBox *m_buttons;
    fetch::ProfileFetch *m_fetch = nullptr;
    QTimer m_countdown;
    QString m_fetchedName, m_lastError;
    SavedConnections m_store;
    bool m_savedChosenByHand = false;
    bool m_startWhenSecretsArrive = false;
    int m_secretsPending = 0;   // reads of a saved connection's secrets not answered yet
    quint64 m_secretsGeneration = 0;
};

}   // namespace qflame
