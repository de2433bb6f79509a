#!/usr/bin/env python3
"""How fast the engine ends while a search asks for 256 threads: the command of
issue 29, repeated. CECP: `xboard`, `protover 2`, `cores 256`, `new`, `st 30`,
`go`; cxboard: `cxboard 1`, `setoption name Threads value 256`, `position
startpos`, `go infinite`. SIGTERM 0.7 s later; each try logs to its own file,
which must end with the exit line (the log flushed).

Usage: scripts/crowded_exit.py ENGINE TRIES cecp|cx
A measurement for closing notes, not a test: it asserts nothing.
"""
import os
import signal
import subprocess
import sys
import tempfile
import time

exe, n, proto = sys.argv[1], int(sys.argv[2]), sys.argv[3]
times, unflushed, bad = [], 0, 0
for i in range(n):
    log = tempfile.mktemp(prefix="pb-sigterm-")
    p = subprocess.Popen([exe, "--log-file", log], stdin=subprocess.PIPE,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    p.stdin.write(b"xboard\nprotover 2\ncores 256\nnew\nst 30\ngo\n" if proto == "cecp"
                  else b"cxboard 1\nsetoption name Threads value 256\nposition startpos\ngo infinite\n")
    p.stdin.flush()
    time.sleep(0.7)
    t = time.monotonic()
    p.send_signal(signal.SIGTERM)
    try:
        rc = p.wait(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        rc = "killed"
    dt = time.monotonic() - t
    times.append(dt)
    bad += rc != 0
    text = open(log).read() if os.path.exists(log) else ""
    unflushed += "plugboard exiting" not in text and "ending it now" not in text
    if os.path.exists(log):
        os.remove(log)
times.sort()
print(f"{proto}: {n} tries, worst {times[-1]:.3f} s, median {times[n // 2]:.3f} s, "
      f"over 1 s: {sum(t > 1 for t in times)}, status not 0: {bad}, log without its last line: {unflushed}")
