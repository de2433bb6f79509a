#!/usr/bin/env python3
"""Latency of the UCI front end beside CECP's, in one run of one binary.

Usage: scripts/latency-uci.py [ENGINE]   (default target/release/plugboard)

For each front end, the same four waits, each timed from the command's write to
the answer's read: idle `isready`/`ping` to `readyok`/`pong`; the same while a
search runs (an analysis, for CECP: a ping while it thinks on its move is
answered after the move); `stop`/`?` to `bestmove`/`move` during a search; `go` to the first
line of thinking (`info depth` / a CECP thinking line, with `post`). Prints the
median, p99 and max of each. A measurement for closing notes, not a test: it
asserts nothing.
"""
import statistics
import subprocess
import sys
import time

ENGINE = sys.argv[1] if len(sys.argv) > 1 else "target/release/plugboard"


class Engine:
    def __init__(self):
        self.proc = subprocess.Popen([ENGINE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, predicate):
        for line in self.proc.stdout:
            if predicate(line.rstrip("\n")):
                return
        raise SystemExit("engine closed its output")

    def timed(self, lines, predicate):
        started = time.perf_counter()
        for line in lines:
            self.send(line)
        self.wait_for(predicate)
        return (time.perf_counter() - started) * 1000

    def quit(self):
        self.send("quit")
        self.proc.wait()


def summary(name, samples):
    samples = sorted(samples)
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    print(f"  {name}: median {statistics.median(samples):.3f} ms, p99 {p99:.3f} ms, "
          f"max {samples[-1]:.3f} ms over {len(samples)}", flush=True)


def is_thinking(line):
    """A CECP thinking line: it starts with the depth."""
    return line.split(" ", 1)[0].isdigit()


def uci():
    e = Engine()
    e.send("uci")
    e.wait_for(lambda l: l == "uciok")
    print("UCI", flush=True)
    summary("idle isready -> readyok", [e.timed(["isready"], lambda l: l == "readyok") for _ in range(2000)])
    during, stops, firsts = [], [], []
    for n in range(30):
        e.send("ucinewgame")
        e.send("position startpos")
        firsts.append(e.timed(["go infinite"], lambda l: l.startswith("info depth")))
        time.sleep(0.2 + 0.01 * n)
        during.append(e.timed(["isready"], lambda l: l == "readyok"))
        stops.append(e.timed(["stop"], lambda l: l.startswith("bestmove ")))
    summary("isready -> readyok during a search", during)
    summary("stop -> bestmove", stops)
    summary("go -> first info line", firsts)
    e.quit()


def cecp():
    e = Engine()
    e.send("xboard")
    e.send("protover 2")
    e.wait_for(lambda l: l == "feature done=1")
    print("CECP", flush=True)
    summary("idle ping -> pong", [e.timed([f"ping {n}"], lambda l, n=n: l == f"pong {n}") for n in range(2000)])
    during, stops, firsts = [], [], []
    for n in range(30):
        e.send("new")
        e.send("post")
        e.send("st 600")
        firsts.append(e.timed(["go"], is_thinking))
        time.sleep(0.2 + 0.01 * n)
        stops.append(e.timed(["?"], lambda l: l.startswith("move ")))
    # A ping while the engine thinks on its move is answered after the move, as
    # the protocol asks; during an analysis it is answered at once.
    for n in range(30):
        e.send("new")
        e.send("analyze")
        time.sleep(0.2 + 0.01 * n)
        during.append(e.timed([f"ping s{n}"], lambda l, n=n: l == f"pong s{n}"))
        e.send("exit")
    summary("ping -> pong during an analysis", during)
    summary("? -> move", stops)
    summary("go -> first thinking line", firsts)
    e.quit()


uci()
cecp()
