// The charts' axes as plain computation (no painting), so their ticks and labels are tested exactly and the
// explorer's timeline and the rounds chart share them: value ticks at 1, 2 or 5 × 10^n, and time ticks at whole
// seconds, minutes, hours or days of local time.
#pragma once

#include <QList>
#include <QString>
#include <QTimeZone>

#include <vector>

namespace qflame {

// The smallest 1, 2 or 5 × 10^k at or above `raw` (> 0): the step of every axis here.
double niceStep(double raw);

// Ticks at multiples of niceStep((high - low) / 5) from low to high (both included where they fall on one), with
// values within a billionth of a step of 0 made 0; none where the range is empty or not finite.
std::vector<double> niceTicks(double low, double high);

struct ValueTick {
    double value = 0;
    QString label;
};

// The value axis from 0: at most `maxIntervals` intervals of 1, 2 or 5 × 10^n each (the smallest that fits), up to
// `top`, the first tick at or above `maxValue`. Labels carry the step's decimals ("0.5", "1.0", "1.5"). A maximum
// <= 0 or not finite gives the axis of 1.
struct ValueAxis {
    double step = 1;
    double top = 1;
    QList<ValueTick> ticks;
};
ValueAxis valueAxis(double maxValue, int maxIntervals);

struct TimeTick {
    qint64 ms = 0;
    QString label;
};

// The tick step for a window: the smallest of 1, 2, 5, 10, 15, 30 s, 1, 2, 5, 10, 15, 30 min, 1, 2, 3, 6, 12 h,
// 1, 2, 7 d giving at most `maxTicks` ticks over `lengthMs`.
qint64 timeTickStepMs(qint64 lengthMs, int maxTicks);

// The ticks inside [startMs, endMs] at multiples of that step in `zone`'s local time (hours and days
// start where the zone's clock says), labelled "HH:mm:ss" below a minute, "HH:mm" below a day and "MM-dd" at local
// midnight and for steps of days.
QList<TimeTick> timeTicks(qint64 startMs, qint64 endMs, int maxTicks,
                          const QTimeZone &zone = QTimeZone::systemTimeZone());

// A duration for people: "10 s", "1 min", "1 min 30 s", "2 h", "1 d".
QString durationText(qint64 seconds);

}   // namespace qflame
