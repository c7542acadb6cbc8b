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

}   // namespace qflame
