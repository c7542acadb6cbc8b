// `perf script` text, what `perf record -g` (frame pointers, DWARF or LBR call graphs) gives its users:
//
//     prog 12302/12302 [003] 13144.649758:    1001001 cpu-clock:ppp:        <- header: comm pid/tid [cpu] time: period event:
//             ffffffff8225f759 pvm_irq_enable+0x19 ([kernel.kallsyms])    <- frames, innermost first: ip sym+off (dso)
//                 55d0c2a1b1c9 main+0x19 (/tmp/prog)
//                                                                          <- a blank line ends the record
//     prog 12302 13144.650746: cpu-clock:  55d0c2a1b1c9 main+0x19 (/tmp/prog)   <- no call graph: the one frame follows
//
// Every record is one sample. The profile's sample types are samples/count first, then one per event name (its
// modifiers such as ":ppp" or ":u" taken off) whose records print a period, with the period as value:
// nanoseconds for cpu-clock and task-clock, counts for the others. Each frame becomes a location whose address is
// the ip column (or, without it, the +0x offset, which is taken off the name), whose function is the symbol
// ("[unknown]" kept as perf prints it) and whose mapping is the DSO in parentheses. comm is a string label, pid
// and tid numeric labels. A lone number after comm is the thread id: that is what perf's default fields print.
// Each record's time and thread ("comm pid/tid") go to the profile's timeline (time/Timeline.h) when every
// record prints a time; the times are wall-clock times with -F +tod (the first record's local time of day sets
// perf's clock against the epoch) or when recorded with -k CLOCK_REALTIME. The lines are cut into fields by
// formats/PerfScriptLines.h.
#pragma once

#include "io/ReadOptions.h"
#include "pprof/Profile.h"

#include <memory>
#include <string>
#include <string_view>

namespace qflame {

// Whether `text` starts like perf script output: its first line that is neither blank nor a '#' comment is a
// sample header with a comm, a pid or tid and an event ("NAME:"). Used to tell formats apart by content.
bool looksLikePerfScript(std::string_view text);

// Parses perf script output. Throws ProfileError naming the line of the first malformed record, and when the
// memory it would need exceeds options.memoryPerInputByte per byte of input or the events exceed
// options.maxSampleTypes.
std::shared_ptr<const Profile> readPerfScript(std::string_view text, const std::string &sourceName,
                                              const ReadOptions &options = {});

}   // namespace qflame
