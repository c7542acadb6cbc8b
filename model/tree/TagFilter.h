// pprof's -tagfocus / -tagignore: which samples a label filter selects, with the unit arithmetic of its
// numeric ranges (pprof's internal/measurement), as go tool pprof 1.19 does it.
#pragma once

#include "io/Regex.h"
#include "pprof/Profile.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace qflame {

// Numeric label key -> unit, as pprof identifies them before filtering (Profile.NumLabelUnits): the first unit
// given for the key on a sample with a non-zero value, else "bytes" for "alignment" and "request", else the
// key itself.
using NumLabelUnits = std::map<std::string, std::string>;
NumLabelUnits identifyNumLabelUnits(const std::vector<std::shared_ptr<const Profile>> &profiles);

// measurement.Scale: `value` in `fromUnit` expressed in `toUnit`, and the unit it ended up in. Units of one
// kind (bytes: B kB MB GB TB PB; time: ns us ms s hrs; GCU) convert by factors of 1024 / SI; "minimum" and
// "auto" pick a readable unit; a toUnit of the right kind that is unknown gives the kind's default unit (B, s,
// GCU); values of unknown units stay as they are, in toUnit ("" for count, sample, unit, minimum, auto).
struct ScaledValue {
    double value = 0;
    std::string unit;
};
ScaledValue scaleMeasurement(int64_t value, const std::string &fromUnit, const std::string &toUnit);

// The same conversion resolved once, so that scaling many values is arithmetic only.
class UnitScale {
public:
    UnitScale(const std::string &fromUnit, const std::string &toUnit);
    // The value in the target unit; *unit is set to that unit (valid as long as this object).
    double apply(int64_t value, std::string_view *unit) const;

private:
    int m_kind = -1;            // index of the from-unit's kind; -1: no known kind, values pass through
    double m_fromFactor = 1;
    bool m_autoScale = false;   // toUnit "minimum" / "auto": each value gets its readable unit
    double m_toFactor = 1;
    std::string m_toUnit;
};

class TagFilter {
public:
    // Parses a -tagfocus / -tagignore value; `option` names it in errors. What it means, from pprof:
    // - "KEY=RANGE" or "RANGE": samples with a numeric label (of KEY, or of any key) whose value, in the
    //   unit of its key, is in RANGE: "32kb" (equal), "1kb:" (at least), ":64kb" (at most), "12kb:64mb"
    //   (inclusive). The RANGE's own unit decides the comparison: a value whose unit scales to another unit
    //   than the RANGE's never matches (so "bytes=4096" matches no label in bytes, "bytes=4kb" does).
    // - "KEY=RE1,RE2,...": samples with a string label KEY whose value matches one of the regexes.
    // - "RE1,RE2,...": samples where each regex matches "key:value" of one of their string labels.
    // Text that is not exactly one of the RANGE forms ("1kb-2kb") is a regex list, as in pprof.
    static TagFilter parse(const std::string &value, const char *option);

    const std::string &key() const { return m_key; }   // empty: any key
    bool isRange() const { return m_isRange; }
    // Whether a numeric value of a label whose key has `unit` is in the range.
    bool inRange(int64_t value, const std::string &unit) const;

private:
    friend class TagMatcher;
    bool accepts(double scaled) const;
    enum class Bound { Equal, AtLeast, AtMost, Between };
    std::string m_key;
    bool m_isRange = false;
    Bound m_bound = Bound::Equal;
    double m_low = 0, m_high = 0;
    std::string m_unit;                        // the range's unit after scaling, compared with the label's
    std::vector<Regex> m_regexes;
};

// A TagFilter applied to the samples of one profile, with caches so that each distinct label, and each label
// set, is matched once.
class TagMatcher {
public:
    TagMatcher(const TagFilter &filter, const Profile &p, const NumLabelUnits &units);
    bool matches(size_t sample);

private:
    bool setMatches(uint32_t set);
    bool isWantedKey(uint32_t key);
    bool valueMatches(uint32_t str);
    bool pairMatches(uint32_t key, uint32_t str, size_t regex);
    const UnitScale &keyScale(uint32_t key);

    const TagFilter &m_filter;
    const Profile &m_p;
    const NumLabelUnits &m_units;
    std::vector<int8_t> m_wantedKey, m_valueMatch;   // per string index; -1 = not computed yet
    std::vector<int8_t> m_setMatch;                  // per label set; -1 = not computed yet
    std::map<std::pair<uint32_t, uint32_t>, std::vector<int8_t>> m_pairMatch;
    std::map<uint32_t, UnitScale> m_keyScales;   // per label key: its unit to the range's
};

}   // namespace qflame
