// The rounds tab's two tables, read from a RoundsResult (model/rounds): the rounds (rate ± SE, change against the
// baseline and the previous round, verdict in colour) and the function matrix (functions × rounds: cum, change
// against the baseline with its verdict, a sparkline of the cums).
#pragma once

#include "rounds/Rounds.h"

#include <QAbstractTableModel>
#include <QColor>

#include <memory>

namespace qflame {

// The colour of a verdict: red for slower, green for faster (orange / blue when colour-blind safe), grey for
// noise, none for the baseline and unknown.
QColor verdictColor(RoundVerdict v, bool colorBlindSafe);
// `c` as a cell's background, stronger for a larger change (`strength` 0..1 of the largest shown).
QColor blend(const QColor &c, double strength);

// A rate for people, in the sample type's unit per second: CPU nanoseconds per second as cores.
QString rateText(double perSecond, const std::string &unit);
// "0.9652 ± 0.028 cores": the rate and its standard error, the unit once.
QString rateWithError(double rate, double se, const std::string &unit);

class RoundsTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Name, K, Total, Duration, Rate, VsBaseline, VsPrevious, Verdict, ColumnCount };
    using QAbstractTableModel::QAbstractTableModel;

    void setResult(std::shared_ptr<const RoundsResult> result);
    void setColorBlindSafe(bool on);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role) override;

Q_SIGNALS:
    // The user renamed round `row` in the table.
    void renameRequested(int row, const QString &name);

private:
    std::shared_ptr<const RoundsResult> m_result;
    bool m_colorBlind = false;
};

class FunctionMatrixModel : public QAbstractTableModel {
    Q_OBJECT

public:
    // Column 0 the function, 1 the sparkline, then one per round. Qt::UserRole of a round column is the sort key
    // (the change of cum against the baseline), of the sparkline the cums as a QVariantList.
    static constexpr int kFirstRound = 2;
    static constexpr int kSortRole = Qt::UserRole;
    static constexpr int kCumsRole = Qt::UserRole + 1;
    using QAbstractTableModel::QAbstractTableModel;

    void setResult(std::shared_ptr<const RoundsResult> result);
    void setColorBlindSafe(bool on);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::shared_ptr<const RoundsResult> m_result;
    double m_maxChange = 0;   // the largest |cum_j - cum_1|, for the cells' colour intensity
    bool m_colorBlind = false;
};

}   // namespace qflame
