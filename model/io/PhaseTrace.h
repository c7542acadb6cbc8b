// Where a run of qflame spends its time, step by step, when asked (issue #31's measurements): with
// QFLAME_TRACE_PHASES=1 in the environment, tracePhase() writes one line to standard error,
//
//     phase <milliseconds, to a hundredth> <what>
//
// counted from the first mark of the process, or from the first mark of the `qflame` that started it (its clock
// goes on in the environment across the exec of `qflame-gui`). The marks are at steps (the file read, the samples
// decoded, the first look, the first paint), never at items. Without the variable it prints nothing and costs a
// load and a branch. These marks were patches before, made for each measurement and stale by the next one.
// With QFLAME_TRACE_PHASES=cpu (Linux) each line also says what the process has used up to the mark:
//
//     phase <ms> <what> | thread <CPU ms of the marking thread> process <CPU ms, all threads> anon <MiB> faults <n>
//
// (getrusage and /proc/self/smaps_rollup): which thread's work a step waits for, and the page faults, which cost
// 6-12 us each on this project's VM for 4 KiB pages (bench/floor-notes.md, session 41). CPU time and faults count
// from the fork that made the process, its exec included (a C program that prints them first thing in main has
// 2-3 ms and 70 faults here): compare marks with each other.
#pragma once

namespace qflame {

// Call first thing in main, before any thread: reads the environment, and when tracing, puts the clock's start
// there for a program this one starts (QFLAME_TRACE_PHASES_T0). Marks "<program> starts".
void startPhaseTrace(const char *program);

void tracePhase(const char *what);

}   // namespace qflame
