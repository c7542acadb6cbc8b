#include "rounds/RateUnit.h"

#include "pprof/Units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace qflame {

namespace {

bool startsWith(const std::string &s, const char *prefix)
{
    return s.rfind(prefix, 0) == 0;
}

std::string printf1(const char *format, double v, const std::string &text)
{
    char buf[96];
    snprintf(buf, sizeof buf, format, v, text.c_str());
    return buf;
}

// Digits after the point that show an error to two significant digits (0.031, 1.2, 35).
int decimalsFor(double error)
{
    if (!(error > 0) || !std::isfinite(error))
        return -1;
    return std::clamp(1 - int(std::floor(std::log10(error))), 0, 9);
}

}   // namespace

RateUnit rateUnit(const std::string &sampleType, const std::string &unit)
{
    RateUnit u;
    u.unit = unit.empty() ? "count" : unit;
    // Go's heap profile samples inuse_* at one instant (alloc_* accumulate), as the goroutine profile does.
    if (startsWith(sampleType, "inuse") || sampleType == "goroutine" || sampleType == "goroutines")
        u.kind = ValueKind::Gauge;
    if (unitKind(u.unit) != UnitKind::Count)
        u.counted = u.unit;
    else if (sampleType == "alloc_objects" || sampleType == "inuse_objects" || sampleType == "objects")
        u.counted = "objects";
    else if (sampleType == "goroutine" || sampleType == "goroutines")
        u.counted = "goroutines";
    else
        u.counted = sampleType.empty() ? u.unit : sampleType;   // samples, contentions, ...
    return u;
}

DisplayScale displayScale(const RateUnit &u, double magnitude)
{
    const std::string perSecond = u.kind == ValueKind::Rate ? "/s" : "";
    const double base = unitScale(u.unit);   // of one unit, in ns or bytes
    const double m = std::fabs(magnitude);
    switch (unitKind(u.unit)) {
    case UnitKind::Time:
        // Nanoseconds per second are cores busy; a gauge of time (none in Go) in seconds.
        return {1e9 / base, u.kind == ValueKind::Rate ? "cores" : "s"};
    case UnitKind::Bytes: {
        static const struct { double factor; const char *name; } s[] = {
            {1, "B"}, {1024.0, "KiB"}, {1048576.0, "MiB"}, {1073741824.0, "GiB"}, {1099511627776.0, "TiB"}};
        size_t pick = 0;
        for (size_t i = 0; i < std::size(s); ++i)
            if (m * base >= s[i].factor)
                pick = i;
        return {s[pick].factor / base, s[pick].name + perSecond};
    }
    case UnitKind::Count: break;
    }
    static const struct { double factor; const char *prefix; } s[] = {{1, ""}, {1e3, "k "}, {1e6, "M "}, {1e9, "G "}};
    size_t pick = 0;
    for (size_t i = 0; i < std::size(s); ++i)
        if (m >= s[i].factor)
            pick = i;
    return {s[pick].factor, s[pick].prefix + u.counted + perSecond};
}

std::string formatUnitValue(double value, const RateUnit &u)
{
    if (!std::isfinite(value))
        return "?";
    const UnitKind kind = unitKind(u.unit);
    // The rounds' wording for rates of time and bytes, in their base unit.
    if (u.kind == ValueKind::Rate && kind == UnitKind::Time)
        return formatRate(value * unitScale(u.unit), "nanoseconds");
    if (u.kind == ValueKind::Rate && kind == UnitKind::Bytes)
        return formatRate(value * unitScale(u.unit), "bytes");
    if (kind == UnitKind::Bytes)
        return formatValue(value, u.unit);
    const DisplayScale s = displayScale(u, value);
    return printf1("%.4g %s", value / s.divisor, s.text);
}

std::string formatWithError(double value, double standardError, const RateUnit &u)
{
    if (!std::isfinite(value))
        return "?";
    const DisplayScale s = displayScale(u, std::max(std::fabs(value), std::isfinite(standardError) ? standardError : 0));
    const double v = value / s.divisor, e = standardError / s.divisor;
    char buf[128];
    const int decimals = decimalsFor(e);
    if (decimals < 0)
        snprintf(buf, sizeof buf, std::isfinite(e) ? "%.4g ± 0 %s" : "%.4g ± ? %s", v, s.text.c_str());
    else
        snprintf(buf, sizeof buf, "%.*f ± %.*f %s", decimals, v, decimals, e, s.text.c_str());
    return buf;
}

std::string formatRateChange(const RateChange &c, const RateUnit &u, double k)
{
    if (!std::isfinite(c.delta))
        return "? (a rate is unknown)";
    const DisplayScale s = displayScale(u, std::max(std::fabs(c.delta), std::isfinite(c.standardError) ? c.standardError : 0));
    const double d = c.delta / s.divisor, e = c.standardError / s.divisor;
    char amount[128];
    const int decimals = decimalsFor(e);
    if (decimals < 0)
        snprintf(amount, sizeof amount, std::isfinite(e) ? "%+.4g ± 0 %s" : "%+.4g ± ? %s", d, s.text.c_str());
    else
        snprintf(amount, sizeof amount, "%+.*f ± %.*f %s", decimals, d, decimals, e, s.text.c_str());
    char kText[32];
    snprintf(kText, sizeof kText, "%g", k);
    std::string verdict = verdictName(c.verdict);
    if (c.verdict == RoundVerdict::Unknown)
        verdict += ": no error known";
    else if (k <= 0)
        verdict += ": noise test off";
    else if (c.verdict == RoundVerdict::Noise)
        verdict += std::string(": within ") + kText + " SE";
    else
        verdict += std::string(": beyond ") + kText + " SE";
    return formatChangePercent(c.percent) + " (" + amount + "), " + verdict;
}

}   // namespace qflame
