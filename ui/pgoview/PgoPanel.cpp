#include "pgoview/PgoPanel.h"

#include "controls/TableSizing.h"
#include "io/ReadOptions.h"
#include "pgo/PgoTrim.h"
#include "pgo/Preprofile.h"
#include "pprof/Units.h"
#include "pgoview/PgoModels.h"

#include <QDoubleSpinBox>
#include <QEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSlider>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <stdexcept>

namespace qflame {

PgoAnalysis analysePgo(const ProfileList &profiles, uint64_t inputBytes, const ProfileList &base, double threshold)
{
    PgoAnalysis a;
    try {
        auto edges = std::make_shared<PgoEdges>(computePgoEdges(profiles, threshold));
        a.readiness = pgoReadiness(profiles, *edges, inputBytes);
        a.candidates = devirtualisationCandidates(*edges);
        a.edges = std::move(edges);
    } catch (const ProfileError &e) {
        a.error = QString::fromStdString(e.what());
        return a;
    }
    if (!base.empty()) {
        try {
            a.inlining = std::make_shared<InliningChanges>(computeInliningChanges(base, profiles, -1, threshold));
        } catch (const ProfileError &e) {
            a.inliningError = QString::fromStdString(e.what());
        }
    }
    return a;
}

std::vector<uint8_t> framesOfFunctions(const FrameTable &frames, const std::string &caller, const std::string &callee)
{
    std::vector<uint8_t> flags(frames.size(), 0);
    for (FrameId f = 1; f < frames.size(); ++f) {
        const std::string &name = frames.strings().str(frames.frame(f).key.name);
        flags[f] = !name.empty() && (name == caller || name == callee);
    }
    return flags;
}

namespace {

QString sizeText(uint64_t bytes)
{
    return QString::fromStdString(formatFileSize(bytes));
}

// `names`: the columns of names, which take the width (Go names are long); numbers keep theirs.
QTableView *makeTable(QAbstractItemModel *model, std::initializer_list<int> names)
{
    auto *t = new QTableView;
    t->setModel(model);
    t->setSortingEnabled(true);
    t->sortByColumn(-1, Qt::AscendingOrder);   // the model's order (heaviest first) until a header is clicked
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setSelectionMode(QAbstractItemView::SingleSelection);
    t->verticalHeader()->hide();
    t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 6);
    t->horizontalHeader()->setStretchLastSection(false);
    for (int c : names)
        t->horizontalHeader()->setSectionResizeMode(c, QHeaderView::Stretch);
    t->setWordWrap(false);
    t->setTextElideMode(Qt::ElideMiddle);   // Go names differ at both ends: package path and method
    return t;
}

// The readiness verdict's colour by level: what fails the build in red, what weakens PGO in amber; lighter
// shades on a dark window, where the dark ones would not read.
QString levelColor(bool dark, PgoLevel level)
{
    switch (level) {
    case PgoLevel::Error: return dark ? QStringLiteral("#ef5350") : QStringLiteral("#d32f2f");
    case PgoLevel::Warning: return dark ? QStringLiteral("#ffb74d") : QStringLiteral("#c77700");
    case PgoLevel::Ok: break;
    }
    return dark ? QStringLiteral("#81c784") : QStringLiteral("#2e7d32");
}

QString writeFile(const QString &path, const std::string &bytes)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes.data(), qint64(bytes.size())) != qint64(bytes.size()) ||
        !f.commit())
        return PgoPanel::tr("%1: cannot write: %2").arg(path, f.errorString());
    return {};
}

}   // namespace

