// Hand-made files with sample times besides perf script (TimedPerfScript.h): a speedscope evented profile, pprof
// with timestamp labels, and a perf script recorded with -k CLOCK_REALTIME. tst_timedformats (the model) and
// tst_clitime (the verbs) work out their expected values from the same records.
#pragma once

#include "profile.pb.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace qflame::test {

// Frames main 0, a 1, b 2, c 3 of profile "worker" in milliseconds. Its intervals of one stack:
//   main [1, 2), main;a [2, 3), main;a;b [3, 5), main;a [5, 7) (c opened and closed at 6 changes nothing; c at 5
//   neither), main;c [7, 8), nothing open [8, 9), main [9, 10) (open at the end: until endValue).
// Samples (the stacks with time, in the order their nodes were made; main;a;c has none): main 0 (2 ms),
// main;a 1 (3 ms), main;a;b 2 (2 ms), main;c 3 (1 ms).
inline constexpr char kEventedSpeedscope[] =
    R"({"$schema":"https://www.speedscope.app/file-format-schema.json",)"
    R"("shared":{"frames":[{"name":"main"},{"name":"a"},{"name":"b"},{"name":"c"}]},)"
    R"("profiles":[{"type":"evented","name":"worker","unit":"milliseconds","startValue":0,"endValue":10,"events":[)"
    R"({"type":"O","frame":0,"at":1},{"type":"O","frame":1,"at":2},{"type":"O","frame":2,"at":3},)"
    R"({"type":"C","frame":2,"at":5},{"type":"O","frame":3,"at":5},{"type":"C","frame":3,"at":5},)"
    R"({"type":"O","frame":3,"at":6},{"type":"C","frame":3,"at":6},{"type":"C","frame":1,"at":7},)"
    R"({"type":"O","frame":3,"at":7},{"type":"C","frame":3,"at":8},{"type":"C","frame":0,"at":8},)"
    R"({"type":"O","frame":0,"at":9}]}]})";

// The same file cut by hand to [1 ms, 5 ms) from its first interval (at 1 ms): the intervals that start in it,
// main;a at 2 (1 ms), main;a;b at 3 (2 ms), main;a at 5 (2 ms), each whole.
inline constexpr char kEventedSpeedscopeCut[] =
    R"({"shared":{"frames":[{"name":"main"},{"name":"a"},{"name":"b"}]},)"
    R"("profiles":[{"type":"evented","name":"worker","unit":"milliseconds","startValue":2,"endValue":7,"events":[)"
    R"({"type":"O","frame":0,"at":2},{"type":"O","frame":1,"at":2},{"type":"O","frame":2,"at":3},)"
    R"({"type":"C","frame":2,"at":5},{"type":"C","frame":1,"at":7},{"type":"C","frame":0,"at":7}]}]})";

// 2025-12-04T11:00:00.5Z in nanoseconds since the epoch.
inline constexpr int64_t kWallT0 = 1764846000500000000;

struct TimedLabel {
    std::string key, str;
    int64_t num = 0;
    std::string unit;
};
struct TimedSample {
    std::string stack;   // root first, ';' between frames
    std::vector<int64_t> values;   // samples/count, cpu/nanoseconds
    std::vector<TimedLabel> labels;
};

