#include "controls/OpenUrlDialog.h"

#include "fetch/ProfileFetch.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>
#include <QUrlQuery>
#include <QVBoxLayout>

namespace qflame {

QString fetchStatusText(const fetch::ProfileFetch &f)
{
    // To the nearest second: the timer that asks ticks a little after each whole second of the fetch.
    const int left = int((qint64(f.seconds()) * 1000 - f.elapsedMs() + 500) / 1000);
    if (f.seconds() > 0 && left > 0)
        return OpenUrlDialog::tr("Taking a CPU profile: %n s left (Cancel stops it)", nullptr, left);
    return OpenUrlDialog::tr("Fetching %1 ...").arg(fetch::sourceNameOf(f.url()));
}

OpenUrlDialog::OpenUrlDialog(QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Open URL"));
    m_url = new QLineEdit;
    m_url->setPlaceholderText(QStringLiteral("http://localhost:6060/debug/pprof/profile"));
    m_url->setMinimumWidth(420);
    m_seconds = new QSpinBox;
    m_seconds->setRange(1, 3600);
    m_seconds->setValue(30);
    m_seconds->setSuffix(tr(" s"));
    m_seconds->setToolTip(tr("How long a CPU profile (/debug/pprof/profile) runs when the URL gives no seconds"));

    m_saved = new QComboBox;
    m_saved->addItem(tr("(none)"));
    m_saved->setToolTip(tr("Take user, secrets and CA file from a saved qryn connection (File > Connect to qryn...)"));
    m_user = new QLineEdit;
    m_user->setObjectName(QStringLiteral("user"));
    m_password = new QLineEdit;
    m_password->setObjectName(QStringLiteral("password"));
    m_password->setEchoMode(QLineEdit::Password);
    m_token = new QLineEdit;
    m_token->setObjectName(QStringLiteral("token"));
    m_token->setEchoMode(QLineEdit::Password);
    m_token->setPlaceholderText(tr("sent as Authorization: Bearer ..."));
    m_caFile = new QLineEdit;
    m_caFile->setObjectName(QStringLiteral("caFile"));
    m_caFile->setPlaceholderText(tr("PEM; the system's CAs stay trusted"));
    auto *browse = new QPushButton(tr("&Browse..."));
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("CA Certificates (PEM)"), m_caFile->text());
        if (!path.isEmpty())
            m_caFile->setText(path);
    });
    auto *caRow = new QHBoxLayout;
    caRow->addWidget(m_caFile, 1);
    caRow->addWidget(browse);
    m_timeout = new QSpinBox;
    m_timeout->setObjectName(QStringLiteral("timeout"));
    m_timeout->setRange(0, 86400);
    m_timeout->setSuffix(tr(" s"));
    m_timeout->setSpecialValueText(tr("the profile's seconds + 30 s"));
    auto *connection = new QGroupBox(tr("Connection"));
    auto *connectionForm = new QFormLayout(connection);
    connectionForm->addRow(tr("Sa&ved connection:"), m_saved);
    connectionForm->addRow(tr("U&ser:"), m_user);
    connectionForm->addRow(tr("&Password:"), m_password);
    connectionForm->addRow(tr("Bearer &token:"), m_token);
    auto *caLabel = new QLabel(tr("&CA file:"));
    caLabel->setBuddy(m_caFile);   // a row of a layout has no buddy of its own
    connectionForm->addRow(caLabel, caRow);
    connectionForm->addRow(tr("Ti&meout:"), m_timeout);
    auto *tls = new QLabel(tr("TLS certificates are always verified."));
    tls->setEnabled(false);
    connectionForm->addRow(QString(), tls);

    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("status"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel);
    auto *form = new QFormLayout;
    form->addRow(tr("&URL:"), m_url);
    form->addRow(tr("CPU profile &seconds:"), m_seconds);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(connection);
    layout->addWidget(m_status);
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &OpenUrlDialog::startFetch);
    // Cancel stops a fetch in progress and keeps the dialog; without one, it closes the dialog.
    connect(m_buttons, &QDialogButtonBox::rejected, this, [this] {
        if (m_fetch)
            m_fetch->cancel();
        else
            reject();
    });
    connect(m_url, &QLineEdit::textChanged, this, &OpenUrlDialog::matchSaved);
    connect(m_saved, &QComboBox::activated, this, [this](int index) {
        m_savedChosenByHand = true;
        chooseSaved(index);
    });
    // Credentials typed by hand are not replaced by a saved connection's as the URL changes.
    for (QLineEdit *e : {m_user, m_password, m_token, m_caFile})
        connect(e, &QLineEdit::textEdited, this, [this] { m_savedChosenByHand = true; });
    m_countdown.setInterval(1000);
    connect(&m_countdown, &QTimer::timeout, this, &OpenUrlDialog::tick);
}

OpenUrlDialog::~OpenUrlDialog() = default;

QString OpenUrlDialog::url() const
{
    QUrl u = QUrl::fromUserInput(m_url->text().trimmed());
    if (u.path().endsWith(QLatin1String("/profile")) && !QUrlQuery(u).hasQueryItem(QStringLiteral("seconds"))) {
        QUrlQuery q(u);
        q.addQueryItem(QStringLiteral("seconds"), QString::number(m_seconds->value()));
        u.setQuery(q);
    }
    return u.toString();
}

void OpenUrlDialog::setUrl(const QString &url)
{
    m_url->setText(url);
}

void OpenUrlDialog::setSeconds(int seconds)
{
    m_seconds->setValue(seconds);
}

