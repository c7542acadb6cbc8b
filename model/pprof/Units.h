// Formatting of values in their sample unit for people: 1.23 s, 45.6 MiB, 1.2 k.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace qflame {

enum class UnitKind { Time, Bytes, Count };

// Recognises pprof's unit names ("nanoseconds", "ns", "bytes", "B", "count", ...).
UnitKind unitKind(std::string_view unit);
// How many nanoseconds (Time) or bytes (Bytes) one unit is; 1 for counts.
double unitScale(std::string_view unit);

// A value in `unit`, scaled to a readable magnitude with 3 significant digits: "1.23 s", "45.6 MiB", "1.2 k".
std::string formatValue(double value, std::string_view unit);
// A percentage with two decimals, as pprof prints it ("19.67%", "100%").
std::string formatPercent(double part, double whole);
// 100 * part / whole with `decimals` decimals and '%' ("12.5%"), signed when `sign` ("+7.6%", "-43.3%"), for the
// window's cells and tooltips; a zero `whole` is the caller's case ("new", "-").
std::string formatRatioPercent(double part, double whole, int decimals, bool sign = false);
// A file's size for a status line: "812 B", "4.2 KiB", "1.3 MiB" (one decimal from KiB on).
std::string formatFileSize(uint64_t bytes);

}   // namespace qflame
