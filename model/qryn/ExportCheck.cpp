#include "qryn/ExportCheck.h"

#include "pprof/Units.h"

#include <cmath>

namespace qflame::qryn {

TotalsCheck checkExportTotals(int64_t flamegraphTotal, const Profile *exported, const ProfileType &type)
{
    TotalsCheck c;
    c.flamegraphTotal = flamegraphTotal;
    const std::string name = type.sampleType.toStdString(), unit = type.sampleUnit.toStdString();
    if (exported) {
        for (size_t i = 0; i < exported->sampleTypes.size(); ++i) {
            if (exported->typeName(i) == name && exported->unitName(i) == unit) {
                c.exportHasType = true;
                c.exportTotal = exported->total(i);
                break;
            }
        }
    }
    const QString what = QStringLiteral("%1/%2").arg(type.sampleType, type.sampleUnit);
    auto fmt = [&](int64_t v) {
        return QStringLiteral("%1 (%2)").arg(v).arg(QString::fromStdString(formatValue(double(v), unit)));
    };
    if (!exported || exported->sampleCount() == 0) {
        c.agree = flamegraphTotal == 0;
        if (!c.agree)
            c.message = QStringLiteral("the merged pprof (SelectMergeProfile) is empty but the flamegraph "
                                       "(SelectMergeStacktraces) has a %1 total of %2")
                            .arg(what, fmt(flamegraphTotal));
        return c;
    }
    if (!c.exportHasType) {
        c.message = QStringLiteral("the merged pprof (SelectMergeProfile) has no %1 sample type to compare with "
                                   "the flamegraph's total of %2")
                        .arg(what, fmt(flamegraphTotal));
        return c;
    }
    c.agree = c.exportTotal == flamegraphTotal;
    if (!c.agree) {
        const QString change = flamegraphTotal == 0
                                   ? QString()
                                   : QStringLiteral(" (%1%2%)")
                                         .arg(c.exportTotal > flamegraphTotal ? QStringLiteral("+") : QString())
                                         .arg(100.0 * double(c.exportTotal - flamegraphTotal) / double(flamegraphTotal),
                                              0, 'f', 1);
        c.message = QStringLiteral("the merged pprof (SelectMergeProfile) has a %1 total of %2, the flamegraph "
                                   "(SelectMergeStacktraces) %3%4; qryn 3.2.39 inflates SelectMergeProfile values "
                                   "(a known server bug), so the flamegraph's numbers are the right ones")
                        .arg(what, fmt(c.exportTotal), fmt(flamegraphTotal), change);
    }
    return c;
}

}   // namespace qflame::qryn
