#include "controls/OpenUrlDialog.h"

#include "fetch/ProfileFetch.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QUrlQuery>
#include <QVBoxLayout>

namespace qflame {

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
    m_countdown.setInterval(1000);
    connect(&m_countdown, &QTimer::timeout, this, &OpenUrlDialog::tick);
}

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

void OpenUrlDialog::setBusy(bool busy)
{
    m_url->setEnabled(!busy);
    m_seconds->setEnabled(!busy);
    m_buttons->button(QDialogButtonBox::Open)->setEnabled(!busy);
}

void OpenUrlDialog::startFetch()
{
    if (m_fetch)
        return;
    const QUrl u(url());
    if (!fetch::isProfileUrl(u.toString())) {
        m_status->setText(tr("Give an http:// or https:// URL."));
        return;
    }
    qryn::ConnectionSettings settings;
    settings.timeoutMs = 0;   // the profile's seconds plus a margin
    m_fetch = new fetch::ProfileFetch(u, settings, qint64(1) << 30, this);
    connect(m_fetch, &fetch::ProfileFetch::finished, this, &OpenUrlDialog::finished);
    setBusy(true);
    m_lastError.clear();
    tick();
    m_countdown.start();
    m_fetch->start();
}

void OpenUrlDialog::tick()
{
    if (!m_fetch)
        return;
    const int left = int((qint64(m_fetch->seconds()) * 1000 - m_fetch->elapsedMs() + 999) / 1000);
    if (m_fetch->seconds() > 0 && left > 0)
        m_status->setText(tr("Taking a CPU profile: %n s left (Cancel stops it)", nullptr, left));
    else
        m_status->setText(tr("Fetching %1 ...").arg(fetch::sourceNameOf(m_fetch->url())));
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
