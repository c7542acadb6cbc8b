#include "document/StartPage.h"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QFrame>
#include <QGridLayout>
#include <QLabel>
#include <QListWidget>
#include <QMimeData>
#include <QPushButton>
#include <QVBoxLayout>

namespace qflame {

namespace {

constexpr int kEntryRole = Qt::UserRole;

QLabel *heading(const QString &text)
{
    auto *l = new QLabel(text);
    QFont f = l->font();
    f.setBold(true);
    l->setFont(f);
    return l;
}

QStringList localFiles(const QMimeData *mime)
{
    QStringList files;
    for (const QUrl &url : mime->urls())
        if (url.isLocalFile())
            files << url.toLocalFile();
    return files;
}

}   // namespace

QString StartPage::recentText(const QString &entry)
{
    // A URL says where it fetches from: its name alone would be "profile?seconds=30".
    if (entry.startsWith(QLatin1String("http://")) || entry.startsWith(QLatin1String("https://")))
        return entry.section(QStringLiteral("://"), 1);
    const QStringList parts = entry.split(QLatin1Char('\n'));
    return parts.size() == 2 ? tr("%1 → %2").arg(QFileInfo(parts[0]).fileName(), QFileInfo(parts[1]).fileName())
                             : QFileInfo(entry).fileName();
}

StartPage::StartPage(QWidget *parent) : QWidget(parent)
{
    setAcceptDrops(true);
    auto *title = new QLabel(tr("qflame"));
    QFont big = title->font();
    big.setPointSizeF(big.pointSizeF() * 2);
    big.setBold(true);
    title->setFont(big);
    auto *subtitle = new QLabel(tr("Flamegraphs and comparisons of pprof profiles, and of a qryn server's profiles"));

    m_open = new QPushButton(tr("Open..."));
    m_open->setToolTip(tr("Open one or more profiles, each in a tab"));
    m_compare = new QPushButton(tr("Compare..."));
    m_compare->setToolTip(tr("Compare a baseline profile with a new one"));
    m_connect = new QPushButton(tr("Connect to qryn..."));
    m_connect->setToolTip(tr("Explore a qryn or Pyroscope server's profiles"));
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_open);
    buttons->addWidget(m_compare);
    buttons->addWidget(m_connect);
    buttons->addStretch(1);

    m_recent = new QListWidget;
    m_connections = new QListWidget;
    for (QListWidget *l : {m_recent, m_connections}) {
        l->setSpacing(3);
        l->setCursor(Qt::PointingHandCursor);   // a click opens
    }
    m_noRecent = new QLabel(tr("No recent files yet."));
    m_noConnections = new QLabel(tr("No saved connections: Connect to qryn... saves one."));
    for (QLabel *l : {m_noRecent, m_noConnections})
        l->setEnabled(false);
    auto *lists = new QGridLayout;
    lists->addWidget(heading(tr("Recent files and comparisons")), 0, 0);
    lists->addWidget(heading(tr("Saved connections")), 0, 1);
    lists->addWidget(m_noRecent, 1, 0);
    lists->addWidget(m_noConnections, 1, 1);
    lists->addWidget(m_recent, 2, 0);
    lists->addWidget(m_connections, 2, 1);
    lists->setColumnStretch(0, 3);
    lists->setColumnStretch(1, 2);

    m_drop = new QFrame;
    m_drop->setFrameShape(QFrame::StyledPanel);
    m_drop->setFrameShadow(QFrame::Sunken);
    m_drop->setMinimumHeight(90);
    auto *dropText = new QLabel(tr("Drop profiles here: one opens, two are compared (the first is the baseline)"));
    dropText->setAlignment(Qt::AlignCenter);
    auto *dropLayout = new QVBoxLayout(m_drop);
    dropLayout->addWidget(dropText);

    auto *column = new QVBoxLayout;
    column->addWidget(title);
    column->addWidget(subtitle);
    column->addSpacing(12);
    column->addLayout(buttons);
    column->addSpacing(12);
    column->addLayout(lists, 1);
    column->addSpacing(12);
    column->addWidget(m_drop);
    auto *outer = new QHBoxLayout(this);
    outer->addStretch(1);
    outer->addLayout(column, 6);
    outer->addStretch(1);

    connect(m_open, &QPushButton::clicked, this, &StartPage::openRequested);
    connect(m_compare, &QPushButton::clicked, this, &StartPage::compareRequested);
    connect(m_connect, &QPushButton::clicked, this, &StartPage::connectRequested);
    // One click opens: the lists hold nothing else to do.
    connect(m_recent, &QListWidget::itemClicked, this,
            [this](QListWidgetItem *item) { Q_EMIT recentActivated(item->data(kEntryRole).toString()); });
    connect(m_connections, &QListWidget::itemClicked, this,
            [this](QListWidgetItem *item) { Q_EMIT connectionActivated(item->data(kEntryRole).toString()); });
    setRecent({});
    setConnections({}, {});
}

void StartPage::setRecent(const QStringList &entries)
{
    m_recent->clear();
    for (const QString &entry : entries) {
        auto *item = new QListWidgetItem(recentText(entry), m_recent);
        item->setData(kEntryRole, entry);
        item->setToolTip(entry.split(QLatin1Char('\n')).join(QStringLiteral(" → ")));
    }
    m_recent->setVisible(!entries.isEmpty());
    m_noRecent->setVisible(entries.isEmpty());
}

void StartPage::setConnections(const QStringList &names, const QStringList &urls)
{
    m_connections->clear();
    for (qsizetype i = 0; i < names.size(); ++i) {
        const QString url = urls.value(i);
        auto *item = new QListWidgetItem(url.isEmpty() ? names[i] : tr("%1 — %2").arg(names[i], url), m_connections);
        item->setData(kEntryRole, names[i]);
        item->setToolTip(url);
    }
    m_connections->setVisible(!names.isEmpty());
    m_noConnections->setVisible(names.isEmpty());
}

void StartPage::highlightDrop(bool on)
{
    m_drop->setStyleSheet(on ? QStringLiteral("QFrame { background: palette(highlight); }") : QString());
}

void StartPage::dragEnterEvent(QDragEnterEvent *event)
{
    if (!localFiles(event->mimeData()).isEmpty()) {
        event->acceptProposedAction();
        highlightDrop(true);
    }
}

void StartPage::dragLeaveEvent(QDragLeaveEvent *event)
{
    highlightDrop(false);
    QWidget::dragLeaveEvent(event);
}

void StartPage::dropEvent(QDropEvent *event)
{
    highlightDrop(false);
    const QStringList files = localFiles(event->mimeData());
    if (files.isEmpty())
        return;
    event->acceptProposedAction();
    Q_EMIT filesDropped(files);
}

}   // namespace qflame