PgoPanel::PgoPanel(QWidget *parent) : QWidget(parent)
{
    m_readiness = new QLabel;
    m_readiness->setTextFormat(Qt::RichText);
    m_readiness->setWordWrap(true);
    m_readiness->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_slider = new QSlider(Qt::Horizontal);
    m_slider->setRange(0, 100);
    m_slider->setValue(int(kPgoDefaultHotThreshold));
    m_slider->setMaximumWidth(220);
    m_slider->setToolTip(tr("The compiler's -d=pgoinlinecdfthreshold: the heaviest edges that make up this share "
                            "of the weight (and the one that crosses it) are hot and get a larger inlining budget"));
    m_spin = new QDoubleSpinBox;
    m_spin->setRange(0, 100);
    m_spin->setDecimals(1);
    m_spin->setSuffix(QStringLiteral(" %"));
    m_spin->setValue(kPgoDefaultHotThreshold);
    m_spin->setToolTip(m_slider->toolTip());
    m_hot = new QLabel;
    m_filter = new QLineEdit;
    m_filter->setPlaceholderText(tr("Filter caller or callee (regex)"));
    m_filter->setClearButtonEnabled(true);
    m_saveTrimmed = new QPushButton(tr("Save for go build -pgo..."));
    m_saveTrimmed->setToolTip(tr("The profile trimmed to what the compiler reads (the last two frames of each "
                                 "sample, with start lines): the same edges, a fraction of the size"));
    m_savePreprofile = new QPushButton(tr("Save preprofile..."));
    m_savePreprofile->setToolTip(tr("go tool preprofile's text, which go build -pgo reads from Go 1.23 on without "
                                    "parsing a protobuf in every package"));

    m_edgeModel = new PgoEdgeModel(this);
    m_edgeFilter = new PgoEdgeFilter(this);
    m_edgeFilter->setSourceModel(m_edgeModel);
    m_edgeTable = makeTable(m_edgeFilter, {PgoEdgeModel::Caller, PgoEdgeModel::Callee});
    m_edgeTable->sortByColumn(PgoEdgeModel::Rank, Qt::AscendingOrder);
    m_candidatesModel = new PgoCandidatesModel(this);
    auto *candidatesProxy = new QSortFilterProxyModel(this);
    candidatesProxy->setSortRole(kPgoSortRole);
    candidatesProxy->setSourceModel(m_candidatesModel);
    m_candidatesTable = makeTable(candidatesProxy, {PgoCandidatesModel::Caller, PgoCandidatesModel::Heaviest});
    m_inliningModel = new InliningModel(this);
    auto *inliningProxy = new QSortFilterProxyModel(this);
    inliningProxy->setSortRole(kPgoSortRole);
    inliningProxy->setSourceModel(m_inliningModel);
    m_inliningTable = makeTable(inliningProxy, {InliningModel::Caller, InliningModel::Callee});
    m_hotChangesModel = new HotEdgeChangesModel(this);
    auto *hotProxy = new QSortFilterProxyModel(this);
    hotProxy->setSortRole(kPgoSortRole);
    hotProxy->setSourceModel(m_hotChangesModel);
    m_hotChangesTable = makeTable(hotProxy, {HotEdgeChangesModel::Caller, HotEdgeChangesModel::Callee});

    m_tabs = new QTabWidget;
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_edgeTable, tr("Edges"));
    m_tabs->addTab(m_candidatesTable, tr("Devirtualisation candidates"));
    m_tabs->addTab(m_inliningTable, tr("Inlining changes"));
    m_tabs->addTab(m_hotChangesTable, tr("Hot edges appeared / vanished"));
    m_tabs->setTabVisible(2, false);   // a comparison's only
    m_tabs->setTabVisible(3, false);
    m_status = new QLabel;
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Hot threshold:")));
    controls->addWidget(m_slider);
    controls->addWidget(m_spin);
    controls->addWidget(m_hot, 1);
    controls->addWidget(m_filter, 1);
    controls->addWidget(m_saveTrimmed);
    controls->addWidget(m_savePreprofile);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_readiness);
    layout->addLayout(controls);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(m_status);

    connect(m_slider, &QSlider::valueChanged, this, [this](int v) { m_spin->setValue(v); });
    connect(m_spin, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        const QSignalBlocker block(m_slider);   // 99.5 leaves the slider at 99 without moving the value back
        m_slider->setValue(int(v));
        applyThreshold();
    });
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString &text) {
        const QRegularExpression re(text);
        m_filter->setStyleSheet(re.isValid() ? QString() : QStringLiteral("color: #d32f2f"));
        if (re.isValid())
            m_edgeFilter->setFilterRegularExpression(re);
    });
    connect(m_edgeTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                const PgoEdge *e = m_edgeModel->edge(m_edgeFilter->mapToSource(current).row());
                Q_EMIT edgeSelected(e ? e->caller : std::string(), e ? e->callee : std::string());
            });
    connect(m_saveTrimmed, &QPushButton::clicked, this, [this] { saveTrimmed(); });
    connect(m_savePreprofile, &QPushButton::clicked, this, [this] { savePreprofile(); });
    m_hotChangesTimer.setSingleShot(true);
    m_hotChangesTimer.setInterval(300);
    connect(&m_hotChangesTimer, &QTimer::timeout, this, &PgoPanel::recomputeHotChanges);
    show(PgoAnalysis{});
}

