#!/usr/bin/env python3
"""Hostile shapes at full size (issue #23): each shape is made at SIZE MiB inflated, gzip-compressed into a small
file, and read by `qflame top` of a normal (not sanitizer) build; its wall time and peak RSS (getrusage of the
child) must stay within the bound: at most 4 x the inflated size + 256 MiB and 60 s, and it must end as
expected (read, or refused with the expected message).

    fuzz/hostile-full.py BUILD_DIR [--size MIB] [--only NAME] [--keep DIR] [--jobs N]

CI (packaging/setup.sh test, stage 2) runs it at 256 MiB, which fits its time; docs/robustness.md has the
figures at 1024 MiB. Prints one line per shape and "hostile: PASS" or "hostile: FAIL".
"""
import argparse
import concurrent.futures
import itertools
import os
import resource
import string
import subprocess
import sys
import tempfile
import time
import zlib

MIB = 1 << 20
CHUNK = 4 * MIB


def varint(v):
    out = bytearray()
    while v >= 0x80:
        out.append(0x80 | (v & 0x7F))
        v >>= 7
    out.append(v)
    return bytes(out)


def field(number, payload):
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def gzip_file(path, parts, size):
    """Writes the gzip of `parts` in order: bytes as they are, (unit, count) as unit repeated count times, and
    one ('fill', unit, pad) as unit repeated to make the whole `size` bytes, the remainder (under one unit) in
    `pad` bytes (none when pad is empty: binary units cannot be cut)."""
    def length(part):
        if isinstance(part, bytes):
            return len(part)
        return 0 if part[0] == 'fill' else len(part[0]) * part[1]

    fill_bytes = size - sum(length(p) for p in parts)
    comp = zlib.compressobj(1, zlib.DEFLATED, 31)
    with open(path, 'wb') as f:
        def repeat(unit, count):
            per = max(1, CHUNK // len(unit))
            block = unit * per
            while count >= per:
                f.write(comp.compress(block))
                count -= per
            f.write(comp.compress(unit * count))

        for part in parts:
            if isinstance(part, bytes):
                f.write(comp.compress(part))
            elif part[0] == 'fill':
                unit, pad = part[1], part[2]
                repeat(unit, fill_bytes // len(unit))
                f.write(comp.compress(pad * (fill_bytes % len(unit))))
            else:
                repeat(part[0], part[1])
        f.write(comp.flush())


def distinct_names(limit_bytes):
    """Folded lines "xxxxx 1" with a distinct name each, up to limit_bytes."""
    out = []
    total = 0
    letters = string.ascii_lowercase
    for first in letters:
        block = '\n'.join(first + ''.join(t) + ' 1' for t in itertools.product(letters, repeat=4)) + '\n'
        out.append(block.encode())
        total += len(block)
        if total >= limit_bytes:
            break
    return b''.join(out)


def chain_levels(levels):
    body = ','.join('[0,%d,1,%d]' % (levels - l, 1 if l else 0) for l in range(levels))
    return b'{"names":["total","f"],"levels":[' + body.encode() + b']}'


REFUSAL = 'bytes in memory, more than the limit per byte of input'
# Shapes whose memory per byte of input is near the limit (3 per byte + 64 MiB): read at one size, refused with
# the limit's message at another; either is within the bound, which is what is checked.
EITHER = 'read, or ' + REFUSAL


def shapes(size):
    one_type = field(6, b'') + field(6, b'samples') + field(6, b'count') + field(1, b'\x08\x01\x10\x02')
    n = size
    fill = lambda unit, pad=b' ': ('fill', unit, pad)
    return [
        # pprof (session 10's shapes)
        ('pprof empty sample types', [field(6, b''), fill(b'\x0a\x00', b'')], 'more than 1024 sample types'),
        ('pprof empty strings', [fill(b'\x32\x00', b'')], 'the profile has no sample types'),   # read, then top has nothing to show
        ('pprof empty samples', [one_type, fill(b'\x12\x02\x10\x00', b'')], None),
        # folded
        ('folded tiny lines', [fill(b'a 1\n', b'\n')], None),
        ('folded alternating lines', [fill(b'a 1\nb 2\n', b'\n')], None),
        ('folded distinct names', [distinct_names(min(n // 4, 64 * MIB)), fill(b'\n', b'\n')], REFUSAL),
        ('folded deep stack', [b'b 1\n', fill(b'a;', b';'), b'a 1\n'], EITHER),   # a short line first: told by it
        # flamebearer
        ('flamebearer empty bars', [b'{"names":["total"],"levels":[[0,1,1,0', fill(b',0,0,0,0'), b']]}'], None),
        ('flamebearer empty levels', [b'{"names":["total"],"levels":[[0,1,1,0]', fill(b',[]'), b']}'], None),
        ('flamebearer empty names', [b'{"levels":[[0,1,1,0]],"names":["total"', fill(b',""'), b']}'], EITHER),
        ('flamebearer deep chain', [chain_levels(min(n // 64, 4 * MIB)), fill(b' ')], REFUSAL),
        ('json deep nesting', [b'{"levels":', fill(b'[')], 'the maxJsonDepth limit'),
        # speedscope
        ('speedscope empty samples', [b'{"shared":{"frames":[{"name":"f"}]},"profiles":[{"type":"sampled",'
                                      b'"unit":"none","samples":[[]', (b',[]', (n - 200) // 5), b'],"weights":[1',
                                      (b',1', (n - 200) // 5), b']}]}', fill(b' ')], None),
        ('speedscope empty frames', [b'{"profiles":[{"type":"sampled","unit":"none","samples":[[0]],"weights":[1]}],'
                                     b'"shared":{"frames":[{}', fill(b',{}'), b']}}'], EITHER),
        ('speedscope empty profiles', [b'{"shared":{"frames":[]},"profiles":[{}', fill(b',{}'), b']}'], REFUSAL),
        # Chrome .cpuprofile
        ('cpuprofile tiny samples', [b'{"nodes":[{"id":1,"callFrame":{"functionName":"f"}}],"samples":[1',
                                     (b',1', (n - 200) // 4), b'],"timeDeltas":[0', (b',0', (n - 200) // 4), b']}',
                                     fill(b' ')], EITHER),
        # perf script
        ('perf script tiny records', [fill(b'a 1 1.0: e:\n\t0 f\n\n', b'\n')], EITHER),
        ('perf script headers only', [fill(b'a 1 1.0: e:\n', b'\n')], EITHER),
        ('perf script deep record', [b'a 1 1.0: e:\n', fill(b'\t0 f\n', b'\n')], EITHER),
    ]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('build')
    ap.add_argument('--size', type=int, default=1024, help='inflated size in MiB')
    ap.add_argument('--only', help='run the shapes whose name contains this')
    ap.add_argument('--keep', help='keep the generated files in this directory')
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 1, help='shapes read at a time')
    a = ap.parse_args()
    qflame = os.path.join(a.build, 'app', 'qflame')
    size = a.size * MIB
    bound_kib = (4 * size + 256 * MIB) // 1024
    failed = 0
    ran = 0
    out_dir = a.keep or tempfile.mkdtemp(prefix='qflame-hostile-')
    print('hostile: %d MiB inflated per shape; bound %d MiB peak RSS and 60 s; load %s' %
          (a.size, bound_kib // 1024, ' '.join('%.1f' % x for x in os.getloadavg())))
    # Each shape is made and read in a Python child of its own, so that RUSAGE_CHILDREN is its reader's alone;
    # --jobs of them at a time (the machine's cores by default: the bound is per process, and a reader uses one
    # core and a second for inflating only while the other waits).
    def run(shape):
        name, parts, refusal = shape
        path = os.path.join(out_dir, name.replace(' ', '-') + '.gz')
        made = time.monotonic()
        gzip_file(path, parts, size)
        made = time.monotonic() - made
        gz_size = os.path.getsize(path)
        probe = subprocess.run([sys.executable, '-c', PROBE, qflame, path, str(a.size)], capture_output=True, text=True)
        code, first, wall, peak = probe.stdout.split('\t')
        code, wall, peak = int(code), float(wall), int(peak)
        if not a.keep:
            os.remove(path)
        ok = wall <= 60 and peak <= bound_kib
        outcome = 'read' if code == 0 else 'refused: ' + first.strip()
        if refusal is None:
            ok = ok and code == 0
        elif refusal is EITHER:
            ok = ok and (code == 0 or 'memoryPerInputByte' in first)   # every reader's budget names it
        else:
            ok = ok and code != 0 and refusal in first
        return ok, 'hostile: %-28s %s  %5.1f s  %6d MiB  (gzip %4.1f MB, made in %.0f s)  %s' % (
            name, 'ok  ' if ok else 'FAIL', wall, peak // 1024, gz_size / 1e6, made, outcome[:160])

    todo = [s for s in shapes(size) if not a.only or a.only in s[0]]
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        for ok, line in pool.map(run, todo):
            ran += 1
            failed += not ok
            print(line, flush=True)
    if not a.keep:
        os.rmdir(out_dir)
    print('hostile: %s (%d shapes, %d failed)' % ('PASS' if failed == 0 and ran else 'FAIL', ran, failed))
    return 1 if failed or not ran else 0


PROBE = r'''
import resource, subprocess, sys, time
qflame, path, size = sys.argv[1:4]
start = time.monotonic()
p = subprocess.run([qflame, 'top', '--max-size', str(int(size) + 1), path], stdout=subprocess.DEVNULL,
                   stderr=subprocess.PIPE, text=True, errors='replace')
wall = time.monotonic() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
first = (p.stderr.strip().splitlines() or [''])[0].replace('\t', ' ')
sys.stdout.write('%d\t%s\t%.2f\t%d' % (p.returncode, first, wall, peak))
'''

if __name__ == '__main__':
    sys.exit(main())
