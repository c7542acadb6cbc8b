// The verb table's longer rows: the verbs with many options of their own.
#include "CliVerbs.h"
#include "VerbGroups.h"

namespace qflame {

VerbSpec diffForm()
{
    return {"diff", nullptr, "BASE NEW [options]",
            "per-function change from BASE to NEW (delta = NEW - BASE); --tsv: before_flat after_flat delta_flat "
            "before_cum after_cum delta_cum class name, sorted by |delta_cum|",
            join({{kSample, kGranularity,
                   {"--normalize", "none|per-second|total|FACTOR",
                    "none (default, absolute), per-second (each side by its duration), total (NEW scaled to BASE's "
                    "total: the share view), FACTOR (NEW multiplied by it)"},
                   kNoise,
                   {"--tsv", nullptr, "exact integers, one row per function (with --inlining, --list: theirs)"},
                   {"--csv", nullptr, "the --tsv columns as CSV"},
                   {"--json", nullptr, "the table and its headline as JSON (docs/json.md)"},
                   {"--png", "FILE", "the diff flamegraph as a PNG picture (works without a display)", false, true},
                   {"--svg", "FILE", "the diff flamegraph as an SVG picture", false, true},
                   kInverted,
                   {"--inlining", nullptr,
                    "the calls that became inlined or stopped being inlined (weights of each as a real call and as "
                    "an inline frame, both sides) and the go build -pgo hot edges that appeared or vanished; --tsv: "
                    "inlining<TAB>KIND<TAB>caller<TAB>callee<TAB>base_called<TAB>base_inlined<TAB>new_called<TAB>"
                    "new_inlined, then hot<TAB>appeared|vanished<TAB>caller<TAB>callee<TAB>offset<TAB>base_weight"
                    "<TAB>new_weight"},
                   {"--list", "REGEX",
                    "per source line cum before, after, delta and class (see list); --tsv: function file line "
                    "before_flat after_flat delta_flat before_cum after_cum delta_cum class text"},
                   {"--source-path", "DIRS", "with --list: where sources are found (DIR[:DIR])"},
                   {"--trim-path", "PREFIXES", "with --list: path prefixes cut before looking"}},
                  labelFrames(), timeRange(), files()}),
            VerbNeeds::Files};
}

VerbSpec diffGraphForm()
{
    return {"diff", "--graph", "BASE NEW --graph [graph options] [--normalize N] [--noise K]",
            "the comparison's call graph: before, after, delta (and class) in place of each value; the calls whose "
            "inlining changed (diff --inlining's) are marked on their edges for people, --dot, --svg and --png",
            join({{{"--graph", nullptr, "the call graph of the comparison"},
                   {"--normalize", "none|per-second|total|FACTOR",
                    "as for diff BASE NEW: the values, classes and colours scaled as the diff scales them (--tsv: "
                    "the scaled values as decimals); the nodes and edges kept are pprof's for the raw values"},
                   kNoise},
                  graphOptions()}),
            VerbNeeds::Files};
}

VerbSpec diffDisasmForm()
{
    return {"diff", "--disasm", "BASE NEW --disasm REGEX [--binary-base P] [--binary-new P] [--noise K] [--tsv|--json]",
            "two builds' instructions grouped by source line and inline frame: cum before, after, delta and class, "
            "then each side's instructions",
            join({{{"--disasm", "REGEX", "the functions to disassemble"},
                   {"--binary-base", "FILE|DIR", "BASE's binary (a file, or a folder searched by build id)"},
                   {"--binary-new", "FILE|DIR", "NEW's binary"}, kSample, kNoise,
                   {"--tsv", nullptr, "exact integers, one row per group and instruction"},
                   {"--json", nullptr, "the groups, their instructions, per-instruction deltas and inlining marks as JSON (docs/json.md)"}},
                  timeRange(), files()}),
            VerbNeeds::Files};
}

VerbSpec convertForm()
{
    return {"convert", nullptr, "FILE... --to pprof|folded|speedscope [--output OUT] | --for pgo [options]",
            "writes FILE as gzip pprof, folded stacks ('root;...;leaf COUNT' lines) or speedscope JSON to OUT; "
            "several FILEs are merged; --to pprof of one FILE without --sample or --granularity keeps the whole "
            "profile (every sample type, labels), otherwise the call tree of one sample type is written",
            join({{{"--to", "pprof|folded|speedscope",
                    "the format written (a --to that starts with a digit is the time range's end)", true},
                   {"--output", "OUT", "where to write (default '-', standard output)"},
                   {"-o", "OUT", "the same as --output"}, kSample, kGranularity,
                   {"--for", "pgo",
                    "only what go build -pgo reads (the last two frames of each sample with their inline lines and "
                    "start lines, samples/count and cpu/nanoseconds, the period), checked to give the same edges; "
                    "the sizes before and after go to standard error"}},
                  labelFrames(), {timeRange().front()}, files()}),
            VerbNeeds::Files};
}

VerbSpec pgoForm()
{
    return {"pgo", nullptr, "FILE... [--threshold P] [--tsv | --json | --preprofile OUT]",
            "the call edges go build -pgo builds from CPU profiles (the last two frames of each sample; several "
            "FILEs are merged): readiness lines (ok|warning|error: CHECK: message), then rank, caller, callee, "
            "offset, weight, share, cumulative share, hot, then call sites with several callees (devirtualisation "
            "candidates)",
            join({{{"--threshold", "P", "the hot edges: the heaviest up to the first past P% of the weight "
                                         "(default 99)"},
                   {"--tsv", nullptr, "caller<TAB>callee<TAB>offset<TAB>weight<TAB>hot(1|0)"},
                   {"--json", nullptr, "readiness, edges and candidates (docs/json.md)"},
                   {"--preprofile", "OUT", "go tool preprofile's text to OUT ('-': standard output)"}},
                  files()}),
            VerbNeeds::Files};
}

VerbSpec roundsForm()
{
    VerbSpec v{"rounds", nullptr, "(-r NAME FILE...)... [options]",
               "compares rounds (each -r NAME begins one; its FILEs are its observations, merged into its tree); the "
               "first is the baseline. Per round: k, total, duration, rate per second with its standard error from "
               "the spread of the observations (Poisson for one file), change vs baseline and verdict (faster/slower "
               "past K standard errors, else noise); without an output option the window's rounds tab",
               join({{{"-r", "NAME", "begins a round; the FILEs after it are its observations", true}, kSample,
                      kGranularity, kNoise,
                      {"--duration", "SECONDS", "the duration of files without duration_nanos"}},
                     roundOutputs(), files()}),
               VerbNeeds::Files};
    v.windowWithoutOutput = true;
    return v;
}

VerbSpec roundsGraphForm()
{
    return {"rounds", "--graph", "(-r NAME FILE...)... --graph [graph options] [--noise K]",
            "the call graph of the last round against the first (the baseline), per second as the rounds tab's "
            "comparisons: each round's files merged, each node's cum and each call edge's weight classed by the "
            "noise the two rounds measured (the spread of their per-file values: their files need durations; "
            "Poisson's where a round has one file, and for residual edges)",
            join({{{"-r", "NAME", "begins a round; the FILEs after it are its observations", true},
                   {"--graph", nullptr, "the call graph of the first and last rounds"}, kSample, kGranularity,
                   kNoise},
                  graphPruning(), graphOutputs(), files()}),
            VerbNeeds::Files};
}

VerbSpec listForm()
{
    VerbSpec v{"list", nullptr, "REGEX FILE... [options]",
               "the cost of every source line of the functions REGEX matches, as go tool pprof -list prints it "
               "(several FILEs are merged); sources are found as pprof finds them, then in GOROOT and the Go module "
               "cache",
               join({{kSample, {"--granularity", "lines", "accepted for pprof's sake: the listing is per line"},
                      {"--source-path", "DIRS", "where sources are found (DIR[:DIR], default the working directory "
                                                "and its parents)"},
                      {"--trim-path", "PREFIXES", "path prefixes cut before looking"},
                      {"--tsv", nullptr, "function<TAB>file<TAB>line<TAB>flat<TAB>cum<TAB>text, file the one read"},
                      {"--json", nullptr, "the files and lines as JSON"}},
                     files()}),
               VerbNeeds::Files};
    v.regexFirst = true;
    return v;
}

VerbSpec disasmForm()
{
    VerbSpec v{"disasm", nullptr, "REGEX FILE... [--binary FILE|DIR] [--sample TYPE|INDEX] [--tsv|--json]",
               "the cost of every instruction of the functions REGEX matches, as go tool pprof -disasm counts it, "
               "disassembled by objdump from the binary the profile names (also searched in $PPROF_BINARY_PATH)",
               join({{{"--binary", "FILE|DIR", "the binary: a file, or a folder searched by build id"}, kSample,
                      {"--tsv", nullptr,
                       "function<TAB>address<TAB>flat<TAB>cum<TAB>file:line<TAB>instruction, address in hex"},
                      {"--json", nullptr, "the routines and their instructions as JSON (docs/json.md)"}},
                     files()}),
               VerbNeeds::Files};
    v.regexFirst = true;
    return v;
}

VerbSpec heatmapForm()
{
    return {"heatmap", nullptr, "FILE [--column-ms N] [--rows N] [--thread RE] [--sample TYPE|INDEX] [--tsv|--json]",
            "the subsecond heatmap of a file with sample times (perf script, .cpuprofile): columns of N ms from the "
            "first sample, each cut into rows, the sample type's sum per cell",
            join({{{"--column-ms", "N", "a column's milliseconds (default 1000)"},
                   {"--rows", "N", "rows per column (default 50)"},
                   {"--thread", "RE", "only threads whose name (perf: comm pid/tid) matches RE"}, kSample,
                   {"--tsv", nullptr, "column_start_ns<TAB>row<TAB>value per non-empty cell"},
                   {"--json", nullptr, "the non-empty cells of --tsv as JSON (docs/json.md)"}},
                  timeRange(), files()}),
            VerbNeeds::Files};
}

}   // namespace qflame