qryn::ConnectionSettings OpenUrlDialog::settings() const
{
    qryn::ConnectionSettings s;
    s.url = QUrl(url());
    s.user = m_user->text().trimmed();
    s.password = m_password->text();
    s.bearerToken = m_token->text().trimmed();
    s.caFile = m_caFile->text().trimmed();
    s.timeoutMs = m_timeout->value() * 1000;   // 0: the profile's seconds plus a margin
    return s;
}

void OpenUrlDialog::setSettings(const qryn::ConnectionSettings &s)
{
    m_user->setText(s.user);
    m_password->setText(s.password);
    m_token->setText(s.bearerToken);
    m_caFile->setText(s.caFile);
    m_timeout->setValue(s.timeoutMs > 0 ? (s.timeoutMs + 999) / 1000 : 0);
}

bool OpenUrlDialog::connectionCovers(const QUrl &base, const QUrl &profile)
{
    if (base.scheme().compare(profile.scheme(), Qt::CaseInsensitive) != 0 ||
        base.host().compare(profile.host(), Qt::CaseInsensitive) != 0)
        return false;
    const int defaultPort = profile.scheme().compare(QLatin1String("https"), Qt::CaseInsensitive) == 0 ? 443 : 80;
    if (base.port(defaultPort) != profile.port(defaultPort))
        return false;
    QString prefix = base.path();
    while (prefix.endsWith(u'/'))
        prefix.chop(1);
    const QString path = profile.path();
    return prefix.isEmpty() || path == prefix || path.startsWith(prefix + u'/');
}

void OpenUrlDialog::setSavedConnections(SavedConnections saved)
{
    m_store = std::move(saved);
    while (m_saved->count() > 1)
        m_saved->removeItem(1);
    if (m_store.names)
        m_saved->addItems(m_store.names());
    matchSaved();
}

void OpenUrlDialog::matchSaved()
{
    if (m_savedChosenByHand || !m_store.connection)
        return;
    const QUrl profile = QUrl::fromUserInput(m_url->text().trimmed());
    int match = 0;
    for (int i = 1; i < m_saved->count() && match == 0; ++i)
        if (connectionCovers(m_store.connection(m_saved->itemText(i)).url, profile))
            match = i;
    if (match != m_saved->currentIndex()) {
        m_saved->setCurrentIndex(match);
        chooseSaved(match);
    }
}

void OpenUrlDialog::chooseSaved(int index)
{
    const quint64 generation = ++m_secretsGeneration;
    m_secretsPending = 0;
    if (index <= 0) {   // no saved connection's credentials go to a server it is not for
        qryn::ConnectionSettings none;
        none.timeoutMs = m_timeout->value() * 1000;
        setSettings(none);
        return;
    }
    if (!m_store.connection)
        return;
    const QString name = m_saved->itemText(index);
    qryn::ConnectionSettings c = m_store.connection(name);
    c.timeoutMs = m_timeout->value() * 1000;   // the saved one is a qryn request's; a profile's is its own
    setSettings(c);
    if (!m_store.withSecrets)
        return;
    m_secretsPending = 1;
    m_buttons->button(QDialogButtonBox::Open)->setEnabled(false);
    QPointer<OpenUrlDialog> self(this);
    m_store.withSecrets(name, c, [self, generation](qryn::ConnectionSettings withSecrets, QString error) {
        if (!self || generation != self->m_secretsGeneration)
            return;   // the dialog is gone, or another connection was chosen since
        self->m_secretsPending = 0;
        self->m_password->setText(withSecrets.password);
        self->m_token->setText(withSecrets.bearerToken);
        if (!error.isEmpty())
            self->m_status->setText(error);
        self->setBusy(self->m_fetch != nullptr);
        if (std::exchange(self->m_startWhenSecretsArrive, false))
            self->startFetch();
    });
}

void OpenUrlDialog::setBusy(bool busy)
{
    for (QWidget *w : {static_cast<QWidget *>(m_url), static_cast<QWidget *>(m_seconds),
                       static_cast<QWidget *>(m_saved), static_cast<QWidget *>(m_user),
                       static_cast<QWidget *>(m_password), static_cast<QWidget *>(m_token),
                       static_cast<QWidget *>(m_caFile), static_cast<QWidget *>(m_timeout)})
        w->setEnabled(!busy);
    m_buttons->button(QDialogButtonBox::Open)->setEnabled(!busy && m_secretsPending == 0);
}

void OpenUrlDialog::startFetch()
{
    if (m_fetch)
        return;
    if (m_secretsPending > 0) {   // Open pressed (or a test) before the keychain answered
        m_startWhenSecretsArrive = true;
        m_status->setText(tr("Reading the saved connection's secrets ..."));
        return;
    }
    const QUrl u(url());
    if (!fetch::isProfileUrl(u.toString())) {
        m_status->setText(tr("Give an http:// or https:// URL."));
        return;
    }
    m_fetch = new fetch::ProfileFetch(u, settings(), qint64(1) << 30, this);
    connect(m_fetch, &fetch::ProfileFetch::finished, this, &OpenUrlDialog::finished);
    setBusy(true);
    m_lastError.clear();
    m_fetch->start();
    tick();
    m_countdown.start();
}

void OpenUrlDialog::tick()
{
    if (m_fetch)
        m_status->setText(fetchStatusText(*m_fetch));
}

void OpenUrlDialog::finished()
{
    m_countdown.stop();
    fetch::ProfileFetch *f = m_fetch;
    m_fetch = nullptr;
    f->deleteLater();
    setBusy(false);
    if (f->isCancelled()) {
        m_status->setText(tr("Cancelled."));
        return;
    }
    if (!f->error().isEmpty()) {
        m_lastError = f->error();
        m_status->setText(m_lastError);
        return;
    }
    m_fetchedName = fetch::sourceNameOf(f->url());
    fetch::handOver(m_fetchedName, f->bytes());
    accept();
}

}   // namespace qflame
