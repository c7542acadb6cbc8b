#include "time/TimelineLabels.h"

#include "time/Timeline.h"

#include <string>
#include <string_view>
#include <vector>

namespace qflame {

namespace {

enum class Key : uint8_t { Other, TimeNs, TimeWithUnit, ThreadName, ThreadId, Pid };

Key keyKind(std::string_view key)
{
    if (key == "end_timestamp_ns" || key == "timestamp_ns")
        return Key::TimeNs;
    if (key == "timestamp")
        return Key::TimeWithUnit;
    if (key == "thread name" || key == "thread_comm" || key == "thread" || key == "goroutine")
        return Key::ThreadName;
    if (key == "thread id" || key == "tid" || key == "thread_id")
        return Key::ThreadId;
    if (key == "pid")
        return Key::Pid;
    return Key::Other;
}

// Nanoseconds per unit of a num_unit; 0 for one that is not a time unit (or none).
int64_t unitNanos(std::string_view unit)
{
    if (unit == "nanoseconds" || unit == "ns")
        return 1;
    if (unit == "microseconds" || unit == "us")
        return 1000;
    if (unit == "milliseconds" || unit == "ms")
        return 1000000;
    if (unit == "seconds" || unit == "s")
        return 1000000000;
    return 0;
}

constexpr int64_t kMaxNanos = int64_t(1) << 62;   // deltas between any two times fit in 64 bits

}   // namespace

std::shared_ptr<const Timeline> timelineFromLabels(const Profile &profile)
{
    // The keys the file names, by string index: most profiles have no time key, and are done here.
    std::vector<std::pair<uint32_t, Key>> keys;
    bool timed = false;
    for (size_t i = 0; i < profile.strings.size(); ++i) {
        const Key k = keyKind(profile.strings[i]);
        if (k != Key::Other) {
            keys.emplace_back(uint32_t(i), k);
            timed = timed || k == Key::TimeNs || k == Key::TimeWithUnit;
        }
    }
    const size_t samples = profile.sampleCount();
    if (!timed || samples == 0 || profile.sampleLabelSet.size() != samples)
        return nullptr;
    const auto kindOf = [&](uint32_t key) {
        for (const auto &[index, kind] : keys)
            if (index == key)
                return kind;
        return Key::Other;
    };
    uint32_t lastUnit = UINT32_MAX;
    int64_t lastUnitNanos = 0;
    TimelineBuilder b;
    std::string name, id, pid;
    for (size_t s = 0; s < samples; ++s) {
        bool hasTime = false;
        name.clear(), id.clear(), pid.clear();
        for (const Label &l : profile.sampleLabels(s)) {
            const Key kind = kindOf(l.key);
            if (kind == Key::Other)
                continue;
            if (kind == Key::ThreadName) {
                if (name.empty())
                    name = l.str ? std::string(profile.str(l.str)) : std::to_string(l.num);
                continue;
            }
            if (l.str)
                continue;   // a string where a number belongs: not one of these
            if (kind == Key::ThreadId || kind == Key::Pid) {
                std::string &to = kind == Key::Pid ? pid : id;
                if (to.empty())
                    to = std::to_string(l.num);
                continue;
            }
            if (l.numUnit != lastUnit)
                lastUnit = l.numUnit, lastUnitNanos = unitNanos(profile.str(l.numUnit));
            const int64_t per = lastUnitNanos ? lastUnitNanos : kind == Key::TimeNs && !l.numUnit ? 1 : 0;
            if (per == 0)
                continue;
            if (l.num < 0 || l.num > kMaxNanos / per)
                return nullptr;
            b.add(uint32_t(s), l.num * per);
            hasTime = true;
        }
        if (!hasTime)
            return nullptr;
        if (!pid.empty())
            id = id.empty() ? pid : pid + "/" + id;
        if (!id.empty())
            name += (name.empty() ? "" : " ") + id;
        b.setSampleThread(uint32_t(s), b.thread(name));
    }
    return b.wallClockIfEpoch().build(std::vector<uint8_t>(profile.sampleTypes.size(), 0));
}

}   // namespace qflame
