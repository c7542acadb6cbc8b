#include "pprof/PprofLabels.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <initializer_list>

namespace qflame {

namespace {

struct UnitOfType {
    const char *name;
    std::initializer_list<const char *> aliases;
    double factor;
};

struct UnitType {
    std::initializer_list<UnitOfType> units;
};

// pprof's unit tables (the GCU table left out: no profile qflame reads uses it).
const UnitType kBytes{{{"B", {"b", "byte"}, 1},
                       {"kB", {"kb", "kbyte", "kilobyte"}, double(1 << 10)},
                       {"MB", {"mb", "mbyte", "megabyte"}, double(1 << 20)},
                       {"GB", {"gb", "gbyte", "gigabyte"}, double(1ull << 30)},
                       {"TB", {"tb", "tbyte", "terabyte"}, double(1ull << 40)},
                       {"PB", {"pb", "pbyte", "petabyte"}, double(1ull << 50)}}};
const UnitType kTime{{{"ns", {"ns", "nanosecond"}, 1},
                      {"us", {"\xce\xbcs", "us", "microsecond"}, 1e3},
                      {"ms", {"ms", "millisecond"}, 1e6},
                      {"s", {"s", "sec", "second"}, 1e9},
                      {"hrs", {"hour", "hr"}, 3600e9}}};

// pprof's sniffUnit: lower case, one trailing "s" cut from names longer than 2.
const UnitOfType *sniff(const UnitType &type, std::string_view unit)
{
    std::string u(unit);
    std::transform(u.begin(), u.end(), u.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (u.size() > 2 && u.back() == 's')
        u.pop_back();
    for (const UnitOfType &candidate : type.units)
        for (const char *alias : candidate.aliases)
            if (u == alias)
                return &candidate;
    return nullptr;
}

}   // namespace

std::string pprofScaledLabel(int64_t value, std::string_view unit)
{
    double v = double(value);
    std::string suffix;
    for (const UnitType *type : {&kBytes, &kTime}) {
        const UnitOfType *from = sniff(*type, unit);
        if (!from)
            continue;
        // autoScale: the largest factor with |value| / factor >= 1, for the magnitude (Scale flips negatives).
        const double base = std::fabs(v) * from->factor;
        double f = 0;
        const char *name = "";
        for (const UnitOfType &u : type->units)
            if (u.factor >= f && base / u.factor >= 1.0)
                f = u.factor, name = u.name;
        if (f == 0)
            f = type == &kTime ? 1e9 : 1, name = type == &kTime ? "s" : "B";   // the type's default unit
        v = std::copysign(base / f, v);
        suffix = name;
        break;
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    std::string s = buf;
    if (s.size() >= 3 && s.compare(s.size() - 3, 3, ".00") == 0)
        s.resize(s.size() - 3);
    if (s == "0" || s == "-0")
        return "0";
    return s + suffix;
}

std::string pprofPercentage(int64_t value, int64_t total)
{
    const double ratio = total != 0 ? std::fabs(double(value) / double(total)) * 100 : 0;
    if (ratio >= 99.95 && ratio <= 100.05)
        return "  100%";
    char buf[64];
    std::snprintf(buf, sizeof buf, ratio >= 1.0 ? "%5.2f%%" : "%5.2g%%", ratio);
    return buf;
}

}   // namespace qflame
