#include "layout/ChartAxes.h"

#include <QDateTime>

#include <algorithm>
#include <cmath>

namespace qflame {

double niceStep(double raw)
{
    const double decade = std::pow(10.0, std::floor(std::log10(raw)));
    double step = decade;
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        step = m * decade;
        if (step >= raw * (1 - 1e-12))
            break;
    }
    return step;
}

std::vector<double> niceTicks(double low, double high)
{
    std::vector<double> ticks;
    if (!(high > low) || !std::isfinite(low) || !std::isfinite(high))
        return ticks;
    const double step = niceStep((high - low) / 5);
    for (double t = std::ceil(low / step) * step; t <= high + step * 1e-9; t += step)
        ticks.push_back(std::fabs(t) < step * 1e-9 ? 0.0 : t);
    return ticks;
}

ValueAxis valueAxis(double maxValue, int maxIntervals)
{
    ValueAxis a;
    const int n = std::max(1, maxIntervals);
    const double max = std::isfinite(maxValue) && maxValue > 0 ? maxValue : 1.0;
    const double step = niceStep(max / n);
    a.step = step;
    const int intervals = std::max(1, int(std::ceil(max / step * (1 - 1e-12))));
    a.top = intervals * step;
    const int decimals = std::max(0, -int(std::floor(std::log10(step) + 1e-9)));
    for (int i = 0; i <= intervals; ++i)
        a.ticks.push_back({i * step, QString::number(i * step, 'f', decimals)});
    return a;
}

qint64 timeTickStepMs(qint64 lengthMs, int maxTicks)
{
    static const qint64 steps[] = {1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600,
                                   43200, 86400, 172800, 604800};
    const int n = std::max(1, maxTicks);
    for (qint64 s : steps)
        if (lengthMs / (s * 1000) + 1 <= n)
            return s * 1000;
    return steps[std::size(steps) - 1] * 1000;
}

QList<TimeTick> timeTicks(qint64 startMs, qint64 endMs, int maxTicks, const QTimeZone &zone)
{
    QList<TimeTick> out;
    if (endMs - startMs <= 0)
        return out;
    const qint64 step = timeTickStepMs(endMs - startMs, maxTicks);
    // Multiples of the step on the local clock: shift by the zone's offset, round up, shift back.
    const qint64 offset = qint64(zone.offsetFromUtc(QDateTime::fromMSecsSinceEpoch(startMs, zone))) * 1000;
    const qint64 local = startMs + offset;
    qint64 first = (local >= 0 ? (local + step - 1) / step : -((-local) / step)) * step - offset;
    for (qint64 t = first; t <= endMs; t += step) {
        const QDateTime at = QDateTime::fromMSecsSinceEpoch(t, zone);
        QString label;
        if (step >= 86'400'000 || (at.time() == QTime(0, 0) && step >= 60'000))
            label = at.toString(QStringLiteral("MM-dd"));
        else if (step < 60'000)
            label = at.toString(QStringLiteral("HH:mm:ss"));
        else
            label = at.toString(QStringLiteral("HH:mm"));
        out.push_back({t, label});
    }
    return out;
}

QString durationText(qint64 seconds)
{
    if (seconds % 86400 == 0 && seconds > 0)
        return QStringLiteral("%1 d").arg(seconds / 86400);
    if (seconds % 3600 == 0 && seconds > 0)
        return QStringLiteral("%1 h").arg(seconds / 3600);
    if (seconds >= 60)
        return seconds % 60 == 0 ? QStringLiteral("%1 min").arg(seconds / 60)
                                 : QStringLiteral("%1 min %2 s").arg(seconds / 60).arg(seconds % 60);
    return QStringLiteral("%1 s").arg(seconds);
}

}   // namespace qflame
