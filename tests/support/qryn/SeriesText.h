// Series as comparable text for qryn tests: "name=value,name=value@ts=value;ts=value" per series, sorted, since
// qryn does not define the order of series.
#pragma once

#include "qryn/QrynTypes.h"

#include <QStringList>

namespace qflame::test {

inline QStringList seriesText(const QList<qryn::Series> &series)
{
    QStringList out;
    for (const qryn::Series &s : series) {
        QStringList labels, points;
        for (const qryn::LabelPair &l : s.labels)
            labels << l.name + QLatin1Char('=') + l.value;
        labels.sort();
        for (const qryn::SeriesPoint &p : s.points)
            points << QStringLiteral("%1=%2").arg(p.timestampMs).arg(QString::number(p.value, 'f', 0));
        out << labels.join(QLatin1Char(',')) + QLatin1Char('@') + points.join(QLatin1Char(';'));
    }
    out.sort();
    return out;
}

}   // namespace qflame::test
