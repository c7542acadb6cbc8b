// The explorer's timeline with its controls: the step (Auto follows the window, or a chosen length), overlaid or
// stacked series, and the summary line of the brushed ranges: each range's average per step ± SE and, with both,
// the change with that noise and the rounds' verdict (rounds/RateUnit.h's wording, RoundsOptions' noise K).
#pragma once

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;

namespace qflame::qryn {

class TimelineWidget;

class TimelineView : public QWidget {
    Q_OBJECT

public:
    explicit TimelineView(QWidget *parent = nullptr);

    TimelineWidget *chart() const { return m_chart; }
    QComboBox *stepBox() const { return m_step; }
    QCheckBox *stackedBox() const { return m_stacked; }

    // 0 = Auto (about 60 steps of the window, none shorter than 10 s: ServerRounds' rule).
    qint64 chosenStepSeconds() const;
    void setChosenStepSeconds(qint64 seconds);   // a length the box does not list is added to it
    // The noise test of the summary line: a change is real beyond this many standard errors (the rounds' default).
    double noiseK() const;
    QString summaryText() const;

Q_SIGNALS:
    // The user chose another step: the timeline must be asked again.
    void stepChanged();

private:
    void updateSummary();

    TimelineWidget *m_chart;
    QComboBox *m_step;
    QCheckBox *m_stacked;
    QLabel *m_summary;
};

}   // namespace qflame::qryn
