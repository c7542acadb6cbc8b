// Points in time as people type them on the command line (what profilecli and Grafana accept).
#pragma once

#include <QString>

#include <optional>

namespace qflame::qryn {

// Parses TIME into ms since the epoch:
//   RFC 3339          "2026-11-29T21:00:00Z", "2026-11-29T22:00:00.250+01:00" (a zone is required)
//   epoch seconds     "1795986500"      (all digits, below 1e11: 1e11 s is the year 5138)
//   epoch ms          "1795986500000"   (all digits, 1e11 or more: 1e11 ms is 1973)
//   relative          "now", "now-1h", "now-20m", "now-90s", "now-7d", "now-1h30m" (units ms s m h d w)
// nowMs is "now" (passed in so tests are exact). On failure returns nullopt and sets *why to one line.
std::optional<qint64> parseTimeSpec(const QString &text, qint64 nowMs, QString *why);

// ms since the epoch as RFC 3339 in UTC with ms ("2026-11-29T21:00:00.000Z"), for messages.
QString formatTimeMs(qint64 ms);

}   // namespace qflame::qryn
