// Each sample's time and thread, for the formats that record them (perf script, Chrome .cpuprofile in both its
// forms, speedscope's sampled and evented profiles, pprof samples with a timestamp label): what the heatmap, a time range's profile and a comparison of two ranges are computed from (issue #35).
//
// A profile's samples are stacks with summed values (equal stacks of a file are one sample); the timeline keeps
// the file's records as events in time order, each naming the sample it was added to. An event costs 8 bytes:
// the sample (32 bits) and the time since the previous event in nanoseconds (32 bits; a gap of 4.29 s or more
// is kLongDelta and its length the next entry of longDeltas). A record's own weight (perf's period, a
// .cpuprofile sample's duration) costs 8 more, and only when the records of one sample differ in it: otherwise
// each event's value is its sample's value divided by the sample's events. The thread is the sample's (perf
// keeps comm, pid and tid apart in its samples), one entry per sample.
//
// Profile::timeline holds it (null when the file has no times); Profile.h only declares the type, so nothing
// below this folder depends on it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace qflame {

struct Profile;

// 10^18 ns after the Unix epoch (2001-09-09): no clock that counts from boot gets there (31.7 years of uptime),
// so a time past it counts from the epoch, a wall-clock time (CLOCK_REALTIME, or TAI's 37 s apart).
inline constexpr int64_t kEpochFloorNanos = 1000000000000000000;

struct Timeline {
    static constexpr uint32_t kLongDelta = UINT32_MAX;

    std::vector<uint32_t> sample;        // per event: its sample in the profile
    std::vector<uint32_t> delta;         // per event: nanoseconds since the previous one (the first: since startNanos)
    std::vector<int64_t> longDeltas;     // the gaps of kLongDelta, in order
    std::vector<int64_t> weight;         // per event, or empty: its value in the weighted sample types
    // Or each event's weight is the time until the next one, the last's until endNanos (a .cpuprofile's sample
    // durations, as DevTools counts them): no memory for them.
    bool gapWeights = false;
    int64_t endNanos = 0;                // from the origin
    std::vector<uint8_t> weighted;       // per sample type: 1 when its event values are the weights
    std::vector<uint32_t> sampleThread;  // per sample: its thread in threadNames; empty: all on thread 0
    std::vector<std::string> threadNames;
    int64_t startNanos = 0;   // the origin on the file's clock: the first event's time (a range's cut keeps its file's)
    int64_t spanNanos = 0;    // the last event's time from the origin
    // startNanos counts from the Unix epoch (else: since boot, or an arbitrary origin). Set for perf script
    // recorded with -k CLOCK_REALTIME and pprof timestamp labels since the epoch (kEpochFloorNanos tells them);
    // never for .cpuprofile (startTime is V8's monotonic clock) or speedscope (no absolute start in its schema).
    bool wallClock = false;

    size_t size() const { return sample.size(); }
    uint64_t bytes() const;
    uint32_t threadOf(uint32_t s) const { return sampleThread.empty() ? 0 : sampleThread[s]; }

    // fn(event, nanoseconds from the origin, sample, weight), in time order.
    template <class Fn>
    void forEach(Fn &&fn) const
    {
        size_t longAt = 0;
        const auto step = [&](size_t i) { return delta[i] == kLongDelta ? longDeltas[longAt++] : int64_t(delta[i]); };
        int64_t t = sample.empty() ? 0 : step(0);
        for (size_t i = 0; i < sample.size(); ++i) {
            const int64_t next = i + 1 < sample.size() ? t + step(i + 1) : t;
            const int64_t w = gapWeights ? (i + 1 < sample.size() ? next - t : std::max<int64_t>(endNanos - t, 0))
                              : weight.empty() ? 0 : weight[i];
            fn(i, t, sample[i], w);
            t = next;
        }
    }
};

// The value of each event in one sample type: its weight, or its sample's value shared by its events.
class EventValues {
public:
    EventValues(const Profile &profile, size_t type);
    int64_t operator()(int64_t weight, uint32_t sample) const
    {
        return m_weighted ? (m_share[sample] ? weight : 0) : m_share[sample];
    }

private:
    bool m_weighted = false;
    std::vector<int64_t> m_share;   // per sample: its value / its events (weighted: whether its value is non-zero)
};

// Collects events in any order (a .cpuprofile's samples may come late) and builds the timeline.
class TimelineBuilder {
public:
    // A thread by name, made on first use.
    uint32_t thread(std::string_view name);
    void setSampleThread(uint32_t sample, uint32_t thread);
    // An event of `sample` at `nanos` on the file's clock, with its own weight.
    void add(uint32_t sample, int64_t nanos, int64_t weight = 0)
    {
        m_sample.push_back(sample);
        m_time.push_back(nanos);
        m_weight.push_back(weight);
    }
    // Adds to the last event's weight (an evented profile's interval that goes on after an event that changed
    // nothing).
    void extendLast(int64_t weight) { m_weight.back() += weight; }
    size_t size() const { return m_sample.size(); }
    uint64_t bytes() const;   // held now, as the readers' budgets count it
    // bytes(), counted as grown when the next add would grow the arrays (heldBytes in formats/StackProfile.h).
    uint64_t grownBytes() const { return bytes() * (m_sample.size() == m_sample.capacity() ? 2 : 1); }
    void setWallClock(bool wallClock) { m_wallClock = wallClock; }
    // The times are wall-clock times when the first is past kEpochFloorNanos (checked at build): for a clock
    // that a format does not name (perf's -k CLOCK_REALTIME, a pprof timestamp label).
    TimelineBuilder &wallClockIfEpoch() { m_wallIfEpoch = true; return *this; }
    // The origin of the times (default: the first event's).
    void setOrigin(int64_t nanos) { m_origin = nanos, m_hasOrigin = true; }
    // `weighted`: per sample type, whether the events' weights are its values (else each event is an equal
    // share of its sample's value); `sampleOf`, when given, maps the samples added to the profile's. Null when
    // no event was added, or when the times span more than int64 nanoseconds hold.
    std::shared_ptr<const Timeline> build(std::vector<uint8_t> weighted, const std::vector<uint32_t> *sampleOf = nullptr);

private:
    std::vector<uint32_t> m_sample;
    std::vector<int64_t> m_time, m_weight;
    std::vector<uint32_t> m_sampleThread;
    std::vector<std::string> m_threadNames;
    std::unordered_map<std::string, uint32_t> m_threadIndex;
    bool m_wallClock = false, m_hasOrigin = false, m_wallIfEpoch = false;
    int64_t m_origin = 0;
};

}   // namespace qflame
