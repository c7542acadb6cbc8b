#include "roundsview/RoundsSourceView.h"

#include "pprof/Units.h"
#include "roundsview/RoundsModels.h"
#include "sourceview/SourceView.h"

#include <QComboBox>
#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

#include <cmath>

namespace qflame {

// ---- RoundsSourceModel -------------------------------------------------------------------------------------

const RoundsListedFile *RoundsSourceModel::file() const
{
    return m_listing && m_file >= 0 && size_t(m_file) < m_listing->files.size() ? &m_listing->files[size_t(m_file)]
                                                                                 : nullptr;
}

void RoundsSourceModel::setFile(std::shared_ptr<const RoundsSourceListing> listing, int file)
{
    beginResetModel();
    m_listing = std::move(listing);
    m_file = file;
    m_maxChange = 0;
    if (const RoundsListedFile *f = this->file())
        for (const RoundsListedLine &l : f->lines)
            for (const LineCost &c : l.cost)
                m_maxChange = std::max(m_maxChange, std::fabs(double(c.cum) - double(l.cost.front().cum)));
    endResetModel();
}

void RoundsSourceModel::setColorBlindSafe(bool on)
{
    m_colorBlind = on;
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1), {Qt::BackgroundRole});
}

int RoundsSourceModel::rowCount(const QModelIndex &parent) const
{
    const RoundsListedFile *f = file();
    return parent.isValid() || !f ? 0 : int(f->lines.size());
}

int RoundsSourceModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_listing ? 0 : int(m_listing->rounds.size()) + 2;
}

QVariant RoundsSourceModel::data(const QModelIndex &index, int role) const
{
    const RoundsListedFile *f = file();
    if (!f || !index.isValid() || size_t(index.row()) >= f->lines.size())
        return {};
    const RoundsListedLine &l = f->lines[size_t(index.row())];
    const int rounds = int(m_listing->rounds.size());
    if (index.column() == 0) {
        if (role == Qt::DisplayRole)
            return qlonglong(l.line);
        if (role == Qt::TextAlignmentRole)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    if (index.column() == rounds + 1) {
        if (role == Qt::DisplayRole)
            return QString::fromStdString(l.text);
        if (role == Qt::FontRole)
            return QFontDatabase::systemFont(QFontDatabase::FixedFont);
        return {};
    }
    const size_t j = size_t(index.column() - 1);
    const LineCost &c = l.cost[j];
    const double base = double(l.cost.front().cum), change = double(c.cum) - base;
    const RateChange &v = l.vsBaseline[j];
    const std::string &unit = m_listing->unit;
    switch (role) {
    case Qt::DisplayRole: {
        if (c.cum == 0 && base == 0)
            return QString();
        QString text = c.cum == 0 ? QStringLiteral(".") : QString::fromStdString(formatValue(double(c.cum), unit));
        if (j > 0 && base != 0)
            text += QStringLiteral("  ") + QString::fromStdString(formatRatioPercent(change, base, 0, true));
        else if (j > 0 && c.cum != 0)
            text += tr("  new");
        return text;
    }
    case Qt::BackgroundRole: {
        const QColor col = verdictColor(v.verdict, m_colorBlind);
        if (j == 0 || !col.isValid() || v.verdict == RoundVerdict::Noise)
            return {};
        return blend(col, m_maxChange > 0 ? std::fabs(change) / m_maxChange : 0);
    }
    case Qt::ToolTipRole: {
        const RateEstimate &r = l.cumRate[j];
        return tr("line %1 in %2: cum %3, flat %4\nrate %5 ± %6 (%7)\nvs baseline: %8")
            .arg(l.line)
            .arg(QString::fromStdString(m_listing->rounds[j]),
                 QString::fromStdString(formatValue(double(c.cum), unit)),
                 QString::fromStdString(formatValue(double(c.flat), unit)), rateText(r.rate, unit),
                 rateText(r.standardError, unit), QLatin1String(errorBasisName(r.basis)),
                 j == 0 ? tr("baseline") : QLatin1String(verdictName(v.verdict)));
    }
    case Qt::TextAlignmentRole: return int(Qt::AlignRight | Qt::AlignVCenter);
    default: return {};
    }
}

QVariant RoundsSourceModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || !m_listing)
        return {};
    const int rounds = int(m_listing->rounds.size());
    if (section == 0)
        return tr("Line");
    if (section == rounds + 1)
        return tr("Source");
    return QString::fromStdString(m_listing->rounds[size_t(section - 1)]);
}

