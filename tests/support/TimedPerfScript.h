// A perf script with sample times, hand-made: tst_timeline (the model) and tst_clitime (the verbs) work out their
// expected values from the same records.
#pragma once

namespace qflame::test {

// Five records: prog's thread 100 (main;f) at 0, 0.5 and 1.0001 s after the first, with periods 1000, 1000 and
// 2000; its thread 101 (main;g) at 0.2499 s, period 3000; other's 200 (main;g) at 2.6 s, period 1000.
inline constexpr char kTimedPerfScript[] = "prog 100/100 [000] 10.000100: 1000 cpu-clock:\n"
                                           "\t1000 f+0x0 (/bin/prog)\n\t2000 main+0x0 (/bin/prog)\n\n"
                                           "prog 100/101 [001] 10.250000: 3000 cpu-clock:\n"
                                           "\t1100 g+0x0 (/bin/prog)\n\t2000 main+0x0 (/bin/prog)\n\n"
                                           "prog 100/100 [000] 10.500100: 1000 cpu-clock:\n"
                                           "\t1000 f+0x0 (/bin/prog)\n\t2000 main+0x0 (/bin/prog)\n\n"
                                           "prog 100/100 [000] 11.000200: 2000 cpu-clock:\n"
                                           "\t1000 f+0x0 (/bin/prog)\n\t2000 main+0x0 (/bin/prog)\n\n"
                                           "other 200/200 [001] 12.600100: 1000 cpu-clock:\n"
                                           "\t1100 g+0x0 (/bin/prog)\n\t2000 main+0x0 (/bin/prog)\n";

}   // namespace qflame::test
