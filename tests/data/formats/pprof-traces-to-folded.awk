# Turns the report of `go tool pprof -traces` into folded stacks, the one-line-per-stack format that
# FlameGraph's stackcollapse scripts write: frames from the root to the leaf joined by ';', a space, the count.
# Identical stacks (the report lists one trace per distinct stack + label set) are summed.
#
# The report, per sample:
#   -----------+-----------------------------------------
#         path:  ingest                       <- label lines (skipped)
#   1410000000ns   main.checksumBlock         <- value (with -unit's suffix) and the leaf frame
#                  main.ingestPath            <- callers, one per line, up to the root
#                  main.mix (inline)          <- inlined calls are frames of their own
# Run it with an integral -unit (ns, B), so no value is rounded.

function flush(    stack, i) {
    if (n > 0) {
        stack = frames[n]
        for (i = n - 1; i >= 1; i--)
            stack = stack ";" frames[i]
        total[stack] += value
    }
    n = 0
}

/^-+\+-+$/ { inTraces = 1; flush(); next }
!inTraces { next }
n == 0 && $1 ~ /:$/ { next }
{
    line = $0
    if (n == 0) {
        if ($1 !~ /^-?[0-9]+[A-Za-z]*$/) {
            print "pprof-traces-to-folded: line " NR ": expected an integral value, got '" $1 "'" > "/dev/stderr"
            exit 1
        }
        value = $1
        sub(/[A-Za-z]+$/, "", value)
        sub(/^ *[^ ]+ +/, "", line)
    } else {
        sub(/^ +/, "", line)
    }
    sub(/ \(inline\)$/, "", line)
    frames[++n] = line
}
END {
    flush()
    for (stack in total)
        printf "%s %.0f\n", stack, total[stack]   # %.0f: print would use %.6g above 2^31 in some awks
}
