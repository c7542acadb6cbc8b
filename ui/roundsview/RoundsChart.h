// Each round's rate with its error bar, beside the rates of its observations in their order (over time), so
// that the spread the error comes from is visible. One band per round, the baseline first.
#pragma once

#include "rounds/Rounds.h"

#include <QWidget>

#include <memory>

namespace qflame {

class RoundsChart : public QWidget {
    Q_OBJECT

public:
    explicit RoundsChart(QWidget *parent = nullptr);
    void setResult(std::shared_ptr<const RoundsResult> result);
    void setColorBlindSafe(bool on);

    QSize sizeHint() const override { return {520, 260}; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    std::shared_ptr<const RoundsResult> m_result;
    bool m_colorBlind = false;
};

}   // namespace qflame
