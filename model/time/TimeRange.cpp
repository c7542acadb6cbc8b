#include "time/TimeRange.h"

#include "io/ReadOptions.h"
#include "pprof/LabelSets.h"
#include "time/Timeline.h"

#include "io/Regex.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <regex>

namespace qflame {

std::string secondsText(double nanos, int decimals)
{
    char buf[64];
    if (decimals < 0)
        std::snprintf(buf, sizeof buf, "%g", nanos / 1e9);
    else
        std::snprintf(buf, sizeof buf, "%.*f", decimals, nanos / 1e9);
    return buf;
}

int secondsDecimals(double stepNanos)
{
    return std::clamp(int(std::ceil(-std::log10(stepNanos / 1e9) - 1e-9)), 0, 9);
}

int64_t rangesLength(const TimeRanges &ranges)
{
    int64_t total = 0;
    for (const TimeRange &r : ranges)
        total += r.toNanos - r.fromNanos;
    return total;
}

const Timeline &requireTimeline(const Profile &profile, const std::string &what)
{
    if (!profile.timeline)
        throw ProfileError(profile.sourceName + ": the profile has no sample times, which " + what +
                           " needs (perf script, Chrome .cpuprofile and speedscope files have them, and pprof files "
                           "whose samples have timestamp labels)");
    return *profile.timeline;
}

namespace {

// Seconds with up to nine decimals, exactly: "12.5" -> 12500000000.
std::optional<int64_t> secondsToNanos(const std::string &text)
{
    static const std::regex number(R"(^(-?)([0-9]{1,9})(?:\.([0-9]{0,9}))?$)");
    std::smatch m;
    if (!std::regex_match(text, m, number))
        return std::nullopt;
    std::string fraction = m[3].str();
    fraction.resize(9, '0');
    const int64_t nanos = std::stoll(m[2].str()) * 1000000000 + std::stoll(fraction);
    return m[1].length() ? -nanos : nanos;
}

int digitsValue(std::string_view digits)
{
    int v = 0;
    std::from_chars(digits.data(), digits.data() + digits.size(), v);
    return v;
}

// Seconds since the epoch of an RFC 3339 date ("2024-05-01"), time ("10:00:00") and zone ("Z", "+02:00"), or
// nothing for a day or time that does not exist.
std::optional<int64_t> epochSeconds(std::string_view date, std::string_view time, std::string_view zone)
{
    using namespace std::chrono;
    const year_month_day day{year{digitsValue(date.substr(0, 4))}, month(unsigned(digitsValue(date.substr(5, 2)))),
                             std::chrono::day(unsigned(digitsValue(date.substr(8, 2))))};
    const int h = digitsValue(time.substr(0, 2)), m = digitsValue(time.substr(3, 2));
    const int s = digitsValue(time.substr(6, 2));
    if (!day.ok() || h > 23 || m > 59 || s > 59)
        return std::nullopt;
    int64_t offset = 0;
    if (zone != "Z" && zone != "z") {
        const int zh = digitsValue(zone.substr(1, 2)), zm = digitsValue(zone.substr(4, 2));
        if (zh > 23 || zm > 59)
            return std::nullopt;
        offset = (zone[0] == '-' ? -1 : 1) * (int64_t(zh) * 3600 + zm * 60);
    }
    return int64_t(sys_days(day).time_since_epoch().count()) * 86400 + h * 3600 + m * 60 + s - offset;
}

}   // namespace

int64_t parseTimePoint(const Timeline &timeline, const std::string &text, const std::string &sourceName)
{
    if (const auto nanos = secondsToNanos(text))
        return *nanos;
    // RFC 3339: a date, 'T' or ' ', a time with optional fraction, and Z or an offset.
    static const Regex rfc(
        R"(^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$)");
    const RegexMatch m = rfc.match(text);
    const std::optional<int64_t> when =
        m.hasMatch() ? epochSeconds(m.captured(1), m.captured(2), m.captured(4)) : std::nullopt;
    if (!when)
        throw ProfileError(sourceName + ": '" + text + "' is neither seconds from the first sample nor an RFC 3339 time");
    if (!timeline.wallClock)
        throw ProfileError(sourceName + ": '" + text + "' is a clock time, but the file's sample times are not "
                           "(give seconds from the first sample)");
    std::string fraction(m.captured(3));
    fraction.resize(9, '0');
    const int64_t epoch = *when * 1000000000 + std::stoll(fraction);
    return epoch - timeline.startNanos;
}

TimeRange parseTimeRange(const Timeline &timeline, const std::optional<std::string> &from,
                         const std::optional<std::string> &to, const std::string &sourceName)
{
    TimeRange r;
    if (from)
        r.fromNanos = parseTimePoint(timeline, *from, sourceName);
    if (to)
        r.toNanos = parseTimePoint(timeline, *to, sourceName);
    if (r.fromNanos >= r.toNanos)
        throw ProfileError(sourceName + ": the time range is empty (--from must be before --to)");
    return r;
}

TimeRanges timeRangeUnion(TimeRanges ranges)
{
    std::erase_if(ranges, [](const TimeRange &r) { return r.toNanos <= r.fromNanos; });
    std::sort(ranges.begin(), ranges.end(), [](const TimeRange &a, const TimeRange &b) { return a.fromNanos < b.fromNanos; });
    TimeRanges out;
    for (const TimeRange &r : ranges)
        if (!out.empty() && r.fromNanos <= out.back().toNanos)
            out.back().toNanos = std::max(out.back().toNanos, r.toNanos);
        else
            out.push_back(r);
    return out;
}

TimeRanges timeRangeMinus(const TimeRanges &ranges, const TimeRange &cut)
{
    TimeRanges out;
    for (const TimeRange &r : timeRangeUnion(ranges)) {
        if (r.fromNanos < cut.fromNanos)
            out.push_back({r.fromNanos, std::min(r.toNanos, cut.fromNanos)});
        if (r.toNanos > cut.toNanos)
            out.push_back({std::max(r.fromNanos, cut.toNanos), r.toNanos});
    }
    return timeRangeUnion(std::move(out));
}

std::shared_ptr<const Profile> profileInRange(const std::shared_ptr<const Profile> &profile, const TimeRange &range,
                                              const std::string &threadRegex)
{
    return profileInRanges(profile, TimeRanges{range}, threadRegex);
}

std::shared_ptr<const Profile> profileInRanges(const std::shared_ptr<const Profile> &profile, const TimeRanges &given,
                                               const std::string &threadRegex)
{
    const TimeRanges ranges = timeRangeUnion(given);
    const Profile &in = *profile;
    const Timeline &t = requireTimeline(in, "a time range");
    const size_t types = in.sampleTypes.size();
    // The threads kept.
    std::vector<uint8_t> keepThread(t.threadNames.size(), 1);
    if (!threadRegex.empty()) {
        const Regex re(threadRegex);
        if (!re.isValid())
            throw ProfileError("the thread regex '" + threadRegex + "' is not valid: " + re.errorString());
        for (size_t i = 0; i < keepThread.size(); ++i)
            keepThread[i] = re.matches(t.threadNames[i]);
    }
    std::vector<EventValues> values;
    for (size_t k = 0; k < types; ++k)
        values.emplace_back(in, k);
    // Per sample: the sum of its events in range, and whether it has one.
    std::vector<int64_t> sums(in.sampleCount() * types, 0);
    std::vector<uint8_t> hit(in.sampleCount(), 0);
    TimelineBuilder events;
    // The events come in time order and the ranges sorted: the range an event may be in only moves forward.
    size_t at = 0;
    t.forEach([&](size_t, int64_t nanos, uint32_t s, int64_t weight) {
        while (at < ranges.size() && nanos >= ranges[at].toNanos)
            ++at;
        if (at == ranges.size() || nanos < ranges[at].fromNanos || !keepThread[t.threadOf(s)])
            return;
        hit[s] = 1;
        for (size_t k = 0; k < types; ++k)
            sums[s * types + k] = wrappingAdd(sums[s * types + k], values[k](weight, s));
        events.add(s, t.startNanos + nanos, weight);
    });
    auto out = std::make_shared<Profile>();
    Profile &p = *out;
    p.strings = in.strings;
    p.sampleTypes = in.sampleTypes;
    p.defaultSampleType = in.defaultSampleType;
    p.mappings = in.mappings;
    p.functions = in.functions;
    p.lines = in.lines;
    p.locations = in.locations;
    p.dropFrames = in.dropFrames, p.keepFrames = in.keepFrames;
    p.periodType = in.periodType, p.period = in.period;
    p.comments = in.comments;
    p.sourceName = in.sourceName;
    p.sampleLocBegin.push_back(0);
    LabelSetTable labelSets(p);
    std::vector<uint32_t> sampleOf(in.sampleCount(), UINT32_MAX);
    for (size_t s = 0; s < in.sampleCount(); ++s) {
        if (!hit[s])
            continue;
        sampleOf[s] = uint32_t(p.sampleCount());
        labelSets.setSampleSet(p.sampleCount(), labelSets.intern(in.sampleLabels(s)));
        events.setSampleThread(uint32_t(s), t.threadOf(uint32_t(s)));
        p.sampleLocations.append(in.sampleLocations, in.sampleLocBegin[s], in.sampleLocBegin[s + 1]);
        p.sampleLocBegin.push_back(locationPosition(p.sampleLocations.size()));
        p.values.append(sums.begin() + int64_t(s * types), sums.begin() + int64_t((s + 1) * types));
    }
    // The ranges' part of the recording, which starts at the first event and lasts the file's duration.
    const int64_t end = std::max(t.spanNanos, in.durationNanos);
    p.durationNanos = 0;
    for (const TimeRange &r : ranges)
        p.durationNanos += std::clamp<int64_t>(r.toNanos, 0, end) - std::clamp<int64_t>(r.fromNanos, 0, end);
    const int64_t from = ranges.empty() ? 0 : std::clamp<int64_t>(ranges.front().fromNanos, 0, end);
    p.timeNanos = in.timeNanos ? in.timeNanos + from : 0;
    // The same threads by index, so that the cut's thread names are the file's.
    for (const std::string &name : t.threadNames)
        events.thread(name);
    events.setWallClock(t.wallClock);
    events.setOrigin(t.startNanos);   // the same seconds from the first sample as the file's
    p.timeline = events.build(t.weighted, &sampleOf);
    return out;
}

std::shared_ptr<const Profile> cutToTimeOptions(std::shared_ptr<const Profile> profile, const std::string &from,
                                                const std::string &to)
{
    if (from.empty() && to.empty())
        return profile;
    const Timeline &t = requireTimeline(*profile, "--from/--to");
    // Several ranges, comma-separated (the CLI's --from/--to repeated, pair by pair): their union.
    const auto split = [](const std::string &text) {
        std::vector<std::string> out(1);
        for (const char c : text)
            if (c == ',')
                out.emplace_back();
            else
                out.back().push_back(c);
        return out;
    };
    const std::vector<std::string> froms = split(from), tos = split(to);
    if (froms.size() > 1 || tos.size() > 1) {
        if (froms.size() != tos.size())
            throw ProfileError(profile->sourceName + ": several time ranges need --from and --to in pairs (" +
                               std::to_string(froms.size()) + " --from, " + std::to_string(tos.size()) + " --to)");
        TimeRanges ranges;
        for (size_t i = 0; i < froms.size(); ++i)
            ranges.push_back(parseTimeRange(t, froms[i].empty() ? std::nullopt : std::optional<std::string>(froms[i]),
                                            tos[i].empty() ? std::nullopt : std::optional<std::string>(tos[i]),
                                            profile->sourceName));
        return profileInRanges(profile, ranges);
    }
    const TimeRange range = parseTimeRange(t, from.empty() ? std::nullopt : std::optional<std::string>(from),
                                           to.empty() ? std::nullopt : std::optional<std::string>(to),
                                           profile->sourceName);
    return profileInRange(profile, range);
}

}   // namespace qflame
