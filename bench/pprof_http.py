#!/usr/bin/env python3
"""Seconds from starting `go tool pprof -http` to its flamegraph page.

    pprof_http.py GO TIMEOUT_S [-diff_base BASE] FILE

Starts `GO tool pprof -http=127.0.0.1:PORT -no_browser [...] FILE` (HOME and PPROF_TMPDIR as the caller set
them), asks for /ui/flamegraph every 10 ms from the moment the process is started, and prints the seconds until
an answer of status 200 whose body is the flamegraph page (HTML naming the flame graph). pprof reads and builds
the whole profile before it listens, so the first such answer is its first flamegraph. Then pprof is stopped
(its process group: `go tool` runs pprof as a child). Prints "timeout" after TIMEOUT_S seconds, "failed" when
pprof ends first.
"""
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    go, timeout = sys.argv[1], float(sys.argv[2])
    args = sys.argv[3:]
    port = free_port()
    url = f"http://127.0.0.1:{port}/ui/flamegraph"
    start = time.monotonic()
    proc = subprocess.Popen([go, "tool", "pprof", f"-http=127.0.0.1:{port}", "-no_browser", *args],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    result = "timeout"
    try:
        while time.monotonic() - start < timeout:
            if proc.poll() is not None:
                result = "failed"
                sys.stderr.write(proc.stderr.read().decode(errors="replace")[:500])
                break
            try:
                with urllib.request.urlopen(url, timeout=timeout) as answer:
                    body = answer.read()
                    if answer.status == 200 and b"<html" in body.lower() and b"flame" in body.lower():
                        result = f"{time.monotonic() - start:.3f}"
                        break
            except (urllib.error.URLError, ConnectionError, socket.timeout):
                pass
            time.sleep(0.01)
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()
    print(result)


if __name__ == "__main__":
    main()
