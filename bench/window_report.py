#!/usr/bin/env python3
"""docs/benchmarks-window.md from bench/window.sh's measurements (window.tsv and the two programs' outputs)."""
import argparse
import datetime
import re
import statistics


def median(values):
    return statistics.median(values) if values else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--build-type", required=True)
    ap.add_argument("--runs", required=True)
    ap.add_argument("--commit", required=True)
    ap.add_argument("--xvfb", default="0")
    a = ap.parse_args()

    rows = {}   # (key, tool) -> list of (wall, rss_kb, paint_ms)
    order = []
    with open(f"{a.data}/window.tsv") as f:
        for line in f:
            key, tool, wall, rss, paint = line.rstrip("\n").split("\t")
            if key not in order:
                order.append(key)
            rows.setdefault((key, tool), []).append((wall, rss, paint))

    def numbers(key, tool, column):
        out = []
        for r in rows.get((key, tool), []):
            try:
                out.append(float(r[column]))
            except ValueError:
                pass
        return out

    def text(key, tool, column):
        return [r[column] for r in rows.get((key, tool), [])]

    load_before = open(f"{a.data}/window-load-before.txt").read().strip()
    load_after = open(f"{a.data}/window-load-after.txt").read().strip()
    out = []
    w = out.append
    w("# Benchmark: the window at scale")
    w("")
    w(f"Written by `bench/window.sh` on {datetime.date.today().isoformat()}, commit `{a.commit}`, the "
      f"{a.build_type} build (`packaging/setup.sh`'s: -O3 with -g), {a.runs} interleaved runs of each qflame "
      "command, medians.")
    w(f"Load before: `{load_before}`; after: `{load_after}`.")
    w("")
    w("`first paint` is what `qflame --time-to-paint` prints: from the process's start (`qflame`, which starts "
      "qflame-gui) to its first painted flamegraph. `wall` is the whole process (bench/measure_main.cpp), `RSS` "
      "its peak (the window's, up to the first paint; the later work, the top table's order, adds little). "
      "`pprof -http` is `go tool pprof -http=127.0.0.1:PORT -no_browser` from its start until `/ui/flamegraph` "
      "answers 200 with the page (asked every 10 ms; pprof reads and builds before it listens, and makes the "
      "page per request).")
    w("")
    w("| input | qflame top/diff s | RSS MB | first paint offscreen s | RSS MB | paint / CLI | first paint "
      "Xvfb s | pprof -http s | pprof / paint | window / CLI RSS |")
    w("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    goals = []
    for key in order:
        cli_tool = "top" if (key, "top") in rows else "diff"
        cli = median(numbers(key, cli_tool, 0))
        cli_rss = median(numbers(key, cli_tool, 1))
        paint = median(numbers(key, "paint-offscreen", 2))
        paint_rss = median(numbers(key, "paint-offscreen", 1))
        xvfb = median(numbers(key, "paint-xvfb", 2))
        pprof_text = text(key, "pprof-http", 0)
        pprof = median(numbers(key, "pprof-http", 0))

        def s(v, digits=3):
            return "-" if v is None else f"{v:.{digits}g}"

        paint_s = None if paint is None else paint / 1000
        ratio = None if paint_s is None or not cli else paint_s / cli
        pratio = None if paint_s is None or pprof is None else pprof / paint_s
        rss_ratio = None if paint_rss is None or not cli_rss else paint_rss / cli_rss
        pprof_cell = s(pprof) if pprof is not None else (pprof_text[0] if pprof_text else "-")
        w(f"| {key} | {s(cli)} | {s(None if cli_rss is None else cli_rss / 1024, 4)} | {s(paint_s)} | "
          f"{s(None if paint_rss is None else paint_rss / 1024, 4)} | {s(ratio)}x | "
          f"{s(None if xvfb is None else xvfb / 1000)} | {pprof_cell} | {s(pratio)}x | {s(rss_ratio)}x |")
        # The largest profile's goal is issue #31's 1.25x, its bottom-up first paint issue #36's 1.5x; the
        # others' is the window's 1.5x (issue #23).
        largest = "allocs-r64" in key
        if ratio is not None and cli_tool == "top":
            bound = 1.25 if largest else 1.5
            goals.append(f"- {key}: first paint {ratio:.2f}x `qflame top` (goal <= {bound}x): "
                         f"{'met' if ratio <= bound else 'NOT met'}")
        inverted = median(numbers(key, "paint-inverted", 2))
        if inverted is not None and cli:
            iratio = inverted / 1000 / cli
            goals.append(f"- {key}: bottom-up first paint (`--inverted`) {inverted / 1000:.3g} s, {iratio:.2f}x "
                         f"`qflame top` (goal <= 1.5x): {'met' if iratio <= 1.5 else 'NOT met'}")
        if pratio is not None:
            goals.append(f"- {key}: first paint {pratio:.1f}x sooner than pprof -http's flamegraph (goal >= 20x): "
                         f"{'met' if pratio >= 20 else 'NOT met'}")
        if rss_ratio is not None:
            goals.append(f"- {key}: window peak RSS {rss_ratio:.2f}x the CLI's (goal <= 3x): "
                         f"{'met' if rss_ratio <= 3 else 'NOT met'}")
    w("")
    w("All first-paint times per run (ms), offscreen: " + "; ".join(
        f"{key}: {', '.join(text(key, 'paint-offscreen', 2))}" for key in order if (key, "paint-offscreen") in rows))
    w("")
    w("Bottom-up first-paint times per run (ms), offscreen: " + "; ".join(
        f"{key}: {', '.join(text(key, 'paint-inverted', 2))}" for key in order if (key, "paint-inverted") in rows))
    w("")
    w("## Closing gives memory back")
    w("")
    w("`qflame-bench-reopen FILE 50` (bench/reopen_main.cpp): one window (offscreen) opens the largest profile, "
      "paints it and closes its tab with the tab's close button, 50 times; resident memory (statm) 200 ms after "
      "each step. The window asks glibc to return free memory (`malloc_trim(0)`) after a tab closes "
      "(MainWindow); the program itself does not.")
    w("")
    w("```")
    reopen = open(f"{a.data}/window-reopen.txt").read().strip()
    w(reopen)
    w("```")
    m = re.search(r"= ([0-9.]+) \(bound", reopen)
    if m:
        goals.append(f"- 50 opens and closes: resident memory after the last close {float(m.group(1)):.2f}x that "
                     f"after the first open (goal <= 1.10): {'met' if float(m.group(1)) <= 1.10 else 'NOT met'}")
    w("")
    w("## The qryn explorer: 400,000 nodes")
    w("")
    w("`qflame-bench-explorer` (bench/explorer_main.cpp): a querier server on its own thread (the GUI stall "
      "test's) answers SelectMergeStacktraces at once with a prepared 400,000-node flamegraph, every node a "
      "function of its own (24 MB); a fresh explorer tab (offscreen) with a 20-minute range loads it. `client` is "
      "the client's request alone (transfer, decode, profile, tree, layout, flat table); `painted` runs from "
      "load() to the tab's first painted flamegraph of it. The server's own time is writing bytes it holds.")
    w("")
    w("```")
    explorer = open(f"{a.data}/window-explorer.txt").read().strip()
    w(explorer)
    w("```")
    painted = [int(x) for x in re.findall(r"painted ([0-9]+) ms", explorer)]
    if painted:
        p = median(painted)
        goals.append(f"- explorer, 400,000 nodes: answer to painted flamegraph {p / 1000:.2f} s median "
                     f"(goal <= 2 s): {'met' if p <= 2000 else 'NOT met'}")
    w("")
    w("## A comparison's options changed: the GUI thread's longest stall")
    w("")
    w("`qflame-bench-diffstall` (bench/diffstall_main.cpp): one window (offscreen) with the 1M -> 1M node "
      "comparison open; the diff bar's options changed one after another. `longest GUI gap` is the longest time "
      "the GUI thread did not run its 10 ms timer between the change and the view showing it (DiffView computes "
      "the diff under the new options, its layout and its table off the GUI thread, then swaps them in).")
    w("")
    w("```")
    stall = open(f"{a.data}/window-diffstall.txt").read().strip()
    w(stall)
    w("```")
    gaps = [int(x) for x in re.findall(r"longest GUI gap +([0-9]+) ms", stall)]
    if gaps:
        goals.append(f"- 1M-node comparison, options changed: longest GUI stall {max(gaps)} ms "
                     f"(goal < 50 ms): {'met' if max(gaps) < 50 else 'NOT met'}")
    w("")
    w("## Goals")
    w("")
    out.extend(goals)
    with open(a.out, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