// Four samples from t0 on, their time under `key` (sample D's as a "timestamp" in milliseconds):
//   A main;f 1, 10 ms at t0, thread "worker 7" (and a label that is not a time: span id)
//   B main;g 1, 10 ms at t0 + 0.25 s, "worker 7"
//   C main;f 2, 20 ms at t0 + 1.5 s and t0 + 1.6 s (two labels: two events of 1, 10 ms), thread "8"
//   D main;g 1, 10 ms at t0 + 2.1 s, thread "io 3/9" (thread_comm, pid, tid)
inline std::vector<TimedSample> timedPprofSamples(int64_t t0, const std::string &key)
{
    return {
        {"main;f", {1, 10000000}, {{key, "", t0, ""}, {"thread name", "worker", 0, ""}, {"thread id", "", 7, ""},
                                   {"span id", "", 5, ""}}},
        {"main;g", {1, 10000000}, {{key, "", t0 + 250000000, ""}, {"thread name", "worker", 0, ""},
                                   {"thread id", "", 7, ""}}},
        {"main;f", {2, 20000000}, {{key, "", t0 + 1500000000, ""}, {key, "", t0 + 1600000000, ""},
                                   {"thread id", "", 8, ""}}},
        {"main;g", {1, 10000000}, {{"timestamp", "", (t0 + 2100000000) / 1000000, "milliseconds"},
                                   {"thread_comm", "io", 0, ""}, {"pid", "", 3, ""}, {"tid", "", 9, ""}}},
    };
}

// The samples as uncompressed pprof bytes, time_nanos `timeNanos`.
inline std::string timedPprofBytes(const std::vector<TimedSample> &samples, int64_t timeNanos)
{
    namespace pb = perftools::profiles;
    pb::Profile p;
    std::map<std::string, int64_t> strings;
    const auto str = [&](const std::string &s) {
        auto [it, added] = strings.try_emplace(s, p.string_table_size());
        if (added)
            p.add_string_table(s);
        return it->second;
    };
    str("");
    const std::pair<std::string, std::string> types[] = {{"samples", "count"}, {"cpu", "nanoseconds"}};
    for (const auto &[type, unit] : types) {
        pb::ValueType *v = p.add_sample_type();
        v->set_type(str(type));
        v->set_unit(str(unit));
    }
    std::map<std::string, uint64_t> locationOf;
    for (const TimedSample &s : samples) {
        pb::Sample *out = p.add_sample();
        std::vector<std::string> frames;
        for (size_t b = 0, e; b <= s.stack.size(); b = e + 1) {
            e = s.stack.find(';', b);
            e = e == std::string::npos ? s.stack.size() : e;
            frames.push_back(s.stack.substr(b, e - b));
        }
        for (size_t k = frames.size(); k-- > 0;) {   // leaf first
            auto [it, added] = locationOf.try_emplace(frames[k], locationOf.size() + 1);
            if (added) {
                pb::Function *f = p.add_function();
                f->set_id(it->second);
                f->set_name(str(frames[k]));
                pb::Location *l = p.add_location();
                l->set_id(it->second);
                l->add_line()->set_function_id(it->second);
            }
            out->add_location_id(it->second);
        }
        for (int64_t v : s.values)
            out->add_value(v);
        for (const TimedLabel &l : s.labels) {
            pb::Label *label = out->add_label();
            label->set_key(str(l.key));
            if (!l.str.empty())
                label->set_str(str(l.str));
            else
                label->set_num(l.num);
            if (!l.unit.empty())
                label->set_num_unit(str(l.unit));
        }
    }
    p.set_time_nanos(timeNanos);
    p.set_duration_nanos(3000000000);
    return p.SerializeAsString();
}

// A perf script of `perf record -k CLOCK_REALTIME`: times since the epoch. prog's thread 100 (main;f) at
// 2025-12-04T11:00:00.0001Z, period 1000; its thread 101 (main;g) 0.2499 s later, period 3000; thread 100 again
// 1.0001 s after the first, period 2000.
inline constexpr char kRealtimePerfScript[] = "prog 100/100 [000] 1764846000.000100: 1000 cpu-clock:\n"
                                              "\t1000 f+0x0 (/bin/prog)\n\t2000 main+0x0 (/bin/prog)\n\n"
                                              "prog 100/101 [001] 1764846000.250000: 3000 cpu-clock:\n"
                                              "\t1100 g+0x0 (/bin/prog)\n\t2000 main+0x0 (/bin/prog)\n\n"
                                              "prog 100/100 [000] 1764846001.000200: 2000 cpu-clock:\n"
                                              "\t1000 f+0x0 (/bin/prog)\n\t2000 main+0x0 (/bin/prog)\n";

}   // namespace qflame::test
