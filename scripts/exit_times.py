#!/usr/bin/env python3
"""How fast the engine ends: SIGTERM, `quit` and end of input, each sent while it
searches for a move on a long clock; and how a storm of SIGINTs goes.

Usage: scripts/exit_times.py [ENGINE] [ROUNDS]   (default target/release/plugboard, 20)
A measurement for closing notes, not a test: it asserts nothing. Logs go to a
temporary folder.
"""
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time

engine = sys.argv[1] if len(sys.argv) > 1 else "target/release/plugboard"
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 20
logs = tempfile.mkdtemp(prefix="plugboard-exit-")


def start():
    proc = subprocess.Popen([engine, "--log-dir", logs], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, bufsize=1)
    send(proc, "xboard")
    send(proc, "protover 2")
    wait_for(proc, lambda l: l == "feature done=1")
    return proc


def send(proc, line):
    proc.stdin.write(line + "\n")
    proc.stdin.flush()


def wait_for(proc, predicate):
    for line in proc.stdout:
        if predicate(line.rstrip("\n")):
            return
    raise SystemExit("engine closed its output")


def searching(proc):
    send(proc, "new")
    send(proc, "level 0 10 0")
    send(proc, "go")
    time.sleep(0.3)


def exit_time(end):
    proc = start()
    searching(proc)
    started = time.perf_counter()
    end(proc)
    status = proc.wait(timeout=30)
    return (time.perf_counter() - started) * 1000, status


def report(name, end):
    samples, statuses = zip(*(exit_time(end) for _ in range(rounds)))
    print(f"{name}: median {statistics.median(samples):.1f} ms, max {max(samples):.1f} ms over {rounds}; "
          f"exit statuses {sorted(set(statuses))}")


def close_input(proc):
    proc.stdin.close()


report("SIGTERM during a search -> exit", lambda p: p.send_signal(signal.SIGTERM))
report("quit during a search -> exit", lambda p: send(p, "quit"))
report("end of input during a search -> exit", close_input)

proc = start()
answered = 0
sent = 0
for n in range(10):
    searching(proc)
    for _ in range(50):
        os.kill(proc.pid, signal.SIGINT)
        sent += 1
        time.sleep(0.0003)
    wait_for(proc, lambda l: l.startswith("move "))
    send(proc, "force")
    for _ in range(50):
        os.kill(proc.pid, signal.SIGINT)
        sent += 1
    send(proc, f"ping {n}")
    wait_for(proc, lambda l, n=n: l == f"pong {n}")
    answered += 1
send(proc, "quit")
print(f"SIGINT storm: {sent} signals, {answered}/10 pings answered, exit status {proc.wait(timeout=30)}")
