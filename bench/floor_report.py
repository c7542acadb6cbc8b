#!/usr/bin/env python3
"""Turns bench/floor.sh's runs into docs/benchmarks-floor.md: medians, ratios against zcat, igzip and zstd, the
window's first paint against `qflame top` (the largest profile's bottom-up too), and the goals of issue #31 and #36's bottom-up first paint, with the machine, its load and the build. Also
puts the same text into docs/benchmarks.md between the floor markers (at the top when they are missing)."""
import argparse
import collections
import os
import platform
import re
import statistics
import subprocess
import datetime

BEGIN, END = "<!-- floor: bench/floor.sh -->", "<!-- /floor -->"
LARGEST = "gen__gotypes-stdlib.allocs-r64.pb.gz"


def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.strip()
    except OSError:
        return ""


def machine():
    cpu = re.sub(r"\s+", " ", sh("lscpu | sed -n 's/^Model name: *//p' | head -1"))
    mem = sh("awk '/MemTotal/ {printf \"%.1f\", $2 / 1048576}' /proc/meminfo")
    return f"{cpu}, {os.cpu_count()} cores, RAM {mem} GiB, Linux {platform.release()}"


def cache(build, key):
    try:
        with open(os.path.join(build, "CMakeCache.txt")) as f:
            for line in f:
                if line.startswith(key + ":"):
                    return line.split("=", 1)[1].strip()
    except OSError:
        pass
    return "?"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--results", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--runs", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--commit", required=True)
    ap.add_argument("--benchmarks")
    ap.add_argument("--notes", help="markdown put after the goals: what the changes measured since bought")
    a = ap.parse_args()

    wall = collections.defaultdict(list)
    rss = collections.defaultdict(list)
    paint = collections.defaultdict(list)
    order = []
    with open(a.results) as f:
        for line in f:
            # PAINT_MS from before fork to the window's "first paint" line; SELF_MS (after session 25) what it
            # printed, 0-10 ms more (its start time in 10 ms ticks). Older results have no SELF_MS: their PAINT_MS
            # was that figure.
            key, tool, w, r, p = line.rstrip("\n").split("\t")[:5]
            if key not in order:
                order.append(key)
            wall[key, tool].append(float(w))
            rss[key, tool].append(int(r))
            if p != "-":
                paint[key, tool].append(float(p) / 1000)

    def med(d, k):
        return statistics.median(d[k]) if d.get(k) else None

    def fmt(x, digits=3):
        return "-" if x is None else f"{x:.{digits}f}"

    def ratio(x, y):
        return None if x is None or y is None or y == 0 else x / y

    sizes = {}
    with open(os.path.join(a.data, "floor-sizes.tsv")) as f:
        for line in f:
            k, n = line.split("\t")
            sizes[k] = int(n)
    # When the runs ended (the results' last write), not when the report is made: it may be made again later.
    measured = datetime.datetime.utcfromtimestamp(os.path.getmtime(a.results))
    load_before = open(os.path.join(a.data, "floor-load-before.txt")).read().strip()
    load_after = open(os.path.join(a.data, "floor-load-after.txt")).read().strip()
    isal = cache(a.build, "QFLAME_WITH_ISAL")
    lines = [
        "## Reading against the floor (bench/floor.sh, issue #31)",
        "",
        f"Measured {measured:%Y-%m-%d %H:%M} UTC at commit `{a.commit}` on this project's machine: "
        f"{machine()}. Build: {cache(a.build, 'CMAKE_BUILD_TYPE')} (`-O3 -g`), ISA-L "
        f"{'on' if isal.upper() in ('ON', '1', 'TRUE') else 'off'} (QFLAME_WITH_ISAL={isal}), "
        f"{sh('g++ --version | head -1')}.",
        f"Load before: `{load_before}`; after: `{load_after}`. The machine is shared (other sessions compile on it): "
        "absolute times move with the load, the ratios come from runs interleaved in the same minutes.",
        "",
        f"{a.runs} interleaved runs of each command per file, medians, each under `qflame-bench-measure` (wall time "
        "from fork to exit, peak RSS), standard output to /dev/null, the files in the page cache. `paint` is "
        "`qflame --time-to-paint FILE` (offscreen) from the same point before fork to the line it prints once its "
        "first flamegraph is painted (`qflame-bench-measure --line`; the N ms in that line counts from the start "
        "time the kernel keeps in 10 ms ticks, rounded down, 0-10 ms more). "
        "`floor` is `zcat` for gzip files, `zstd -dc` for zstd ones.",
        "",
        "| profile | MB | zcat s | igzip -dc s | zstd -dc s | qflame top s | top / floor | top / igzip | paint s | "
        "paint / top | top RSS MB | pprof -top s |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    goals = []
    for key in order:
        z, i, zs = med(wall, (key, "zcat")), med(wall, (key, "igzip -dc")), med(wall, (key, "zstd -dc"))
        top, pt = med(wall, (key, "qflame top")), med(paint, (key, "paint"))
        pp = med(wall, (key, "pprof -top"))
        floor = z if z is not None else zs
        size = sizes.get(key)
        toprss = med(rss, (key, "qflame top"))
        lines.append(
            f"| {key} | {fmt(size and size / 1e6, 1)} | {fmt(z)} | {fmt(i)} | {fmt(zs)} | {fmt(top)} | "
            f"{fmt(ratio(top, floor), 2)}x | {fmt(ratio(top, i), 2)}{'x' if i else ''} | {fmt(pt)} | "
            f"{fmt(ratio(pt, top), 2)}x | {fmt(toprss and toprss / 1024, 1)} | {fmt(pp, 2)} |")
        r = ratio(top, floor)
        if key == LARGEST:
            goals.append((f"{key}: `qflame top` {fmt(r, 2)}x `zcat`", "<= 1.0x", r is not None and r <= 1.0))
            ri = ratio(top, i)
            goals.append((f"{key}: `qflame top` {fmt(ri, 2)}x `igzip -dc`", "<= 3.5x", ri is not None and ri <= 3.5))
            rp = ratio(pt, top)
            goals.append((f"{key}: first paint {fmt(rp, 2)}x `qflame top`", "<= 1.25x", rp is not None and rp <= 1.25))
            pinv = med(paint, (key, "paint-inverted"))
            rb = ratio(pinv, top)
            goals.append((f"{key}: bottom-up first paint (`--inverted --time-to-paint`, {fmt(pinv)} s) {fmt(rb, 2)}x "
                          "`qflame top` (issue #36)", "<= 1.5x", rb is not None and rb <= 1.5))
        elif key.endswith(".zst"):
            goals.append((f"{key}: `qflame top` {fmt(r, 2)}x `zstd -dc`", "<= 1.0x", r is not None and r <= 1.0))
        else:
            goals.append((f"{key}: `qflame top` {fmt(r, 2)}x `zcat`", "<= 1.2x (over 1 MB)", r is not None and r <= 1.2))
    starts = os.path.join(a.data, "floor-thread-start.txt")
    if os.path.exists(starts):
        lines += ["", "How soon a helper thread begins while the thread that made it stays busy (`qflame-bench-thread-start`, "
                  "right after the runs above; the inflater, the prefaulter and every split job start theirs so):", ""]
        lines += ["    " + l for l in open(starts).read().strip().splitlines()]
    costs = [os.path.join(a.data, n) for n in ("floor-page-cost.txt", "floor-page-cost-idle.txt")]
    if all(os.path.exists(c) for c in costs):
        lines += ["", "What fresh memory costs (`qflame-bench-page-cost`): right after the runs above, and then once "
                  "after 5 s idle. The programs' sample arrays and heaps are on huge pages; after a pause the host backs "
                  "those again, and every 4 KiB page costs the same either way:", ""]
        lines += ["    " + l for l in open(costs[0]).read().strip().splitlines()]
        lines += ["    after 5 s idle, 64 MiB, one trial:"]
        lines += ["    " + l for l in open(costs[1]).read().strip().splitlines()[1:]]
    bound = os.path.join(a.data, "floor-bound.txt")
    if os.path.exists(bound):
        lines += ["", "The least `qflame top` could take on r64.pb.zst from its parts alone (`qflame-bench-bound`, "
                  "11 rounds right after the above, each timing `zstd -dc` and the parts in turn, on one thread "
                  "each, warm, nothing kept; each bound is its parts shared perfectly by the two cores, without the "
                  "process's start and exit; the last line is the same work shared out by three threads for real, "
                  "a prototype of such a `top`, still without the start, the exit and the names):", ""]
        lines += ["    " + l for l in open(bound).read().strip().splitlines()]
    lines += ["", "Goals of issue #31 (and #36's bottom-up first paint):", ""]
    for text, goal, met in goals:
        lines.append(f"- {text} (goal {goal}): {'met' if met else 'NOT met'}")
    text = "\n".join(lines) + "\n"
    if a.notes and os.path.exists(a.notes):
        with open(a.notes) as f:
            text += "\n" + f.read().strip() + "\n"
    with open(a.out, "w") as f:
        f.write(text)
    print(text)

    if a.benchmarks and os.path.exists(a.benchmarks):
        with open(a.benchmarks) as f:
            doc = f.read()
        # The rest of the file comes from bench/run.sh's last full run: say when it differs from this machine.
        written = re.search(r"Written by `bench/run.sh` on (\S+)", doc)
        cpu = re.search(r"^- CPU: ([^,]+)", doc, re.M)
        here = re.sub(r"\s+", " ", sh("lscpu | sed -n 's/^Model name: *//p' | head -1"))
        if cpu and cpu.group(1).strip() != here:
            text += (f"\nThe sections below come from `bench/run.sh`'s last full run"
                     f"{' on ' + written.group(1) if written else ''}, on another machine ({cpu.group(1).strip()}, "
                     f"not this {here}) and with the code of then: their figures are not comparable with the "
                     "ones above; `bash bench/run.sh` measures them all again here.\n")
        block = f"{BEGIN}\n{text}{END}\n"
        if BEGIN in doc and END in doc:
            doc = doc[:doc.index(BEGIN)] + block + doc[doc.index(END) + len(END) + 1:]
        else:   # after the title and its first paragraph
            cut = doc.find("\n## ")
            doc = doc[:cut + 1] + block + "\n" + doc[cut + 1:] if cut >= 0 else doc + "\n" + block
        with open(a.benchmarks, "w") as f:
            f.write(doc)


if __name__ == "__main__":
    main()
