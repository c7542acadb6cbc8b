#include "roundsview/RoundsModels.h"

#include "pprof/Units.h"

#include <QVariantList>

#include <algorithm>
#include <cmath>

namespace qflame {

namespace {

QString percentText(double pct)
{
    return QString::fromStdString(formatChangePercent(pct));
}

}   // namespace

QColor verdictColor(RoundVerdict v, bool colorBlindSafe)
{
    switch (v) {
    case RoundVerdict::Slower: return colorBlindSafe ? QColor(0xe6, 0x9f, 0x00) : QColor(0xd6, 0x27, 0x28);
    case RoundVerdict::Faster: return colorBlindSafe ? QColor(0x00, 0x72, 0xb2) : QColor(0x2c, 0xa0, 0x2c);
    case RoundVerdict::Noise: return QColor(0x9a, 0x9a, 0x9a);
    case RoundVerdict::Baseline:
    case RoundVerdict::Unknown: break;
    }
    return QColor();
}

QColor blend(const QColor &c, double strength)
{
    QColor out = c;
    out.setAlphaF(float(std::clamp(0.15 + 0.7 * strength, 0.0, 1.0)));
    return out;
}

QString rateText(double perSecond, const std::string &unit)
{
    return QString::fromStdString(formatRate(perSecond, unit));
}

QString rateWithError(double rate, double se, const std::string &unit)
{
    return QString::fromStdString(formatRateWithError(rate, se, unit));
}

// ---- RoundsTableModel --------------------------------------------------------------------------------------

void RoundsTableModel::setResult(std::shared_ptr<const RoundsResult> result)
{
    beginResetModel();
    m_result = std::move(result);
    endResetModel();
}

void RoundsTableModel::setColorBlindSafe(bool on)
{
    m_colorBlind = on;
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1), {Qt::BackgroundRole});
}

int RoundsTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_result ? 0 : int(m_result->rounds.size());
}

int RoundsTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RoundsTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || !m_result)
        return {};
    const RoundSummary &s = m_result->rounds[size_t(index.row())];
    const std::string &unit = m_result->sampleType.unit;
    const bool base = index.row() == 0;
    if (role == Qt::DisplayRole || role == Qt::EditRole) {
        switch (Column(index.column())) {
        case Name: return QString::fromStdString(s.name);
        case K: return qulonglong(s.estimate.k);
        case Total: return QString::fromStdString(formatValue(double(s.estimate.total), unit));
        case Duration:
            return s.estimate.durationNanos > 0
                       ? QString::fromStdString(formatValue(double(s.estimate.durationNanos), "nanoseconds"))
                       : QStringLiteral("?");
        case Rate:
            return rateWithError(s.estimate.rate, s.estimate.standardError, unit);
        case VsBaseline: return base ? QString() : percentText(s.vsBaseline.percent);
        case VsPrevious: return base ? QString() : percentText(s.vsPrevious.percent);
        case Verdict: return QString::fromLatin1(verdictName(s.vsBaseline.verdict));
        case ColumnCount: break;
        }
    }
    if (role == Qt::BackgroundRole && index.column() == Verdict) {
        const QColor c = verdictColor(s.vsBaseline.verdict, m_colorBlind);
        return c.isValid() ? QVariant(blend(c, 0.6)) : QVariant();
    }
    if (role == Qt::ToolTipRole) {
        QString tip = tr("%1 observations; error: %2").arg(s.estimate.k).arg(QLatin1String(errorBasisName(s.estimate.basis)));
        if (!base)
            tip += tr("\nvs baseline: %1 ± %2 per second\nvs previous: %3 (%4)")
                       .arg(rateText(s.vsBaseline.delta, unit), rateText(s.vsBaseline.standardError, unit),
                            percentText(s.vsPrevious.percent), QLatin1String(verdictName(s.vsPrevious.verdict)));
        return tip;
    }
    if (role == Qt::TextAlignmentRole && index.column() != Name && index.column() != Verdict)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant RoundsTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char *const names[] = {"Round", "k", "Total", "Duration", "Rate ± SE", "vs baseline",
                                        "vs previous", "Verdict"};
    return tr(names[section]);
}

