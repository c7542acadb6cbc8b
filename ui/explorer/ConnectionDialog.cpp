#include "explorer/ConnectionDialog.h"

#include "explorer/ConnectionStore.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace qflame::qryn {

ConnectionDialog::ConnectionDialog(ConnectionStore *store, QWidget *parent) : QDialog(parent), m_store(store)
{
    setWindowTitle(tr("Connect to qryn"));
    m_saved = new QComboBox;
    m_saved->addItem(tr("(new connection)"));
    m_saved->addItems(store->names());
    m_name = new QLineEdit;
    m_url = new QLineEdit;
    m_url->setPlaceholderText(QStringLiteral("http://127.0.0.1:3100"));
    m_user = new QLineEdit;
    m_password = new QLineEdit;
    m_password->setEchoMode(QLineEdit::Password);
    m_token = new QLineEdit;
    m_token->setEchoMode(QLineEdit::Password);
    m_tenant = new QLineEdit;
    m_caFile = new QLineEdit;
    m_caFile->setPlaceholderText(tr("PEM file of extra CAs to trust (optional)"));
    m_connect = new QCheckBox(tr("Grafana Pyroscope (Connect protocol)"));
    m_save = new QCheckBox(tr("Save this connection (secrets go to the system keychain)"));
    m_save->setChecked(true);
    m_message = new QLabel;
    m_message->setWordWrap(true);
    m_message->setStyleSheet(QStringLiteral("color: #b00020"));

    auto *form = new QFormLayout;
    form->addRow(tr("Saved:"), m_saved);
    form->addRow(tr("Name:"), m_name);
    form->addRow(tr("URL:"), m_url);
    form->addRow(tr("User:"), m_user);
    form->addRow(tr("Password:"), m_password);
    form->addRow(tr("Bearer token:"), m_token);
    form->addRow(tr("Tenant (X-Scope-OrgID):"), m_tenant);
    form->addRow(tr("CA file:"), m_caFile);
    form->addRow(m_connect);
    form->addRow(m_save);
    form->addRow(m_message);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Connect"));
    form->addRow(buttons);
    setLayout(form);
    connect(buttons, &QDialogButtonBox::accepted, this, &ConnectionDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_saved, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i > 0)
            loadSaved(m_saved->itemText(i));
    });
}

void ConnectionDialog::loadSaved(const QString &name)
{
    m_name->setText(name);
    setSettings(m_store->connection(name));
    m_store->withSecrets(name, settings(), [this, name](ConnectionSettings s, QString error) {
        if (m_name->text() != name)
            return;   // another connection was picked meanwhile
        m_password->setText(s.password);
        m_token->setText(s.bearerToken);
        m_message->setText(error);
    });
}

ConnectionSettings ConnectionDialog::settings() const
{
    ConnectionSettings s;
    s.url = QUrl::fromUserInput(m_url->text().trimmed());
    s.user = m_user->text();
    s.password = m_password->text();
    s.bearerToken = m_token->text();
    s.tenant = m_tenant->text().trimmed();
    s.caFile = m_caFile->text().trimmed();
    s.protocol = m_connect->isChecked() ? WireProtocol::Connect : WireProtocol::Qryn;
    return s;
}

void ConnectionDialog::setSettings(const ConnectionSettings &s)
{
    m_url->setText(s.url.toString());
    m_user->setText(s.user);
    m_password->setText(s.password);
    m_token->setText(s.bearerToken);
    m_tenant->setText(s.tenant);
    m_caFile->setText(s.caFile);
    m_connect->setChecked(s.protocol == WireProtocol::Connect);
}

QString ConnectionDialog::connectionName() const
{
    return m_name->text().trimmed().isEmpty() ? settings().displayUrl() : m_name->text().trimmed();
}

void ConnectionDialog::accept()
{
    const QString why = settings().validate();
    if (!why.isEmpty()) {
        m_message->setText(why);
        return;   // the dialog stays open with what was typed
    }
    if (m_save->isChecked())
        m_store->save(connectionName(), settings());
    QDialog::accept();
}

}   // namespace qflame::qryn
