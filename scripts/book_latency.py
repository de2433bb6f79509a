#!/usr/bin/env python3
"""How long the engine takes to answer with a book move, through its pipes.

Usage: scripts/book_latency.py target/release/plugboard [BOOK]

Plays 1.e4 c5 2.Nf3 d6 3.d4 cxd4 4.Nxd4 Nf6 as White's side against the engine
with `Book choice=best` and prints the time from each of our moves to the
engine's reply. A measurement, not a test.
"""
import subprocess
import sys
import time

engine = sys.argv[1] if len(sys.argv) > 1 else "target/release/plugboard"
book = sys.argv[2] if len(sys.argv) > 2 else "tests/data/books/gm2001.bin"
p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def send(line):
    p.stdin.write(line + "\n")
    p.stdin.flush()


def until(predicate):
    while True:
        line = p.stdout.readline()
        if not line:
            raise SystemExit("the engine ended")
        if predicate(line.strip()):
            return line.strip()


send("xboard")
send("protover 2")
until(lambda l: l == "feature done=1")
for line in [f"option Book file={book}", "option Book choice=best", "new", "level 0 1 0"]:
    send(line)
for ours in ["e2e4", "g1f3", "d2d4", "f3d4"]:
    start = time.perf_counter()
    send(ours)
    reply = until(lambda l: l.startswith("move "))
    print(f"{ours} -> {reply[5:]}: {(time.perf_counter() - start) * 1000:.2f} ms")
send("quit")
