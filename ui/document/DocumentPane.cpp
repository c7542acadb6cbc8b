#include "document/DocumentPane.h"

#include "document/UrlFetches.h"
#include "export/StackExport.h"
#include "flame/FlameGraphWidget.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>

#include <optional>
#include <utility>

namespace qflame {

QString writeExportFileOrError(const QString &path, const std::string &bytes)
{
    try {
        writeExportFile(path.toStdString(), bytes);
    } catch (const ProfileError &e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

DocumentPane::DocumentPane(QWidget *parent) : QWidget(parent)
{
    m_sampleTypes = new QComboBox;
    m_sampleTypes->setToolTip(tr("The sample type shown (a profile can carry several: samples and CPU time, "
                                 "objects and bytes)"));
    m_sampleTypes->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_granularity = new QComboBox;
    m_granularity->setToolTip(tr("What a frame is: a function, a source line, or an address"));
    m_granularity->addItem(tr("Functions"), int(Granularity::Functions));
    m_granularity->addItem(tr("Lines"), int(Granularity::Lines));
    m_granularity->addItem(tr("Addresses"), int(Granularity::Addresses));
    m_progress = new QProgressBar;
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(200);
    m_progress->hide();
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setToolTip(tr("Stop reading: the tab keeps what it showed"));
    m_cancel->hide();
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("paneStatus"));
    m_status->setTextFormat(Qt::RichText);
    m_status->hide();
    connect(m_status, &QLabel::linkActivated, this, [this] { reopen(); });
    m_header = new QHBoxLayout;
    m_header->addWidget(new QLabel(tr("Sample type:")));
    m_header->addWidget(m_sampleTypes);
    m_header->addWidget(new QLabel(tr("Granularity:")));
    m_header->addWidget(m_granularity);
    m_headerInsert = m_header->count();
    m_header->addStretch(1);
    m_header->addWidget(m_status);
    m_header->addWidget(m_progress);
    m_header->addWidget(m_cancel);
    connect(m_cancel, &QPushButton::clicked, this, &DocumentPane::userCancel);
    connect(m_sampleTypes, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_updatingControls && m_hasContent)
            rebuild();
    });
    connect(m_granularity, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_updatingControls && m_hasContent)
            rebuild();
    });
}

void DocumentPane::addHeaderWidget(QWidget *w, int stretch)
{
    m_header->insertWidget(m_headerInsert++, w, stretch);
}

DocumentPane::~DocumentPane()
{
    cancel();   // the worker stops at its next progress check; nothing refers back to this pane
}

void DocumentPane::startedJob()
{
    m_progress->setValue(0);
    m_progress->show();
    m_cancel->show();
}

void DocumentPane::setProgress(int value)
{
    m_progress->setValue(value);
}

void DocumentPane::jobEnded()
{
    m_progress->hide();
    m_cancel->hide();
    for (const SaysReading &s : std::exchange(m_saysReading, {})) {
        if (s.graph)
            s.graph->setPlaceholderText(s.placeholder);
    }
}

void DocumentPane::sayReading(const QStringList &paths, const QList<FlameGraphWidget *> &graphs)
{
    QStringList names;
    for (const QString &p : paths)
        names << (QFileInfo(p).isFile() ? QFileInfo(p).fileName() : p);   // a URL as it was given
    const QString text = tr("Reading %1…").arg(names.join(QLatin1String(", ")));
    for (FlameGraphWidget *g : graphs) {
        m_saysReading.append({g, g->placeholderText()});
        g->setPlaceholderText(text);
    }
}

void DocumentPane::userCancel()
{
    if (m_fetches)
        m_fetches->cancel();   // its end says so in the header
    else
        cancel();
}

void DocumentPane::fetchThen(const QStringList &paths, bool reuseFetched, std::function<void()> then)
{
    cancel();
    delete std::exchange(m_fetches, nullptr);   // a fetch of what was asked before: superseded, like a job
    m_status->hide();
    const QStringList urls = UrlFetches::toFetch(paths, reuseFetched);
    if (urls.isEmpty())
        return then();
    m_fetches = new UrlFetches(this);
    auto show = [this] {
        m_status->setText(m_fetches->statusText().toHtmlEscaped());
        m_progress->setValue(m_fetches->progress());
    };
    connect(m_fetches, &UrlFetches::ticked, this, show);
    connect(m_fetches, &UrlFetches::finished, this, [this, urls, then](bool ok, bool cancelled, const QString &error) {
        m_fetches->deleteLater();
        m_fetches = nullptr;
        jobEnded();
        if (ok) {
            m_status->hide();
            return then();
        }
        if (cancelled) {   // the tab stays and says so; nothing else changes
            m_status->setText(tr("Cancelled: nothing was fetched from %1. <a href=\"again\">Fetch again</a>")
                                  .arg(urls.join(QLatin1String(", ")).toHtmlEscaped()));
            return;
        }
        m_status->hide();
        m_lastError = error;
        Q_EMIT loadFinished(false, error);
    });
    m_fetches->start(urls);
    startedJob();
    m_status->show();
    show();
}

void DocumentPane::cancel()
{
    if (!m_job || !m_job->running())
        return;
    m_job->drop();
    jobEnded();
    jobDropped();
}

void DocumentPane::fillSampleTypes(const Profile &p, int current, Granularity granularity)
{
    m_updatingControls = true;
    m_sampleTypes->clear();
    for (size_t i = 0; i < p.sampleTypes.size(); ++i) {
        QString text = QString::fromStdString(p.typeName(i) + "/" + p.unitName(i));
        if (int(i) == p.effectiveDefaultType())
            text += tr(" (default)");
        m_sampleTypes->addItem(text);
    }
    m_sampleTypes->setCurrentIndex(current);
    m_granularity->setCurrentIndex(m_granularity->findData(int(granularity)));
    m_updatingControls = false;
}

}   // namespace qflame
