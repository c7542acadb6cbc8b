// speedscope's file format (https://www.speedscope.app/file-format-schema.json), which rbspy, py-spy, Austin,
// pyinstrument and speedscope itself write:
//
//     {"$schema": "https://www.speedscope.app/file-format-schema.json",
//      "shared": {"frames": [{"name": "main", "file": "a.c", "line": 3}, ...]},
//      "profiles": [{"type": "sampled", "name": "cpu", "unit": "milliseconds", "startValue": 0, "endValue": 9,
//                    "samples": [[0, 1], [0, 1, 2]], "weights": [4, 5]},
//                   {"type": "evented", "name": "wall", "unit": "microseconds", "startValue": 0, "endValue": 10,
//                    "events": [{"type": "O", "frame": 0, "at": 0}, {"type": "C", "frame": 0, "at": 10}]}],
//      "activeProfileIndex": 0}
//
// A sampled profile's stacks list frame indexes from the root to the leaf, each with its weight. An evented
// profile opens (O) and closes (C) frames at times; the time between two events is the stack open then, as
// speedscope's own importer counts it. One profile of a file is read: the one named by ReadOptions::profileName,
// else the file's activeProfileIndex, else the first.
//
// Values become integers of pprof units: time in nanoseconds (rounded), bytes, or counts (unit "none"). A
// sampled profile also gets samples/count, one per stack (the diff's noise needs it); the weight's type is the
// default. Frame names are the frames' names, with the file and line when the name alone would be empty.
#pragma once

#include "io/ReadOptions.h"
#include "pprof/Profile.h"

#include <memory>
#include <string>
#include <string_view>

namespace qflame {

// Whether `head` (the first bytes of an input) is a JSON object that names speedscope's schema or has its
// "shared" frames; a flamebearer or Chrome profile has neither.
bool looksLikeSpeedscope(std::string_view head);

// Reads one profile of a speedscope file. Throws ProfileError naming `sourceName` and what is wrong.
std::shared_ptr<const Profile> readSpeedscope(std::string_view json, const std::string &sourceName,
                                              const ReadOptions &options = {});

}   // namespace qflame
