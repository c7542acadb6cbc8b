#include "roundsview/RoundsChart.h"

#include "layout/ChartAxes.h"
#include "rounds/RoundStats.h"
#include "roundsview/RoundsModels.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace qflame {

RoundsChart::RoundsChart(QWidget *parent) : QWidget(parent)
{
    setMinimumSize(320, 180);
}

void RoundsChart::setResult(std::shared_ptr<const RoundsResult> result)
{
    m_result = std::move(result);
    update();
}

void RoundsChart::setColorBlindSafe(bool on)
{
    m_colorBlind = on;
    update();
}

void RoundsChart::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().base());
    const QColor text = palette().color(QPalette::Text);
    const QColor grid = palette().color(QPalette::Mid);
    if (!m_result || m_result->rounds.empty()) {
        p.setPen(text);
        p.drawText(rect(), Qt::AlignCenter, tr("No rounds yet: add one"));
        return;
    }
    const std::string &unit = m_result->sampleType.unit;
    // The range: every observation's rate and every round's rate ± its error, from 0 when that is near.
    double low = INFINITY, high = -INFINITY;
    for (const RoundSummary &s : m_result->rounds) {
        for (const Observation &o : s.observations)
            if (const double r = observationRate(o); std::isfinite(r))
                low = std::min(low, r), high = std::max(high, r);
        if (s.estimate.rateKnown()) {
            const double e = s.estimate.errorKnown() ? s.estimate.standardError * m_result->noiseK : 0;
            low = std::min(low, s.estimate.rate - e);
            high = std::max(high, s.estimate.rate + e);
        }
    }
    if (!std::isfinite(low)) {
        p.setPen(text);
        p.drawText(rect(), Qt::AlignCenter, tr("No rates: the profiles have no durations"));
        return;
    }
    if (low > 0 && low < 0.5 * high)
        low = 0;
    const double pad = std::max((high - low) * 0.08, std::fabs(high) * 1e-3 + 1e-12);
    low -= low == 0 ? 0 : pad;
    high += pad;

    const QFontMetrics fm(font());
    const std::vector<double> ticks = niceTicks(low, high);
    int axisWidth = 0;
    for (double t : ticks)
        axisWidth = std::max(axisWidth, fm.horizontalAdvance(rateText(t, unit)));
    const QRect plot(axisWidth + 14, 10, width() - axisWidth - 24, height() - 20 - 2 * fm.height());
    auto y = [&](double v) { return plot.bottom() - (v - low) / (high - low) * plot.height(); };

    p.setFont(font());
    for (double t : ticks) {
        const double ty = y(t);
        p.setPen(QPen(grid, 0, Qt::DotLine));
        p.drawLine(QPointF(plot.left(), ty), QPointF(plot.right(), ty));
        p.setPen(text);
        p.drawText(QRectF(0, ty - fm.height() / 2.0, axisWidth + 8, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
                   rateText(t, unit));
    }
    p.setPen(text);
    p.drawLine(plot.bottomLeft(), plot.topLeft());

    const size_t n = m_result->rounds.size();
    const double band = double(plot.width()) / double(n);
    for (size_t j = 0; j < n; ++j) {
        const RoundSummary &s = m_result->rounds[j];
        const double left = plot.left() + band * double(j);
        QColor marker = verdictColor(s.vsBaseline.verdict, m_colorBlind);
        if (!marker.isValid())
            marker = palette().color(QPalette::Highlight);
        // The observations in their order across the band's left two thirds.
        const double obsLeft = left + band * 0.08, obsWidth = band * 0.55;
        QColor dot = text;
        dot.setAlphaF(0.55f);
        p.setPen(Qt::NoPen);
        p.setBrush(dot);
        const size_t k = s.observations.size();
        for (size_t i = 0; i < k; ++i) {
            const double r = observationRate(s.observations[i]);
            if (!std::isfinite(r))
                continue;
            const double x = obsLeft + (k == 1 ? obsWidth / 2 : obsWidth * double(i) / double(k - 1));
            p.drawEllipse(QPointF(x, y(r)), 2.5, 2.5);
        }
        // The round's rate, ±SE (thick) and ±K·SE (whiskers), at the band's right.
        if (s.estimate.rateKnown()) {
            const double x = left + band * 0.78;
            if (s.estimate.errorKnown()) {
                const double se = s.estimate.standardError, ks = se * m_result->noiseK;
                p.setPen(QPen(marker, 1.5));
                p.drawLine(QPointF(x, y(s.estimate.rate - ks)), QPointF(x, y(s.estimate.rate + ks)));
                p.drawLine(QPointF(x - 5, y(s.estimate.rate - ks)), QPointF(x + 5, y(s.estimate.rate - ks)));
                p.drawLine(QPointF(x - 5, y(s.estimate.rate + ks)), QPointF(x + 5, y(s.estimate.rate + ks)));
                p.setPen(QPen(marker, 5, Qt::SolidLine, Qt::FlatCap));
                p.drawLine(QPointF(x, y(s.estimate.rate - se)), QPointF(x, y(s.estimate.rate + se)));
            }
            p.setPen(QPen(text, 1));
            p.setBrush(marker);
            p.drawRect(QRectF(x - 7, y(s.estimate.rate) - 2, 14, 4));
            // The baseline's rate across every band, as the reference line.
            if (j == 0) {
                p.setPen(QPen(marker.isValid() ? marker : text, 1, Qt::DashLine));
                p.drawLine(QPointF(plot.left(), y(s.estimate.rate)), QPointF(plot.right(), y(s.estimate.rate)));
            }
        }
        p.setPen(text);
        const QString label = QString::fromStdString(s.name);
        p.drawText(QRectF(left, plot.bottom() + 4, band, fm.height()), Qt::AlignHCenter | Qt::AlignTop,
                   fm.elidedText(label, Qt::ElideRight, int(band) - 4));
        const QString verdict = j == 0 ? tr("baseline")
                                       : QString::fromStdString(formatChangePercent(s.vsBaseline.percent)) + QLatin1Char(' ') +
                                             QLatin1String(verdictName(s.vsBaseline.verdict));
        p.setPen(j == 0 ? text : marker.darker(120));
        p.drawText(QRectF(left, plot.bottom() + 4 + fm.height(), band, fm.height()), Qt::AlignHCenter | Qt::AlignTop,
                   fm.elidedText(verdict, Qt::ElideRight, int(band) - 4));
        if (j > 0) {
            p.setPen(QPen(grid, 0, Qt::DotLine));
            p.drawLine(QPointF(left, plot.top()), QPointF(left, plot.bottom()));
        }
    }
}

}   // namespace qflame