PgoPanel::~PgoPanel() = default;   // the jobs hold only their own copies; their results are dropped

void PgoPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange && !m_computing)
        showReadiness();   // its colours follow the palette
    QWidget::changeEvent(event);
}

QSortFilterProxyModel *PgoPanel::edgeFilter() const
{
    return m_edgeFilter;
}

void PgoPanel::setProfiles(ProfileList profiles, uint64_t inputBytes)
{
    if (m_base.empty() && profiles == m_profiles && (m_analysis.edges || !m_analysis.error.isEmpty() || m_computing))
        return;   // the tab rebuilt its tree (filters, granularity): the compiler sees the same profiles
    start({}, std::move(profiles), inputBytes);
}

void PgoPanel::setComparison(ProfileList base, ProfileList next, uint64_t inputBytes)
{
    if (base == m_base && next == m_profiles && (m_analysis.edges || !m_analysis.error.isEmpty() || m_computing))
        return;
    start(std::move(base), std::move(next), inputBytes);
}

void PgoPanel::start(ProfileList base, ProfileList profiles, uint64_t inputBytes)
{
    m_base = std::move(base);
    m_profiles = std::move(profiles);
    m_inputBytes = inputBytes;
    m_computing = true;
    m_hotChangesThreshold = threshold();
    m_readiness->setText(tr("Computing the PGO edges…"));
    setStatus(QString(), false);
    // The edge walk reads every sample: on the pool, as the tab's own jobs. A newer request supersedes the running
    // one, whose result is dropped; so is a recomputation of the hot edges of the profiles replaced.
    m_hotChangesJob.drop();
    m_analysisJob.start(
        [profiles = m_profiles, base = m_base, inputBytes, t = threshold()] {
            return analysePgo(profiles, inputBytes, base, t);
        },
        [this](PgoAnalysis analysis) { show(std::move(analysis)); });
}

PgoLevel PgoPanel::worstReadinessLevel() const
{
    if (m_computing || !m_analysis.error.isEmpty())
        return PgoLevel::Ok;
    PgoLevel worst = m_analysis.inliningError.isEmpty() ? PgoLevel::Ok : PgoLevel::Warning;
    for (const PgoReadinessLine &l : m_analysis.readiness)
        worst = std::max(worst, l.level);
    return worst;
}

void PgoPanel::showReadiness()
{
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    QStringList html, plain;
    if (!m_analysis.error.isEmpty()) {
        html << QStringLiteral("<span style='color:%1'>%2</span>")
                    .arg(levelColor(dark, PgoLevel::Error), tr("Not usable for PGO: %1").arg(m_analysis.error.toHtmlEscaped()));
        plain << m_analysis.error;
    }
    // What fails or weakens the build in full, one a line; the checks that passed on one line by name (their
    // text in the tooltip), so the edge table keeps the room.
    QStringList passed, passedText;
    for (const PgoReadinessLine &l : m_analysis.readiness) {
        const QString line = QString::fromStdString(formatReadinessLine(l));
        plain << line;
        if (l.level == PgoLevel::Ok) {
            passed << QString::fromStdString(l.check);
            passedText << line;
            continue;
        }
        html << QStringLiteral("<span style='color:%1'>%2</span>").arg(levelColor(dark, l.level), line.toHtmlEscaped());
    }
    if (!passed.isEmpty())
        html << QStringLiteral("<span style='color:%1'>%2</span>")
                    .arg(levelColor(dark, PgoLevel::Ok), tr("ok: %1").arg(passed.join(QStringLiteral(", "))).toHtmlEscaped());
    m_readiness->setToolTip(passedText.join(QLatin1Char('\n')));
    if (!m_analysis.inliningError.isEmpty()) {
        html << QStringLiteral("<span style='color:%1'>%2</span>")
                    .arg(levelColor(dark, PgoLevel::Warning),
                         tr("Inlining changes: %1").arg(m_analysis.inliningError.toHtmlEscaped()));
        plain << m_analysis.inliningError;
    }
    m_readinessPlain = plain.join(QLatin1Char('\n'));
    m_readiness->setText(html.isEmpty() ? tr("No profile.") : html.join(QStringLiteral("<br>")));
}

