#!/usr/bin/env python3
"""Protocol latency benchmark: idle ping->pong, '?'->move and force->pong during a search.

Usage: scripts/latency.py [ENGINE]   (default target/release/plugboard)
A measurement for closing notes, not a test: it asserts nothing.
"""
import statistics
import subprocess
import sys
import time

engine = sys.argv[1] if len(sys.argv) > 1 else "target/release/plugboard"
proc = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def send(line):
    proc.stdin.write(line + "\n")
    proc.stdin.flush()


def wait_for(predicate):
    for line in proc.stdout:
        if predicate(line.rstrip("\n")):
            return
    raise SystemExit("engine closed its output")


def summary(name, samples):
    samples = sorted(samples)
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    print(f"{name}: median {statistics.median(samples):.3f} ms, p99 {p99:.3f} ms, "
          f"max {samples[-1]:.3f} ms over {len(samples)}")


send("xboard")
send("protover 2")
wait_for(lambda l: l == "feature done=1")

pings = []
for n in range(2000):
    started = time.perf_counter()
    send(f"ping {n}")
    wait_for(lambda l, n=n: l == f"pong {n}")
    pings.append((time.perf_counter() - started) * 1000)
summary("idle ping -> pong", pings)

def during_search(interrupt, done, rounds=30):
    """Starts a long search, sends `interrupt` lines, times until `done` matches."""
    samples = []
    for n in range(rounds):
        send("new")
        send("st 600")
        send("go")
        time.sleep(0.2 + 0.01 * n)
        started = time.perf_counter()
        for line in interrupt(n):
            send(line)
        wait_for(lambda l, n=n: done(l, n))
        samples.append((time.perf_counter() - started) * 1000)
    return samples


summary("'?' -> move during a search",
        during_search(lambda n: ["?"], lambda l, n: l.startswith("move ")))
summary("force -> pong during a search (search stopped and discarded)",
        during_search(lambda n: ["force", f"ping f{n}"], lambda l, n: l == f"pong f{n}"))

send("quit")
proc.wait()
