#!/usr/bin/env python3
"""Protocol latency benchmark: idle ping->pong, '?'->move and force->pong during a
search, and our move -> the engine's book move.

Usage: scripts/latency.py [ENGINE [BOOK]]   (default target/release/plugboard and
tests/data/books/gm2001.bin)
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


def book_replies(book, rounds=50):
    """Plays 1.e4, 2.Nf3 and 3.d4 against the book's heaviest replies, timing each."""
    send(f"option Book file={book}")
    send("option Book choice=best")
    samples = []
    for _ in range(rounds):
        send("new")
        send("level 0 1 0")
        for ours in ["e2e4", "g1f3", "d2d4"]:
            started = time.perf_counter()
            send(ours)
            wait_for(lambda l: l.startswith("move "))
            samples.append((time.perf_counter() - started) * 1000)
    return samples


summary("our move -> book move", book_replies(sys.argv[2] if len(sys.argv) > 2 else "tests/data/books/gm2001.bin"))

send("quit")
proc.wait()
