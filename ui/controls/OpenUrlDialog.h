// File > Open URL...: a profile from a live process (net/http/pprof) or any server of a profile. While a CPU
// profile is taken (its `seconds`), a countdown with Cancel; then the bytes are handed to the front door's URL
// reader (fetch::handOver), so the tab that opens the URL reads them without asking the server again.
#pragma once

#include <QDialog>
#include <QTimer>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace qflame {

namespace fetch {
class ProfileFetch;
}

class OpenUrlDialog : public QDialog {
    Q_OBJECT

public:
    explicit OpenUrlDialog(QWidget *parent = nullptr);

    // The URL asked for, with `seconds` added to a CPU profile's URL that has none.
    QString url() const;
    void setUrl(const QString &url);
    void setSeconds(int seconds);
    // After the dialog was accepted: the name the tab opens (fetch::sourceNameOf of the URL fetched).
    QString fetchedName() const { return m_fetchedName; }
    // The message of the last failed fetch (also shown in the dialog).
    QString lastError() const { return m_lastError; }
    // Starts the fetch, as the Open button does (tests).
    void startFetch();

private:
    void finished();
    void tick();
    void setBusy(bool busy);

    QLineEdit *m_url;
    QSpinBox *m_seconds;
    QLabel *m_status;
    QDialogButtonBox *m_buttons;
    fetch::ProfileFetch *m_fetch = nullptr;
    QTimer m_countdown;
    QString m_fetchedName, m_lastError;
};

}   // namespace qflame