void PgoPanel::show(PgoAnalysis analysis)
{
    m_analysis = std::move(analysis);
    m_computing = false;
    const bool ok = m_analysis.edges != nullptr;
    showReadiness();

    m_edgeModel->setEdges(m_analysis.edges);
    m_candidatesModel->setCandidates(m_analysis.candidates);
    const bool comparison = !m_base.empty();
    m_tabs->setTabVisible(2, comparison);
    m_tabs->setTabVisible(3, comparison);
    showInlining();
    m_tabs->setTabText(0, tr("Edges (%1)").arg(ok ? m_analysis.edges->edges.size() : 0));
    m_tabs->setTabText(1, tr("Devirtualisation candidates (%1)").arg(m_analysis.candidates.size()));
    for (QTableView *t : {m_edgeTable, m_candidatesTable, m_inliningTable, m_hotChangesTable})
        sizeColumnsToText(t);
    m_saveTrimmed->setEnabled(ok && !m_saveJob.running());
    // The preprofile format has no way to say "absolute lines": go tool preprofile refuses such a profile too.
    m_savePreprofile->setEnabled(ok && m_analysis.edges->hasStartLines);
    m_savePreprofile->setToolTip(ok && !m_analysis.edges->hasStartLines
                                     ? tr("The profile has no Function.start_line: go tool preprofile refuses it, "
                                          "as go build -pgo does")
                                     : tr("go tool preprofile's text, which go build -pgo reads from Go 1.23 on "
                                          "without parsing a protobuf in every package"));
    m_slider->setEnabled(ok);
    m_spin->setEnabled(ok);
    m_filter->setEnabled(ok);
    applyThreshold();
    Q_EMIT computed();
    if (comparison)
        Q_EMIT inliningChangesReady(m_analysis.inlining);
}

void PgoPanel::showInlining()
{
    m_inliningModel->setChanges(m_analysis.inlining);
    m_hotChangesModel->setChanges(m_analysis.inlining);
    if (m_base.empty())
        return;
    const size_t n = m_analysis.inlining ? m_analysis.inlining->inlining.size() : 0;
    const size_t h = m_analysis.inlining ? m_analysis.inlining->hotEdges.size() : 0;
    m_tabs->setTabText(2, tr("Inlining changes (%1)").arg(n));
    m_tabs->setTabText(3, tr("Hot edges appeared / vanished (%1, at %2 %)").arg(h).arg(m_hotChangesThreshold));
}

void PgoPanel::recomputeHotChanges()
{
    if (m_base.empty() || !m_analysis.inlining || m_hotChangesJob.running())
        return;   // a running job re-arms the timer when it ends, if the threshold moved on meanwhile
    m_pendingThreshold = threshold();
    m_hotChangesJob.start(
        [base = m_base, next = m_profiles, t = m_pendingThreshold]() -> std::shared_ptr<const InliningChanges> {
            try {
                return std::make_shared<InliningChanges>(computeInliningChanges(base, next, -1, t));
            } catch (const ProfileError &) {
                return nullptr;   // it computed at load; the same profiles cannot fail now
            }
        },
        [this](std::shared_ptr<const InliningChanges> changes) {
            if (changes && m_analysis.inlining && !m_computing) {   // not for profiles replaced meanwhile
                m_analysis.inlining = std::move(changes);
                m_hotChangesThreshold = m_pendingThreshold;
                showInlining();
                Q_EMIT hotChangesUpdated();
            }
            if (threshold() != m_hotChangesThreshold)
                m_hotChangesTimer.start();
        });
}

double PgoPanel::threshold() const
{
    return m_spin->value();
}

void PgoPanel::setThreshold(double percent)
{
    m_spin->setValue(percent);
}

