#include "document/DocumentPane.h"

#include "document/UrlFetches.h"


#include "export/FoldedWriter.h"
#include "export/ProfileWriter.h"

#include <QSaveFile>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>

#include <optional>
#include <utility>

namespace qflame {

std::string treeExportBytes(const CallTree &tree, bool pprof)
{
    return pprof ? gzipCompress(encodePprof(tree)) : writeFolded(tree);
}

QString writeExportFile(const QString &path, const std::string &bytes)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes.data(), qint64(bytes.size())) != qint64(bytes.size()) ||
        !f.commit())
        return DocumentPane::tr("%1: cannot write: %2").arg(path, f.errorString());
    return {};
}

// ---- DocumentPane -----------------------------------------------------------------------------------------

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
    m_watcherActive = false;
    m_progress->hide();
    m_cancel->hide();
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
    if (!m_watcher)
        return;
    auto *base = static_cast<QFutureWatcherBase *>(m_watcher);
    base->disconnect(this);
    base->cancel();
    base->deleteLater();
    m_watcher = nullptr;
    ++m_generation;
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

namespace {

DemangleMode g_demangle = DemangleMode::Simple;
bool g_collapseTemplates = false;

ReadOptions paneReadOptions()
{
    ReadOptions o;
    o.demangle = g_demangle;
    o.collapseTemplates = g_collapseTemplates;
    return o;
}

bool g_openInverted = false;

// The job startEarly began, until a pane takes it over or drops it.
struct EarlyJob {
    QStringList before, after;   // after empty: one profile
    QFuture<LoadedView> view;
    QFuture<LoadedDiff> diff;
};
std::optional<EarlyJob> g_early;

// The early job when it is of these files, read as a pane would read them now; nothing otherwise (a job of
// other files is cancelled: no pane will want it).
std::optional<EarlyJob> takeEarlyJob(const QStringList &before, const QStringList &after, Granularity granularity)
{
    std::optional<EarlyJob> job = std::exchange(g_early, std::nullopt);
    if (!job)
        return std::nullopt;
    if (job->before != before || job->after != after || granularity != Granularity::Functions ||
        g_demangle != DemangleMode::Simple || g_collapseTemplates) {
        job->view.cancel();
        job->diff.cancel();
        return std::nullopt;
    }
    return job;
}

}   // namespace

void DocumentPane::startEarly(const QStringList &files)
{
    if (files.isEmpty() || files.size() > 2)
        return;
    // What open() would start with a pane's defaults: functions, simple demangling, a diff's default options.
    EarlyJob job;
    job.before = {files.front()};
    if (files.size() == 2) {
        job.after = {files.back()};
        job.diff = loadDiffAsync(job.before, job.after, -1, Granularity::Functions, DiffOptions(), paneReadOptions());
    } else {
        SampleFilters filters;
        filters.inverted = g_openInverted;
        job.view = loadFilesAsync(job.before, -1, Granularity::Functions, paneReadOptions(), filters);
    }
    g_early = std::move(job);
}

DocumentPane::EarlyJobState DocumentPane::earlyJobState()
{
    if (!g_early)
        return EarlyJobState::None;
    const bool ended = g_early->view.isValid() ? g_early->view.isFinished() : g_early->diff.isFinished();
    return ended ? EarlyJobState::Ended : EarlyJobState::Running;
}

ReadOptions DocumentPane::readOptions()
{
    return paneReadOptions();
}

QFuture<LoadedView> DocumentPane::takeEarlyView(const QStringList &paths, Granularity granularity)
{
    std::optional<EarlyJob> early = takeEarlyJob(paths, {}, granularity);
    return early && early->view.isValid() ? early->view : QFuture<LoadedView>();
}

QFuture<LoadedDiff> DocumentPane::takeEarlyDiff(const QStringList &before, const QStringList &after,
                                                Granularity granularity, const DiffOptions &options)
{
    std::optional<EarlyJob> early = takeEarlyJob(before, after, granularity);
    const DiffOptions defaults;
    const bool sameOptions = options.normalization == defaults.normalization && options.factor == defaults.factor &&
                             options.noiseK == defaults.noiseK;
    if (early && !(early->diff.isValid() && sameOptions)) {
        early->diff.cancel();
        early.reset();
    }
    return early ? early->diff : QFuture<LoadedDiff>();
}

void DocumentPane::setDemangleMode(DemangleMode mode)
{
    g_demangle = mode;
}

DemangleMode DocumentPane::demangleMode()
{
    return g_demangle;
}

void DocumentPane::setCollapseTemplates(bool on)
{
    g_collapseTemplates = on;
}

bool DocumentPane::collapseTemplates()
{
    return g_collapseTemplates;
}

void DocumentPane::setOpenInverted(bool on)
{
    g_openInverted = on;
}

bool DocumentPane::openInverted()
{
    return g_openInverted;
}

}   // namespace qflame
