// Does the exported pprof (SelectMergeProfile) carry the same total as the flamegraph (SelectMergeStacktraces)?
//
// qryn 3.2.39 merges pprofs with a bug that counts the first occurrence of every distinct sample twice (qryn.md
// §4.6; observed: 976 samples / 9.76 s came back as 1587 / 15.87 s). The error is not a constant factor, so it
// cannot be undone: the flamegraph's numbers are the ones to show, and a disagreement is said out loud.
#pragma once

#include "pprof/Profile.h"
#include "qryn/QrynTypes.h"

#include <QString>

#include <cstdint>

namespace qflame::qryn {

struct TotalsCheck {
    int64_t flamegraphTotal = 0;
    int64_t exportTotal = 0;    // of the same sample type in the exported profile; 0 when it has none
    bool exportHasType = false;
    bool agree = false;
    QString message;            // one line, empty when they agree
};

// Compares the total of `type`'s sample type (name and unit) in `exported` (null = an empty export) with the
// flamegraph's total.
TotalsCheck checkExportTotals(int64_t flamegraphTotal, const Profile *exported, const ProfileType &type);

}   // namespace qflame::qryn
