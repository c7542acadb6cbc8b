// Chrome DevTools / V8 CPU profiles (.cpuprofile), what DevTools' "Save profile", `node --cpu-prof` and V8's
// inspector Profiler.stop write:
//
//     {"nodes": [{"id": 1, "callFrame": {"functionName": "(root)", "url": "", "lineNumber": -1, ...},
//                 "hitCount": 0, "children": [2]}, {"id": 2, "callFrame": {"functionName": "main", ...}}, ...],
//      "startTime": 1000, "endTime": 1900, "samples": [2, 2, 3], "timeDeltas": [100, 300, 250]}
//
// The nodes form the call tree (children by id, or a "parent" id in older files); its root, "(root)", is not a
// frame. samples[i] is the node on CPU at startTime + timeDeltas[0] + ... + timeDeltas[i] (microseconds); the
// sample lasts until the next sample's time, the last one until endTime, as DevTools' CPUProfileDataModel counts
// it. The profile has samples/count (one per sample) and cpu/nanoseconds (their durations); a file without
// samples has hitCount per node, which becomes samples/count alone. A frame is its functionName, or
// "(anonymous URL:LINE)" when that is empty (lineNumber is 0-based in the file, 1-based here).
//
// The old tree form (Node 10's v8-profiler, Chrome before 58) is read too: {"head": {"functionName", "url",
// "lineNumber", "hitCount", "callUID", "children": [nodes...], "id"}, "startTime": 12.5, "endTime": 12.6 (seconds),
// "samples": [ids], "timestamps": [absolute microseconds]}: its nested nodes become the same nodes, and its
// times count as DevTools' CPUProfileDataModel counts the old form's.
#pragma once

#include "io/ReadOptions.h"
#include "pprof/Profile.h"

#include <memory>
#include <string>
#include <string_view>

namespace qflame {

// Whether `head` is a JSON object with "nodes" and a "callFrame" in it (V8 writes the nodes first), or with
// "head" and a "functionName" (the old form); speedscope and flamebearer files have neither.
bool looksLikeChromeCpuProfile(std::string_view head);

std::shared_ptr<const Profile> readChromeCpuProfile(std::string_view json, const std::string &sourceName,
                                                    const ReadOptions &options = {});

}   // namespace qflame