int RoundsSourceModel::hottestRow() const
{
    const RoundsListedFile *f = file();
    int best = -1;
    int64_t most = 0;
    for (size_t i = 0; f && i < f->lines.size(); ++i)
        for (const LineCost &c : f->lines[i].cost)
            if (c.cum > most)
                most = c.cum, best = int(i);
    return best;
}

// ---- RoundsSourceView --------------------------------------------------------------------------------------

RoundsSourceView::RoundsSourceView(QWidget *parent) : QWidget(parent)
{
    m_title = new QLabel;
    m_title->setWordWrap(true);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_files = new QComboBox;
    m_files->setVisible(false);
    m_model = new RoundsSourceModel(this);
    m_table = new QTableView;
    m_table->setModel(m_model);
    m_table->verticalHeader()->hide();
    m_table->setWordWrap(false);
    m_table->setShowGrid(false);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 4);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_files);
    layout->addWidget(m_table, 1);
    connect(m_files, &QComboBox::currentIndexChanged, this, &RoundsSourceView::showFile);
    setMessage(tr("Double-click a function to list its lines in every round."));
}

void RoundsSourceView::showFunction(std::vector<RoundInput> rounds, SampleTypeInfo type, std::string function,
                                    double noiseK, int64_t durationNanos)
{
    setMessage(tr("Reading the source of %1...").arg(QString::fromStdString(function)));
    m_job.start(
        [rounds = std::move(rounds), type, function = std::move(function), noiseK, durationNanos,
         paths = SourceView::settingsSourcePaths()] {
            return listFunctionRounds(rounds, type, function, paths(), noiseK, durationNanos);
        },
        [this](RoundsSource result) {
            if (!result.error.isEmpty())
                setMessage(result.error);
            else
                setListing(result.listing);
            Q_EMIT listingReady();
        });
}

void RoundsSourceView::showMessage(const QString &message)
{
    m_job.drop();
    setMessage(message);
}

void RoundsSourceView::setColorBlindSafe(bool on)
{
    m_model->setColorBlindSafe(on);
}

QString RoundsSourceView::titleText() const
{
    return m_title->text();
}

void RoundsSourceView::setMessage(const QString &message)
{
    m_listing.reset();
    m_model->setFile(nullptr, -1);
    m_title->setText(message);
    m_files->setVisible(false);
}

void RoundsSourceView::setListing(std::shared_ptr<const RoundsSourceListing> listing)
{
    if (listing->files.empty()) {
        setMessage(tr("No samples in this function at this sample type."));
        return;
    }
    m_listing = std::move(listing);
    QSignalBlocker block(m_files);
    m_files->clear();
    for (const RoundsListedFile &f : m_listing->files)
        m_files->addItem(QString::fromStdString(f.file.empty() ? f.function : f.file));
    m_files->setVisible(m_listing->files.size() > 1);
    m_files->setCurrentIndex(0);
    showFile(0);
}

void RoundsSourceView::showFile(int index)
{
    if (!m_listing || index < 0 || size_t(index) >= m_listing->files.size())
        return;
    const RoundsListedFile &f = m_listing->files[size_t(index)];
    m_model->setFile(m_listing, index);
    QStringList bases;
    for (size_t j = 0; j < m_listing->rounds.size(); ++j)
        bases << QStringLiteral("%1: %2").arg(QString::fromStdString(m_listing->rounds[j]),
                                              QString::fromStdString(m_listing->errorBasis[j]));
    QString where;
    if (f.file.empty())
        where = tr("no source information in the profiles (a server's merged tree has function names only)");
    else if (!f.error.empty())
        where = QString::fromStdString(f.error);
    else
        where = QString::fromStdString(f.readFile) +
                (f.foundIn.empty() ? QString() : tr(" (found in %1)").arg(QString::fromStdString(f.foundIn)));
    QString title = tr("%1 — %2\ncum per round, each against the baseline within %3 SE per line; line errors: %4")
                        .arg(QString::fromStdString(f.function), where)
                        .arg(m_listing->noiseK)
                        .arg(bases.join(QStringLiteral("; ")));
    if (f.linesPastEnd > 0)
        title += tr("\n%n line(s) with a cost lie past the end of the file read: it is not the file profiled.", "",
                    int(f.linesPastEnd));
    m_title->setText(title);
    m_table->resizeColumnsToContents();
    m_table->horizontalHeader()->setStretchLastSection(true);
    if (const int hot = m_model->hottestRow(); hot >= 0)
        m_table->scrollTo(m_model->index(hot, 0), QAbstractItemView::PositionAtCenter);
}

}   // namespace qflame