Qt::ItemFlags RoundsTableModel::flags(const QModelIndex &index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.column() == Name)
        f |= Qt::ItemIsEditable;
    return f;
}

bool RoundsTableModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::EditRole || index.column() != Name || value.toString().trimmed().isEmpty())
        return false;
    Q_EMIT renameRequested(index.row(), value.toString().trimmed());
    return true;
}

// ---- FunctionMatrixModel -----------------------------------------------------------------------------------

void FunctionMatrixModel::setResult(std::shared_ptr<const RoundsResult> result)
{
    beginResetModel();
    m_result = std::move(result);
    m_maxChange = 0;
    if (m_result)
        for (const FunctionRounds &f : m_result->functions)
            for (int64_t c : f.cum)
                m_maxChange = std::max(m_maxChange, std::fabs(double(c) - double(f.cum.front())));
    endResetModel();
}

void FunctionMatrixModel::setColorBlindSafe(bool on)
{
    m_colorBlind = on;
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1), {Qt::BackgroundRole});
}

int FunctionMatrixModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_result ? 0 : int(m_result->functions.size());
}

int FunctionMatrixModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_result ? 0 : kFirstRound + int(m_result->rounds.size());
}

QVariant FunctionMatrixModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || !m_result)
        return {};
    const FunctionRounds &f = m_result->functions[size_t(index.row())];
    const std::string &unit = m_result->sampleType.unit;
    if (index.column() == 0) {
        if (role == Qt::DisplayRole || role == kSortRole || role == Qt::ToolTipRole)
            return QString::fromStdString(f.name);
        return {};
    }
    if (index.column() == 1) {
        if (role == kCumsRole) {
            QVariantList cums;
            for (int64_t c : f.cum)
                cums << double(c);
            return cums;
        }
        if (role == kSortRole)
            return double(f.cum.back()) - double(f.cum.front());
        return {};
    }
    const size_t j = size_t(index.column() - kFirstRound);
    const double change = double(f.cum[j]) - double(f.cum.front());
    const RateChange &c = f.vsBaseline[j];
    switch (role) {
    case Qt::DisplayRole: {
        QString text = QString::fromStdString(formatValue(double(f.cum[j]), unit));
        if (j > 0 && f.cum.front() != 0)
            text += QStringLiteral("  ") + QString::fromStdString(formatRatioPercent(change, double(f.cum.front()), 1, true));
        else if (j > 0 && f.cum[j] != 0)
            text += tr("  new");
        return text;
    }
    case kSortRole: return j == 0 ? double(f.cum[0]) : change;
    case Qt::BackgroundRole: {
        const QColor col = verdictColor(c.verdict, m_colorBlind);
        if (j == 0 || !col.isValid() || c.verdict == RoundVerdict::Noise)
            return {};
        return blend(col, m_maxChange > 0 ? std::fabs(change) / m_maxChange : 0);
    }
    case Qt::ToolTipRole:
        return tr("%1 in %2: cum %3, flat %4\nrate %5 ± %6 (%7)\nvs baseline: %8")
            .arg(QString::fromStdString(f.name), QString::fromStdString(m_result->rounds[j].name),
                 QString::fromStdString(formatValue(double(f.cum[j]), unit)),
                 QString::fromStdString(formatValue(double(f.flat[j]), unit)), rateText(f.cumRate[j].rate, unit),
                 rateText(f.cumRate[j].standardError, unit), QLatin1String(errorBasisName(f.cumRate[j].basis)),
                 j == 0 ? tr("baseline") : QLatin1String(verdictName(c.verdict)));
    case Qt::TextAlignmentRole: return int(Qt::AlignRight | Qt::AlignVCenter);
    default: return {};
    }
}

QVariant FunctionMatrixModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || !m_result)
        return {};
    if (section == 0)
        return tr("Function");
    if (section == 1)
        return tr("Trend");
    return QString::fromStdString(m_result->rounds[size_t(section - kFirstRound)].name);
}

}   // namespace qflame