void PgoPanel::applyThreshold()
{
    if (!m_analysis.edges) {
        m_hot->clear();
        return;
    }
    // The computed list stays as the model gave it: the slider only counts its hot prefix, never recomputes it.
    const PgoEdges &edges = *m_analysis.edges;
    const size_t hot = hotEdgeCount(edges.edges, edges.totalWeight, threshold());
    const int64_t hotWeight = hot ? m_edgeModel->cumulativeWeight(hot - 1) : 0;
    m_edgeModel->setHotCount(hot);
    if (!m_base.empty() && m_analysis.inlining && threshold() != m_hotChangesThreshold)
        m_hotChangesTimer.start();
    m_hot->setText(tr("%1 of %2 edges hot, %3 of the weight")
                       .arg(hot)
                       .arg(edges.edges.size())
                       .arg(QString::fromStdString(pgoShareText(pgoPercent(hotWeight, edges.totalWeight)))));
}

QString PgoPanel::hotText() const
{
    return m_hot->text();
}

QString PgoPanel::statusText() const
{
    return m_status->text();
}

void PgoPanel::setStatus(const QString &text, bool error)
{
    m_status->setText(text);
    m_status->setStyleSheet(error ? QStringLiteral("color: #d32f2f") : QString());
}

void PgoPanel::saveTrimmed(const QString &chosen)
{
    if (!m_analysis.edges || m_saveJob.running())
        return;
    QString path = chosen;
    if (path.isEmpty())
        path = QFileDialog::getSaveFileName(this, tr("Save for go build -pgo"), QStringLiteral("default.pgo"),
                                            tr("pprof (*.pgo *.pb.gz);;All files (*)"));
    if (path.isEmpty())
        return;
    m_saveTrimmed->setEnabled(false);
    setStatus(tr("Trimming for go build -pgo…"), false);
    // Encoding, gzip and the check that the bytes give the same edges read the whole profile: on the pool.
    // The message comes back as text; a leading '!' marks a failure.
    m_saveJob.start([profiles = m_profiles, path, before = m_inputBytes]() -> QString {
        try {
            const PgoTrimmedFile f = encodeTrimmedForPgo(profiles);
            if (const QString error = writeFile(path, f.gzipBytes); !error.isEmpty())
                return QLatin1Char('!') + error;
            const QString was = before ? sizeText(before) : tr("unknown size");
            return tr("Wrote %1: %2 → %3, %4 edges, the same as the profile's")
                .arg(path, was, sizeText(f.gzipBytes.size()))
                .arg(f.edges);
        } catch (const std::exception &e) {   // ProfileError, or the check's logic_error (a bug)
            return QLatin1Char('!') + tr("Cannot save %1: %2").arg(path, QString::fromStdString(e.what()));
        }
    },
    [this](QString message) {
        const bool ok = !message.startsWith(QLatin1Char('!'));
        setStatus(ok ? message : message.mid(1), !ok);
        m_saveTrimmed->setEnabled(m_analysis.edges != nullptr);
        Q_EMIT saved(ok, ok ? message : message.mid(1));
    });
}

void PgoPanel::savePreprofile(const QString &chosen)
{
    if (!m_analysis.edges)
        return;
    QString path = chosen;
    if (path.isEmpty())
        path = QFileDialog::getSaveFileName(this, tr("Save preprofile"), QStringLiteral("default.pgo"),
                                            tr("Preprofile (*.pgo *.txt);;All files (*)"));
    if (path.isEmpty())
        return;
    // The text is three short lines per edge, built from the edges already computed: quick enough here.
    QString message;
    bool ok = false;
    try {
        const std::string text = preprofileText(*m_analysis.edges);
        message = writeFile(path, text);
        ok = message.isEmpty();
        if (ok)
            message = tr("Wrote %1: the preprofile of %2 edges, %3").arg(path).arg(m_analysis.edges->edges.size())
                          .arg(sizeText(text.size()));
    } catch (const ProfileError &e) {
        message = tr("Cannot save %1: %2").arg(path, QString::fromStdString(e.what()));
    }
    setStatus(message, !ok);
    Q_EMIT saved(ok, message);
}

}   // namespace qflame
