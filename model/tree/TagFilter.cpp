#include "tree/TagFilter.h"

#include "tree/PprofRegex.h"

#include <array>
#include <cerrno>
#include <cstdlib>
#include <optional>

namespace qflame {

namespace {

// measurement.go's unit tables.
struct UnitDef {
    const char *name;                    // canonical
    std::array<const char *, 3> aliases; // nullptr-terminated when shorter
    double factor;                       // in the kind's base unit
};
struct UnitKindDef {
    std::vector<UnitDef> units;
    UnitDef defaultUnit;
};

const std::vector<UnitKindDef> &unitKinds()
{
    static const std::vector<UnitKindDef> kinds = {
        {{{"B", {"b", "byte", nullptr}, 1},
          {"kB", {"kb", "kbyte", "kilobyte"}, double(1 << 10)},
          {"MB", {"mb", "mbyte", "megabyte"}, double(1 << 20)},
          {"GB", {"gb", "gbyte", "gigabyte"}, double(1 << 30)},
          {"TB", {"tb", "tbyte", "terabyte"}, double(uint64_t(1) << 40)},
          {"PB", {"pb", "pbyte", "petabyte"}, double(uint64_t(1) << 50)}},
         {"B", {"b", "byte", nullptr}, 1}},
        {{{"ns", {"ns", "nanosecond", nullptr}, 1},
          {"us", {"\xce\xbcs", "us", "microsecond"}, 1e3},
          {"ms", {"ms", "millisecond", nullptr}, 1e6},
          {"s", {"s", "sec", "second"}, 1e9},
          {"hrs", {"hour", "hr", nullptr}, 3.6e12}},
         {"s", {nullptr, nullptr, nullptr}, 1e9}},
        {{{"n*GCU", {"nanogcu", nullptr, nullptr}, 1e-9},
          {"u*GCU", {"microgcu", nullptr, nullptr}, 1e-6},
          {"m*GCU", {"milligcu", nullptr, nullptr}, 1e-3},
          {"GCU", {"gcu", nullptr, nullptr}, 1},
          {"k*GCU", {"kilogcu", nullptr, nullptr}, 1e3},
          {"M*GCU", {"megagcu", nullptr, nullptr}, 1e6},
          {"G*GCU", {"gigagcu", nullptr, nullptr}, 1e9},
          {"T*GCU", {"teragcu", nullptr, nullptr}, 1e12},
          {"P*GCU", {"petagcu", nullptr, nullptr}, 1e15}},
         {"GCU", {nullptr, nullptr, nullptr}, 1}},
    };
    return kinds;
}

// strings.ToLower, for comparing with the units' names, which are ASCII: of the characters beyond ASCII only the
// Kelvin sign (U+212A) lower-cases to an ASCII letter ('k'); every other one leaves a name that matches none.
std::string lowerForUnits(const std::string &unit)
{
    std::string u;
    u.reserve(unit.size());
    for (size_t i = 0; i < unit.size(); ++i) {
        if (unit.compare(i, 3, "\xE2\x84\xAA") == 0) {
            u += 'k';
            i += 2;
        } else {
            const char c = unit[i];
            u += c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c;
        }
    }
    return u;
}

// unitType.sniffUnit: lower-cased, one trailing "s" dropped from names longer than two bytes.
const UnitDef *sniffUnit(const UnitKindDef &kind, const std::string &unit)
{
    std::string u = lowerForUnits(unit);
    if (u.size() > 2 && u.back() == 's')
        u.pop_back();
    for (const UnitDef &d : kind.units)
        for (const char *alias : d.aliases)
            if (alias && u == alias)
                return &d;
    return nullptr;
}

bool isUninterestingUnit(const std::string &unit)
{
    return unit == "count" || unit == "sample" || unit == "unit" || unit == "minimum" || unit == "auto";
}

// Strictly base-10 int64 as strconv.ParseInt(s, 10, 64) reads the digits the range syntax allows.
std::optional<int64_t> parseInt(const std::string &text)
{
    errno = 0;
    char *end = nullptr;
    const long long v = std::strtoll(text.c_str(), &end, 10);
    if (errno == ERANGE || end != text.c_str() + text.size())
        return std::nullopt;
    return int64_t(v);
}

// One match of pprof's tagFilterRangeRx, ([+-]?[[:digit:]]+)([[:alpha:]]+)?, found leftmost-first.
struct RangeToken {
    size_t begin = 0, end = 0;
    std::string number, unit;
};

std::optional<RangeToken> nextRangeToken(const std::string &s, size_t from)
{
    auto digit = [&](size_t i) { return i < s.size() && s[i] >= '0' && s[i] <= '9'; };
    auto alpha = [&](size_t i) {
        return i < s.size() && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z'));
    };
    for (size_t i = from; i < s.size(); ++i) {
        size_t j = i;
        if ((s[j] == '+' || s[j] == '-') && digit(j + 1))
            ++j;
        if (!digit(j))
            continue;
        while (digit(j))
            ++j;
        RangeToken t;
        t.begin = i;
        t.number = s.substr(i, j - i);
        const size_t unitBegin = j;
        while (alpha(j))
            ++j;
        t.unit = s.substr(unitBegin, j - unitBegin);
        t.end = j;
        return t;
    }
    return std::nullopt;
}

}   // namespace

UnitScale::UnitScale(const std::string &fromUnit, const std::string &toUnit)
{
    const std::vector<UnitKindDef> &kinds = unitKinds();
    for (size_t k = 0; k < kinds.size(); ++k) {
        if (const UnitDef *from = sniffUnit(kinds[k], fromUnit)) {
            m_kind = int(k);
            m_fromFactor = from->factor;
            m_autoScale = toUnit == "minimum" || toUnit == "auto";
            const UnitDef *to = sniffUnit(kinds[k], toUnit);
            if (!to)
                to = &kinds[k].defaultUnit;
            m_toFactor = to->factor;
            m_toUnit = to->name;
            return;
        }
    }
    m_toUnit = isUninterestingUnit(toUnit) ? std::string() : toUnit;
}

double UnitScale::apply(int64_t value, std::string_view *unit) const
{
    if (value < 0 && value != INT64_MIN)   // Go scales -value and negates (the guard is Go's overflow check)
        return -apply(-value, unit);
    *unit = m_toUnit;
    if (m_kind < 0)
        return double(value);
    const double v = double(value) * m_fromFactor;
    if (m_autoScale) {
        const UnitKindDef &kind = unitKinds()[size_t(m_kind)];
        double f = 0;
        for (const UnitDef &u : kind.units)
            if (u.factor >= f && v / u.factor >= 1.0) {
                f = u.factor;
                *unit = u.name;
            }
        if (f != 0)
            return v / f;
        *unit = kind.defaultUnit.name;
        return v / kind.defaultUnit.factor;
    }
    return v / m_toFactor;
}

ScaledValue scaleMeasurement(int64_t value, const std::string &fromUnit, const std::string &toUnit)
{
    const UnitScale scale(fromUnit, toUnit);
    std::string_view unit;
    const double v = scale.apply(value, &unit);
    return {v, std::string(unit)};
}

NumLabelUnits identifyNumLabelUnits(const std::vector<std::shared_ptr<const Profile>> &profiles)
{
    NumLabelUnits units;
    for (const auto &pp : profiles) {
        const Profile &p = *pp;
        const size_t nTypes = p.sampleTypes.size();
        for (size_t s = 0; s < p.sampleCount(); ++s) {
            bool zero = true;   // pprof's merge drops samples whose values are all zero
            for (size_t t = 0; t < nTypes && zero; ++t)
                zero = p.value(s, t) == 0;
            if (zero)
                continue;
            for (const Label &l : p.sampleLabels(s)) {
                if (l.str != 0 || (l.num == 0 && l.numUnit == 0))   // a string label, or no label at all
                    continue;
                std::string &unit = units[std::string(p.str(l.key))];
                if (unit.empty())
                    unit = p.str(l.numUnit);
            }
        }
    }
    for (auto &[key, unit] : units)
        if (unit.empty())
            unit = key == "alignment" || key == "request" ? "bytes" : key;
    return units;
}

TagFilter TagFilter::parse(const std::string &text, const char *option)
{
    TagFilter f;
    std::string value = text;
    const size_t eq = text.find('=');
    if (eq != std::string::npos) {
        f.m_key = text.substr(0, eq);
        value = text.substr(eq + 1);
    }

    // parseTagFilterRange: at most two tokens, and the text must be exactly one of the range forms.
    if (auto first = nextRangeToken(value, 0)) {
        const std::string match = value.substr(first->begin, first->end - first->begin);
        const auto second = nextRangeToken(value, first->end);
        auto number = [&](const std::string &digits) {
            auto v = parseInt(digits);
            if (!v)
                throw FilterError(std::string(option) + ": the number " + digits + " is out of range");
            return *v;
        };
        if (!second && (value == match || value == match + ":" || value == ":" + match)) {
            const ScaledValue v = scaleMeasurement(number(first->number), first->unit, first->unit);
            f.m_isRange = true;
            f.m_unit = v.unit;
            f.m_low = f.m_high = v.value;
            f.m_bound = value == match ? Bound::Equal : value == match + ":" ? Bound::AtLeast : Bound::AtMost;
        } else if (second && value == match + ":" + value.substr(second->begin, second->end - second->begin)) {
            const ScaledValue low = scaleMeasurement(number(first->number), first->unit, first->unit);
            const ScaledValue high = scaleMeasurement(number(second->number), second->unit, low.unit);
            if (high.unit == low.unit) {
                f.m_isRange = true;
                f.m_unit = low.unit;
                f.m_low = low.value;
                f.m_high = high.value;
                f.m_bound = Bound::Between;
            }
        }
    }
    if (f.m_isRange)
        return f;

    size_t start = 0;
    while (true) {
        const size_t comma = value.find(',', start);
        f.m_regexes.push_back(compileRequiredPprofRegex(value.substr(start, comma - start), option));
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return f;
}

bool TagFilter::accepts(double v) const
{
    switch (m_bound) {
    case Bound::Equal: return v == m_low;
    case Bound::AtLeast: return v >= m_low;
    case Bound::AtMost: return v <= m_high;
    case Bound::Between: return v >= m_low && v <= m_high;
    }
    return false;
}

bool TagFilter::inRange(int64_t value, const std::string &unit) const
{
    const UnitScale scale(unit, m_unit);
    std::string_view scaledUnit;
    const double v = scale.apply(value, &scaledUnit);
    return scaledUnit == m_unit && accepts(v);
}

TagMatcher::TagMatcher(const TagFilter &filter, const Profile &p, const NumLabelUnits &units)
    : m_filter(filter), m_p(p), m_units(units), m_wantedKey(p.strings.size(), -1), m_valueMatch(p.strings.size(), -1)
{
}

bool TagMatcher::isWantedKey(uint32_t key)
{
    if (m_wantedKey[key] < 0)
        m_wantedKey[key] = m_p.str(key) == m_filter.m_key;
    return m_wantedKey[key];
}

bool TagMatcher::valueMatches(uint32_t str)
{
    if (m_valueMatch[str] < 0) {
        m_valueMatch[str] = 0;
        for (const Regex &re : m_filter.m_regexes)
            if (pprofMatch(re, m_p.str(str))) {
                m_valueMatch[str] = 1;
                break;
            }
    }
    return m_valueMatch[str];
}

bool TagMatcher::pairMatches(uint32_t key, uint32_t str, size_t regex)
{
    std::vector<int8_t> &m = m_pairMatch[{key, str}];
    if (m.empty()) {
        // The TODO in pprof says it may one day match the value alone; 1.19 matches "key:value".
        const std::string text = std::string(m_p.str(key)) + ":" + std::string(m_p.str(str));
        for (const Regex &re : m_filter.m_regexes)
            m.push_back(pprofMatch(re, text));
    }
    return m[regex];
}

const UnitScale &TagMatcher::keyScale(uint32_t key)
{
    auto it = m_keyScales.find(key);
    if (it == m_keyScales.end()) {
        // numLabelUnits[key] in Go: "" for a key seen only on samples without value.
        const auto unit = m_units.find(std::string(m_p.str(key)));
        it = m_keyScales.try_emplace(key, unit == m_units.end() ? std::string() : unit->second, m_filter.m_unit).first;
    }
    return it->second;
}

bool TagMatcher::matches(size_t sample)
{
    const uint32_t set = m_p.labelSetOf(sample);
    if (m_setMatch.empty())
        m_setMatch.assign(m_p.labelSetCount(), -1);
    if (m_setMatch[set] < 0)
        m_setMatch[set] = setMatches(set);
    return m_setMatch[set];
}

bool TagMatcher::setMatches(uint32_t set)
{
    const std::span<const Label> labels = m_p.labelSet(set);
    const bool anyKey = m_filter.m_key.empty();
    if (m_filter.m_isRange) {
        for (const Label &l : labels) {
            if (l.str != 0 || (l.num == 0 && l.numUnit == 0) || !(anyKey || isWantedKey(l.key)))
                continue;
            std::string_view unit;
            const double v = keyScale(l.key).apply(l.num, &unit);
            if (unit == m_filter.m_unit && m_filter.accepts(v))
                return true;
        }
        return false;
    }
    if (!anyKey) {
        for (const Label &l : labels) {
            if (l.str != 0 && isWantedKey(l.key) && valueMatches(l.str))
                return true;
        }
        return false;
    }
    for (size_t r = 0; r < m_filter.m_regexes.size(); ++r) {
        bool found = false;
        for (size_t i = 0; i < labels.size() && !found; ++i)
            found = labels[i].str != 0 && pairMatches(labels[i].key, labels[i].str, r);
        if (!found)
            return false;
    }
    return true;
}

}   // namespace qflame
