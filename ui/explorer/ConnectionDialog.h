// Where a qryn (or Pyroscope) server is and how to log in: URL, basic auth, bearer token, tenant, CA file, and
// the saved connections of a ConnectionStore.
#pragma once

#include "qryn/ConnectionSettings.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;

namespace qflame::qryn {

class ConnectionStore;

class ConnectionDialog : public QDialog {
    Q_OBJECT

public:
    explicit ConnectionDialog(ConnectionStore *store, QWidget *parent = nullptr);

    ConnectionSettings settings() const;
    void setSettings(const ConnectionSettings &settings);
    QString connectionName() const;
    QComboBox *savedBox() const { return m_saved; }

    void accept() override;

private:
    void loadSaved(const QString &name);

    ConnectionStore *m_store;
    QComboBox *m_saved;
    QLineEdit *m_name, *m_url, *m_user, *m_password, *m_token, *m_tenant, *m_caFile;
    QCheckBox *m_connect, *m_save;
    QLabel *m_message;
};

}   // namespace qflame::qryn
