#!/usr/bin/env python3
"""Turns the raw results of bench/run.sh into docs/benchmarks.md and the data of the time-against-size plot.

Whole-process figures are medians over the runs of bench/run.sh; in-process figures are Google Benchmark's
medians over its repetitions. Nothing here measures anything: it only reads, takes medians and formats.
"""
import argparse
import datetime
import json
import os
import platform
import re
import statistics
import subprocess
from collections import defaultdict

# The targets of issue 8, on this 2-core machine.
SPEEDUP_VS_PPROF = 10.0      # qflame top at least this many times faster than go tool pprof -top
VS_DECOMPRESSION = 2.0       # and at most this many times the bare decompression
REPAINT_1M_MS = 8.0          # full repaint of a 1M-node tree at 3840x2160
DIFF_1M_MS = 200.0           # diff of two 1M-node trees


def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=60).stdout.strip()
    except Exception:
        return ""


def read_results(path):
    runs = defaultdict(list)   # (key, tool) -> [(wall, cpu, rss_kb, status)]
    order = []
    with open(path) as f:
        for line in f:
            key, tool, _run, wall, user, sys_, rss, status = line.rstrip("\n").split("\t")
            if key not in order:
                order.append(key)
            runs[(key, tool)].append((float(wall), float(user) + float(sys_), int(rss), status))
    return runs, order


def summary(runs):
    """Median wall seconds, median CPU seconds, median peak RSS in MiB, and a status: 'ok' when every run
    finished, otherwise the first failure."""
    if not runs:
        return None
    ok = [r for r in runs if r[3] == "ok"]
    bad = [r for r in runs if r[3] != "ok"]
    if bad:
        wall, _cpu, rss, status = bad[0]
        return {"wall": wall, "cpu": None, "rss": rss / 1024, "status": status, "n": len(runs)}
    return {"wall": statistics.median(r[0] for r in ok), "cpu": statistics.median(r[1] for r in ok),
            "rss": statistics.median(r[2] for r in ok) / 1024, "status": "ok", "n": len(ok)}


def fmt_s(x):
    if x is None:
        return "-"
    return f"{x:.3f}" if x < 1 else f"{x:.2f}" if x < 100 else f"{x:.0f}"


def fmt_mb(x):
    return "-" if x is None else f"{x:,.0f}"


def unfinished(s, go_timeout, go_mem_gb):
    if s["status"] == "timeout":
        return f"not done after {go_timeout} s"
    if s["status"] == "oom":
        return f"out of memory ({go_mem_gb} GiB limit)"
    if s["status"] == "killed":
        return "killed (OOM killer)"
    return s["status"]


def gen_stats(data):
    stats = {}
    for name in sorted(os.listdir(data)):
        if name.endswith(".stats"):
            with open(os.path.join(data, name)) as f:
                line = f.read().strip()
            fields = dict(p.split("=", 1) for p in line.split("\t")[1:])
            stats[name[:-6]] = fields
    return stats


def machine():
    cpu = sh("lscpu | sed -n 's/^Model name:[ ]*//p'") or platform.processor()
    mem = sh("awk '/MemTotal/ {printf \"%.1f GiB\", $2/1048576}' /proc/meminfo")
    return {
        "cpu": cpu, "nproc": sh("nproc"), "mem": mem, "kernel": platform.release(),
        "os": sh(". /etc/os-release && echo $PRETTY_NAME"),
        "gxx": sh("g++ --version | head -1"), "qt": sh("qmake6 -query QT_VERSION || qtpaths6 --qt-version"),
        "protobuf": sh("protoc --version"), "zlib": sh("dpkg-query -W -f='${Version}' zlib1g"),
        "commit": sh("git -C %s rev-parse --short HEAD" % os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
        "cache": sh("lscpu | grep -E '^L[23] cache' | sed 's/  */ /g' | paste -sd ';'"),
    }


def inprocess_rows(path):
    with open(path) as f:
        doc = json.load(f)
    rows = {}
    for b in doc["benchmarks"]:
        if b.get("aggregate_name", "median") != "median":
            continue
        name = b["run_name"] if "run_name" in b else b["name"].rsplit("_", 1)[0]
        rows[name.replace("/real_time", "")] = b   # multi-threaded ones are timed by the wall clock
    return doc.get("context", {}), rows


def to_ms(b, key):
    unit = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b.get("time_unit", "ns")]
    return b[key] * unit


