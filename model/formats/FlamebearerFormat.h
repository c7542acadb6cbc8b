// Pyroscope's flamebearer JSON: what /pyroscope/render answers (Pyroscope, qryn) and what the Pyroscope UI
// exports.
//
//     {"flamebearer": {"names": ["total", "main", ...], "levels": [[0,976,0,0], [0,976,0,1, ...], ...],
//                      "numTicks": 976, "maxSelf": 192},
//      "metadata": {"format": "single", "units": "samples", "name": "cpu", "sampleRate": 1000000000}, ...}
//
// Each level is a row of the flame graph, groups of four integers per bar: x offset (relative to the end of the
// previous bar of the row), total, self, index into names. Level 0 is the root ("total"). A bar's parent is the bar
// of the row above whose span contains it. Reading turns every bar with a non-zero self into one sample whose stack
// is the path of names from level 1 down to it, so the call tree equals the flame graph the file describes.
#pragma once

#include "io/ReadOptions.h"
#include "pprof/Profile.h"

#include <memory>
#include <string>
#include <string_view>

namespace qflame {

// Whether `text` starts like JSON (an object, after whitespace). Used to tell formats apart by content.
bool looksLikeJsonObject(std::string_view text);

// Parses a flamebearer document (the whole /render answer, the UI's export, or the bare "flamebearer" object).
// The sample type comes from metadata: name (or "cpu"/"samples") and units:
//   units "samples" (CPU time in ticks of 1/sampleRate s) -> nanoseconds, values scaled by 1e9/sampleRate
//   "bytes" -> bytes; "lock_nanoseconds" -> nanoseconds; "objects", "goroutines", "lock_samples", none -> count.
// Throws ProfileError on malformed JSON, a diff ("format": "double") or bars that do not nest, and when it would
// hold more than memoryBudget(options) (ReadOptions::memoryPerInputByte).
//
// The JSON is streamed twice (JsonStream.h): first everything but the levels (names, metadata), then the levels,
// each bar placed under its parent as it is read and kept only while its row and the next are being read.
// Memory: a node per distinct path of names and the two rows, never the document; an empty bar (total 0) costs
// nothing.
std::shared_ptr<const Profile> readFlamebearer(std::string_view json, const std::string &sourceName,
                                               const ReadOptions &options = {});

}   // namespace qflame
