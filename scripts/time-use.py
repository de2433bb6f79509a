#!/usr/bin/env python3
"""How Plugboard spends its clock: self-play games over CECP at a moves-per-session
control, then each search's planned (soft) and hard budgets and the time it
actually took, read from the engine's own log ("search started" soft_ms/hard_ms,
"search finished" elapsed_ms).

    scripts/time-use.py [--engine target/release/plugboard] [--variant xiangqi]
                        [--level "40 1 0"] [--games 4] [--plies 80] [--jobs 2]

Prints, over every move searched: how many, the median and largest share of the
soft budget used, and how many took more than 1.5 and 2 times the soft budget.
Each game's two engines use the `random` command, so the games differ.
"""

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

MOVE = re.compile(r"^move (\S+)")
RESULT = re.compile(r"^(1-0|0-1|1/2-1/2) |^resign")


class Engine:
    def __init__(self, command, log):
        self.proc = subprocess.Popen(
            command + ["--log-file", str(log)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.lines = []
        self.seen = []
        self.cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            with self.cond:
                self.lines.append(line.rstrip("\n"))
                self.cond.notify_all()
        with self.cond:
            self.lines.append(None)
            self.cond.notify_all()

    def send(self, *lines):
        for line in lines:
            self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, pattern, timeout):
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                while self.lines:
                    line = self.lines.pop(0)
                    if line is None:
                        raise RuntimeError("engine exited")
                    self.seen = (self.seen + [line])[-20:]
                    if line.startswith(("Illegal move", "Error")):
                        raise RuntimeError(f"the engine said: {line}")
                    found = pattern.match(line) or RESULT.match(line)
                    if found:
                        return found
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no {pattern.pattern}; last lines: {self.seen}")
                self.cond.wait(left)

    def quit(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()


def play(command, variant, level, plies, folder, number):
    moves_per_session, minutes, increment = level.split()
    session_ms = int(float(minutes) * 60_000)
    engines = [Engine(command, folder / f"game{number}-{side}.log") for side in (0, 1)]
    for engine in engines:
        engine.send("xboard", "protover 2", "accepted usermove", "new", "random", f"level {level}", "force")
        if variant != "normal":
            engine.send(f"variant {variant}")
    clocks = [session_ms, session_ms]
    made = [0, 0]
    last = None
    for ply in range(plies):
        side = ply % 2
        engine = engines[side]
        engine.send(f"time {clocks[side] // 10}", f"otim {clocks[1 - side] // 10}")
        if last is not None:
            engine.send(f"usermove {last}")
        engine.send("go")
        started = time.monotonic()
        found = engine.wait_for(MOVE, timeout=clocks[side] / 1000 + 30)
        used = int((time.monotonic() - started) * 1000)
        engine.send("force")
        if found.re is RESULT:
            break
        last = found.group(1)
        clocks[side] -= used
        clocks[side] += int(float(increment) * 1000)
        made[side] += 1
        if int(moves_per_session) and made[side] % int(moves_per_session) == 0:
            clocks[side] += session_ms
        if clocks[side] < 0:
            print(f"game {number}: side {side} lost on time", file=sys.stderr)
            break
    for engine in engines:
        engine.quit()
    return [folder / f"game{number}-{side}.log" for side in (0, 1)]


def searches(log):
    started = re.compile(r"search started.*soft_ms=(\d+) hard_ms=(\d+)")
    finished = re.compile(r"search finished.*elapsed_ms=(\d+)")
    budget = None
    for line in log.read_text(errors="replace").splitlines():
        if m := started.search(line):
            budget = (int(m.group(1)), int(m.group(2)))
        elif (m := finished.search(line)) and budget:
            yield budget[0], budget[1], int(m.group(1))
            budget = None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", default="target/release/plugboard")
    parser.add_argument("--variant", default="xiangqi")
    parser.add_argument("--level", default="40 1 0")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--plies", type=int, default=80)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    command = args.engine.split()
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        with ThreadPoolExecutor(args.jobs) as pool:
            logs = [
                log
                for pair in pool.map(
                    lambda n: play(command, args.variant, args.level, args.plies, folder, n), range(args.games)
                )
                for log in pair
            ]
        rows = [row for log in logs for row in searches(log)]
    if not rows:
        sys.exit("no searches found in the logs")
    shares = [elapsed / soft for soft, _, elapsed in rows if soft > 0]
    over = lambda factor: sum(1 for share in shares if share > factor)
    print(f"{args.engine}: {args.variant}, level {args.level}, {args.games} games, {len(rows)} moves searched")
    print(
        f"time used / soft budget: median {statistics.median(shares):.2f}, mean {statistics.mean(shares):.2f}, "
        f"max {max(shares):.2f}; over 1.5x: {over(1.5)}, over 2x: {over(2.0)}"
    )
    print(f"total thinking: {sum(e for _, _, e in rows) / 1000:.1f} s; largest move: {max(e for _, _, e in rows)} ms")


if __name__ == "__main__":
    main()