def main():
    ap = argparse.ArgumentParser()
    for a in ("data", "results", "inprocess", "analysis", "out", "plot-data", "qflame", "go"):
        ap.add_argument("--" + a, required=True)
    for a in ("go-timeout", "go-mem-gb", "runs", "go-runs"):
        ap.add_argument("--" + a, type=int, required=True)
    args = ap.parse_args()

    runs, order = read_results(args.results)
    sizes = {}
    with open(os.path.join(args.data, "sizes.tsv")) as f:
        for line in f:
            key, path, comp, raw = line.rstrip("\n").split("\t")
            sizes[key] = (path, int(comp), int(raw))
    gstats = gen_stats(args.data)
    m = machine()
    load_before = open(os.path.join(args.data, "load-before.txt")).read().strip()
    load_after = open(os.path.join(args.data, "load-after.txt")).read().strip()
    context, bench = inprocess_rows(args.inprocess)
    out = []
    w = out.append

    # The commit of the in-process measurements, when recorded; a report written again after a commit that only
    # changed the analysis must not claim the newer commit was measured.
    inprocess_run = os.path.join(args.data, "inprocess-run.txt")
    if os.path.exists(inprocess_run):
        m["commit"] = open(inprocess_run).read().split(" ", 1)[0]
    w("# Benchmarks")
    w("")
    w(f"Written by `bench/run.sh` on {datetime.date.today().isoformat()} from measurements at commit "
      f"`{m['commit']}`; do not edit by hand (the discussion at the end comes from `bench/analysis.md`).")
    run_file = os.path.join(args.data, "process-run.txt")
    if os.path.exists(run_file):
        commit, when = open(run_file).read().strip().split(" ", 1)
        if commit != m["commit"]:
            w("")
            w(f"The whole-process tables (qflame against go tool pprof and zcat) were measured at commit "
              f"`{commit}` on {when}; the in-process tables at commit `{m['commit']}` (a later run with "
              "`QFLAME_BENCH_INPROCESS_ONLY=1`, or the same run when only `bench/analysis.md` changed between).")
    else:
        w("")
        w("The whole-process tables come from an earlier full run (its load is the 'Load before' line); the "
          "in-process tables from this commit (`QFLAME_BENCH_INPROCESS_ONLY=1`).")
    w("")
    # The floor of issue #31 (bench/floor.sh writes benchmarks-floor.md beside this file; floor_report.py also
    # puts it here between these markers when it runs alone).
    floor_md = os.path.join(os.path.dirname(os.path.abspath(args.out)), "benchmarks-floor.md")
    if os.path.exists(floor_md):
        w("<!-- floor: bench/floor.sh -->")
        with open(floor_md) as f:
            w(f.read().rstrip("\n"))
        w("<!-- /floor -->")
        w("")
    w("## Machine")
    w("")
    w(f"- CPU: {m['cpu']}, {m['nproc']} cores ({m['cache']}); RAM {m['mem']}; {m['os']}, Linux {m['kernel']}")
    w(f"- Build: Release (`-O3 -DNDEBUG`), {m['gxx']}; Qt {m['qt']}; {m['protobuf']}; zlib {m['zlib']}; "
      f"{sh(args.go + ' version')}")
    w(f"- Load before: `{load_before}`")
    w(f"- Load after: `{load_after}`")
    w("")
    w("The machine is shared (other engineers compile on it), so absolute times move with the load; the ratios "
      "are taken from runs interleaved in the same minutes, which keeps them comparable.")
    w("")
    w("## Method")
    w("")
    w(f"- Whole process: each command runs under `qflame-bench-measure` (bench/measure_main.cpp: fork, exec, wait4; "
      "wall time to the microsecond from fork to exit, user, system, peak RSS; `/usr/bin/time` before session 4, "
      "whose hundredths of a second were too coarse for the 20-100 ms runs of the small profiles), "
      f"`qflame top FILE` and `zcat FILE > /dev/null` {args.runs} times interleaved, `go tool pprof -top "
      f"-symbolize=none FILE` {args.go_runs} times (stopped after the first run that does not finish within "
      f"{args.go_timeout} s or {args.go_mem_gb} GiB of address space, `ulimit -v`); tables show medians. The file is "
      "read once beforehand so that every tool reads it from the page cache. `HOME` and `PPROF_TMPDIR` point to a "
      "fresh temporary directory for pprof. Standard output goes to /dev/null: every tool prints its full table.")
    w("- `qflame diff A B` against `go tool pprof -top -symbolize=none -diff_base A B` likewise.")
    w("- In-process: Google Benchmark (`build-bench/bench/qflame-bench`), one process per group, the paint group "
      "first, 10 s apart; 5 repetitions (15 for the paint group), medians; painting with "
      "`QT_QPA_PLATFORM=offscreen`. Debian's libbenchmark says it was built as DEBUG: that concerns its own "
      "bookkeeping outside the timed loops.")
    w("- Generated profiles: `qflame-bench-gen --size-mb N --seed S --program-seed 1` (bench/ProfileGenerator.h): "
      "Go-heap-like, 4 sample types (default `alloc_space`), labels (`bytes` numeric, `handler`, `tenant`), "
      "inlined frames, recursion; same seeds give the same bytes.")
    w("")
    w("To reproduce: `bash bench/run.sh` from the checkout (needs `apt-get install gnuplot-nox "
      "golang-1.19-go libbenchmark-dev`; the corpus is `../shared/corpus`, or set `QFLAME_CORPUS`). One "
      "in-process benchmark alone: `QT_QPA_PLATFORM=offscreen build-bench/bench/qflame-bench "
      "--benchmark_filter=Repaint4K --benchmark_repetitions=5`.")
    w("")

    w("## Profiles")
    w("")
    w("| profile | file MB | inflated MB | samples | functions | locations | tree nodes* |")
    w("|---|---:|---:|---:|---:|---:|---:|")
    for key, (path, comp, raw) in sizes.items():
        g = gstats.get(key)
        if g:
            samples, funcs, locs, nodes = g["samples"], g["functions"], g["locations"], g["tree_nodes"]
        else:
            info = sh(f"'{args.qflame}' info '{path}'")
            grab = lambda label: (re.search(label + r": (\d+)", info) or [None, "?"])[1]
            samples, funcs, locs, nodes = grab("Samples"), grab("Functions"), grab("Locations"), ""
        fmt = lambda v: f"{int(v):,}" if str(v).isdigit() else v
        w(f"| {key} | {comp / 1e6:.1f} | {raw / 1e6:.1f} | {fmt(samples)} | {fmt(funcs)} | {fmt(locs)} | {fmt(nodes)} |")
    w("")
    w("\\* function-granularity call tree of the default sample type, counted by the generator.")
    w("")

    w("## Load and aggregate: `qflame top` against `go tool pprof -top` and `zcat`")
    w("")
    w("| profile | inflated MB | zcat s | qflame s | pprof s | pprof / qflame | qflame / zcat | protobuf parse s | "
      "parse / zcat | qflame RSS MB | pprof RSS MB | qflame / pprof RSS |")
    w("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    plot = []
    target_rows = []
    for key in order:
        if key not in sizes:
            continue
        z, q, p, pf = (summary(runs.get((key, t), [])) for t in ("zcat", "qflame", "pprof", "parse-floor"))
        raw = sizes[key][2]
        p_ok = p and p["status"] == "ok"
        speed = p["wall"] / q["wall"] if p_ok else None
        floor = q["wall"] / z["wall"] if z["wall"] > 0 else None
        rss = q["rss"] / p["rss"] if p_ok else None
        pcell = fmt_s(p["wall"]) if p_ok else unfinished(p, args.go_timeout, args.go_mem_gb) if p else "-"
        if speed:
            speed_cell = f"{speed:.1f}x"
        elif p and p["status"] == "timeout":
            speed_cell = f"> {args.go_timeout / q['wall']:.0f}x"
        else:
            speed_cell = "-"
        floor_cell = f"{floor:.2f}x" if floor else "-"
        rss_cell = f"{rss:.2f}" if rss else "-"
        p_rss = fmt_mb(p["rss"]) if p_ok else "-"
        pf_ok = pf and pf["status"] == "ok" and z["wall"] > 0
        pf_cell = fmt_s(pf["wall"]) if pf_ok else "-"
        pf_ratio = f"{pf['wall'] / z['wall']:.2f}x" if pf_ok else "-"
        w(f"| {key} | {raw / 1e6:.1f} | {fmt_s(z['wall'])} | {fmt_s(q['wall'])} | {pcell} | {speed_cell} | "
          f"{floor_cell} | {pf_cell} | {pf_ratio} | {fmt_mb(q['rss'])} | {p_rss} | {rss_cell} |")
        plot.append((raw / 1e6, q["wall"], z["wall"], p["wall"] if p_ok else float("nan"), key))
        target_rows.append((key, speed, floor, rss, p))
    w("")
    w("Ratios are of medians; `pprof / qflame` above 1 means qflame is faster, `qflame / pprof RSS` below 1 means "
      "qflame uses less memory. `protobuf parse` is `qflame-bench-parse-floor FILE` (bench/parse_floor_main.cpp), "
      "run interleaved with the other two: the file inflated by zlib, then parsed into the generated `Profile` "
      "message (protobuf's lite runtime), and nothing else (no table, no output, no freeing), a floor under any "
      "reader built on the library's message parser. (Measured before 2026-12-05, it streamed the full runtime's "
      "gzip stream into the parse: the same work, less memory.)")
    w("")

    w("## Diff: `qflame diff A B` against `go tool pprof -top -diff_base A B`")
    w("")
    w("| pair | qflame s | pprof s | pprof / qflame | qflame RSS MB | pprof RSS MB |")
    w("|---|---:|---:|---:|---:|---:|")
    for key in order:
        q = summary(runs.get((key, "qflame-diff"), []))
        p = summary(runs.get((key, "pprof-diff"), []))
        if not q:
            continue
        p_ok = p and p["status"] == "ok"
        pcell = fmt_s(p["wall"]) if p_ok else unfinished(p, args.go_timeout, args.go_mem_gb) if p else "-"
        ratio = f"{p['wall'] / q['wall']:.1f}x" if p_ok else "-"
        p_rss = fmt_mb(p["rss"]) if p_ok else "-"
        w(f"| {key} | {fmt_s(q['wall'])} | {pcell} | {ratio} | {fmt_mb(q['rss'])} | {p_rss} |")
    w("")

    w("## In process (Google Benchmark, medians)")
    w("")
    w("| benchmark | wall ms | CPU ms | throughput | counters |")
    w("|---|---:|---:|---:|---|")
    skip = {"name", "run_name", "run_type", "repetitions", "repetition_index", "threads", "iterations", "real_time",
            "cpu_time", "time_unit", "aggregate_name", "aggregate_unit", "family_index",
            "per_family_instance_index", "bytes_per_second", "items_per_second"}
    for name, b in bench.items():
        thr = ""
        if "bytes_per_second" in b:
            thr = f"{b['bytes_per_second'] / 1e6:,.0f} MB/s"
        elif "items_per_second" in b:
            thr = f"{b['items_per_second'] / 1e6:,.1f} M items/s"
        counters = ", ".join(f"{k}={v:,.0f}" for k, v in b.items() if k not in skip and isinstance(v, (int, float)))
        w(f"| {name} | {to_ms(b, 'real_time'):,.2f} | {to_ms(b, 'cpu_time'):,.2f} | {thr} | {counters} |")
    w("")
    w("Throughputs are per CPU second of the calling thread, except for `DecodeGzip` and `FlatTableFromSamples`, "
      "which use a second thread and are per wall-clock second (their CPU column is the calling thread's alone; "
      "the same for the repaints and `VisibleRects` of 100k and 1M nodes, which share their work with a second thread). "
      "Build and flat-table items are call-tree nodes (nodes/s), `FlatTableFromSamples` items are samples; decode "
      "bytes are inflated pprof bytes. `DistinctFunctions` is the worst case of one function per node (see the analysis). "
      "`QrynFlamegraphDecode` is a server's SelectMergeStacktraces answer (the generator's trees encoded as qryn "
      "levels) decoded as the client does it: protobuf, levels, profile, tree and flat table; `...Distinct` is the "
      "stall test's answer of 400,000 nodes that are all distinct functions.")
    w("")

    w("## Rounds")
    w("")
    w("`bench/rounds.sh` times the rounds table (3 rounds x 120 CPU profiles) on its own: "
      "[benchmarks-rounds.md](benchmarks-rounds.md).")
    w("")

    w("## Flame chart (bench/flamechart.sh, issue #35)")
    w("")
    w("`bench/flamechart.sh` times the Time tab's flame chart on one hour at 1 kHz on 8 threads (29 M samples), "
      "query and paint per frame from the whole hour to 1 ms: [benchmarks-flamechart.md](benchmarks-flamechart.md).")
    w("")

    # The window's figures (bench/window.sh writes benchmarks-window.md beside this file): taken in whole, one
    # heading level down.
    window_md = os.path.join(os.path.dirname(os.path.abspath(args.out)), "benchmarks-window.md")
    if os.path.exists(window_md):
        w("## The window (bench/window.sh)")
        w("")
        with open(window_md) as f:
            lines = f.read().splitlines()
        for line in lines[1:]:
            w("#" + line if line.startswith("## ") else line)
        w("")

    w("## Targets")
    w("")
    for key, speed, floor, rss, p in target_rows:
        parts = []
        if speed is not None:
            parts.append(f"{'met' if speed >= SPEEDUP_VS_PPROF else 'MISSED'}: {speed:.1f}x faster than pprof "
                         f"(target >= {SPEEDUP_VS_PPROF:.0f}x)")
        elif p and p["status"] != "ok":
            parts.append(f"pprof did not finish ({unfinished(p, args.go_timeout, args.go_mem_gb)})")
        if floor is not None:
            parts.append(f"{'met' if floor <= VS_DECOMPRESSION else 'MISSED'}: {floor:.2f}x zcat "
                         f"(target <= {VS_DECOMPRESSION:.0f}x)")
        if rss is not None:
            parts.append(f"{'met' if rss <= 1 else 'MISSED'}: RSS {rss:.2f}x pprof's (target <= 1)")
        w(f"- {key}: " + "; ".join(parts))
    for key, what in [
            ("BM_Paint4K/1000000", "Repaint of the frames, 1M nodes, 3840x2160 (FlamePainter into the image)"),
            ("BM_Repaint4K/1000000", "Full repaint of the widget, 1M nodes, 3840x2160 (its paint event, frames "
                                     "straight into the window's pixels)"),
            ("BM_ZoomRepaint4K/1000000", "Full repaint while zooming (the view 10% narrower or wider each time: new "
                                         "widths, labels elided anew)")]:
        b = bench.get(key)
        if b:   # judged by wall time: a repaint of a large tree runs on two threads
            cpu, wall = to_ms(b, "cpu_time"), to_ms(b, "real_time")
            w(f"- {what}: {'met' if wall <= REPAINT_1M_MS else 'MISSED'}: {wall:.1f} ms wall ({cpu:.1f} ms CPU of "
              f"the painting thread) (target <= {REPAINT_1M_MS:.0f} ms)")
    diff = bench.get("BM_DiffTree/1000000")
    if diff:
        cpu, wall = to_ms(diff, "cpu_time"), to_ms(diff, "real_time")
        w(f"- Diff of two 1M-node trees: {'met' if wall <= DIFF_1M_MS else 'MISSED'}: {wall:.0f} ms wall "
          f"({cpu:.0f} ms CPU) (target <= {DIFF_1M_MS:.0f} ms)")
    w("")

    w("## Time against profile size")
    w("")
    w("![wall time of qflame top, go tool pprof -top and zcat against inflated profile size](benchmarks-time.png)")
    w("")
    with open(args.analysis) as f:
        w(f.read().rstrip())
    w("")
    with open(args.out, "w") as f:
        f.write("\n".join(out))
    with open(args.plot_data, "w") as f:
        f.write("# inflated_MB\tqflame_s\tzcat_s\tpprof_s\tprofile\n")
        for row in sorted(plot):
            f.write("%.3f\t%.4f\t%.4f\t%s\t%s\n" % (row[0], row[1], row[2], "NaN" if row[3] != row[3] else "%.4f" % row[3], row[4]))


if __name__ == "__main__":
    main()
