// Frame colours: by package/module, by mapping (library), by self-heat; warm or colour-blind-safe.
#pragma once

#include <QColor>
#include <QStringView>

namespace qflame {

// The package or module part of a frame name, so that one package gets one colour:
// "github.com/a/b.(*T).F" -> "github.com/a/b", "std::vector<int>::push_back" -> "std",
// "kafka/log/UnifiedLog.append" -> "kafka/log/UnifiedLog".
QStringView packageOf(QStringView name);

// A stable colour for a key (package or mapping name). Warm flamegraph hues, or, colour-blind safe, the
// Okabe-Ito palette lightened so black labels stay readable.
QColor colorForKey(QStringView key, bool colorBlindSafe, bool cool = false);

// Self-heat: share of a frame's total spent in the frame itself, 0..1, from pale to saturated.
QColor heatColor(double selfShare, bool colorBlindSafe);

// The dimmed version of a frame colour for search non-matches.
QColor dimmed(const QColor &c, const QColor &background);

}   // namespace qflame
