#include "explorer/TimelineView.h"

#include "explorer/TimelineWidget.h"
#include "rounds/Rounds.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace qflame::qryn {

namespace {

constexpr qint64 kSteps[] = {10, 30, 60, 300, 900, 3600, 21600, 86400};

}   // namespace

TimelineView::TimelineView(QWidget *parent) : QWidget(parent)
{
    m_chart = new TimelineWidget;
    m_step = new QComboBox;
    m_step->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_step->addItem(tr("Auto"), qint64(0));
    for (qint64 s : kSteps)
        m_step->addItem(durationText(s), s);
    m_step->setToolTip(tr("The length of the timeline's steps; Auto: about 60 steps of the window, none shorter "
                          "than 10 s, as the rounds of a server"));
    m_stacked = new QCheckBox(tr("Stacked"));
    m_stacked->setToolTip(tr("Series stacked (their total on top) rather than overlaid"));
    m_summary = new QLabel;
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(new QLabel(tr("Step:")));
    row->addWidget(m_step);
    row->addWidget(m_stacked);
    row->addWidget(m_summary, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(row);
    layout->addWidget(m_chart, 1);

    connect(m_step, &QComboBox::currentIndexChanged, this, &TimelineView::stepChanged);
    connect(m_stacked, &QCheckBox::toggled, m_chart, &TimelineWidget::setStacked);
    connect(m_chart, &TimelineWidget::rangesChanged, this, &TimelineView::updateSummary);
    updateSummary();
}

qint64 TimelineView::chosenStepSeconds() const
{
    return m_step->currentData().toLongLong();
}

void TimelineView::setChosenStepSeconds(qint64 seconds)
{
    int i = m_step->findData(std::max<qint64>(0, seconds));
    if (i < 0) {
        m_step->addItem(durationText(seconds), seconds);
        i = m_step->count() - 1;
    }
    m_step->setCurrentIndex(i);
}

double TimelineView::noiseK() const
{
    return RoundsOptions{}.noiseK;
}

QString TimelineView::summaryText() const
{
    return m_summary->text();
}

void TimelineView::updateSummary()
{
    const StepTimeline &t = m_chart->timeline();
    // Auto says which step it chose.
    m_step->setItemText(0, t.stepSeconds > 0 && chosenStepSeconds() == 0
                               ? tr("Auto (%1)").arg(durationText(t.stepSeconds))
                               : tr("Auto"));
    const auto b = m_chart->rangeEstimate(TimelineWidget::Baseline);
    const auto c = m_chart->rangeEstimate(TimelineWidget::Comparison);
    QStringList parts;
    for (auto which : {TimelineWidget::Baseline, TimelineWidget::Comparison})
        if (const QString text = m_chart->rangeText(which); !text.isEmpty())
            parts << text;
    if (b && c && b->rateKnown() && c->rateKnown()) {
        const double k = noiseK();
        parts << tr("change %1").arg(QString::fromStdString(formatRateChange(compareRates(*b, *c, k), t.unit, k)));
    }
    if (parts.isEmpty() && !t.steps.empty())
        parts << tr("Drag for a baseline range, Shift+drag (or right-drag) for a comparison: each shows its "
                    "average per step ± SE");
    m_summary->setText(parts.join(QStringLiteral(" · ")));
}

}   // namespace qflame::qryn
