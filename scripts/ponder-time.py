#!/usr/bin/env python3
"""Does pondering turn ponder hits into saved time?

Drives the engine over CECP v2 the way xboard does and plays the same games twice:
once with `hard` (pondering on) and once with `easy` (off). The engine plays the side
to move in the start position (or in each --fen); the scripted opponent waits a
realistic think time (--opp-think, seeded, identical in both runs, during which a
`hard` engine ponders), sends `time`/`otim` and then plays the reply the engine
expects: the `Hint:` it sent after its move, or what `hint` answers, or the second
move of its last PV. With `hard`, an opponent move equal to the spontaneous `Hint:`
is a ponder hit.

For each engine move it records the wall time from sending the opponent's move (or
`go`) to `move ...`, whether that move followed a ponder hit, the depth and time
of the last thinking line, and the clocks. It reports mean/median think time after
ponder hits with `hard` against the moves at the same index with `easy`, and the
clock each run used; it also checks that the engine never moves while the opponent
is on move, that its moves are legal, and that it never runs out of time.

Run from the repository root (one engine process at a time; runs are interleaved
game by game so machine load falls on both modes alike):

    python3 scripts/ponder-time.py --engine target/release/plugboard --games 2
    python3 scripts/ponder-time.py --games 3 --moves 30 --level "0 1 0" --per-move
    python3 scripts/ponder-time.py --transcript /tmp/ponder.log   # full protocol log

A measurement, not a test: wall-clock figures depend on machine load.
"""
import argparse
import queue
import random
import statistics
import subprocess
import sys
import threading
import time

import chess

# Balanced middlegame-ish positions for --games beyond the start position.
DEFAULT_FENS = [
    chess.STARTING_FEN,
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
    "rnbqk2r/ppp1bppp/4pn2/3p4/2PP4/2N2N2/PP2PPPP/R1BQKB1R w KQkq - 4 5",
]


class Engine:
    """One engine process; a reader thread timestamps every line it writes."""

    def __init__(self, path, transcript, label):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = queue.Queue()
        self.transcript = transcript
        self.label = label
        self.t0 = time.monotonic()
        self.pings = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put((time.monotonic(), line.rstrip("\n")))
        self.lines.put((time.monotonic(), None))

    def log(self, t, arrow, text):
        if self.transcript:
            self.transcript.write(f"{self.label} {t - self.t0:9.3f} {arrow} {text}\n")

    def send(self, text):
        now = time.monotonic()
        self.log(now, ">", text)
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()
        return now

    def get(self, deadline):
        """The next (time, line) before `deadline` (monotonic), or None; line None at EOF."""
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        try:
            t, line = self.lines.get(timeout=left)
        except queue.Empty:
            return None
        self.log(t, "<", line if line is not None else "<EOF>")
        return t, line

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


def parse_level(text):
    """`level MPS BASE INC` as xboard sends it -> (mps, base_cs, inc_cs)."""
    mps, base, inc = text.split()
    if ":" in base:
        minutes, seconds = base.split(":")
        base_s = int(minutes) * 60 + int(seconds)
    else:
        base_s = int(base) * 60
    return int(mps), base_s * 100, round(float(inc) * 100)


def parse_thinking(line):
    """`depth score time nodes ...\\tpv` -> dict, or None if not a thinking line."""
    head, tab, pv = line.partition("\t")
    fields = head.split()
    if len(fields) < 4 or not all(f.lstrip("-").isdigit() for f in fields[:4]):
        return None
    moves = pv.split() if tab else fields[4:]
    return {"depth": int(fields[0]), "cs": int(fields[2]), "nodes": int(fields[3]), "pv": moves}


def play_game(args, mode, fen, game_no, transcript):
    """One game with pondering `mode` ('hard' or 'easy'); returns a dict of records."""
    label = f"g{game_no}-{mode}"
    engine = Engine(args.engine, transcript, label)
    mps, base_cs, inc_cs = parse_level(args.level)
    rng = random.Random(f"{args.seed}-{game_no}")  # the same opponent times in both modes
    oddities = []
    moves = []
    result = None

    def odd(text):
        oddities.append(f"{label}: {text}")

    # Handshake.
    engine.send("xboard")
    engine.send("protover 2")
    deadline = time.monotonic() + 10
    while True:
        got = engine.get(deadline)
        if got is None or got[1] is None:
            engine.close()
            raise SystemExit(f"{label}: no 'feature ... done=1' from the engine")
        if got[1].startswith("feature") and "done=1" in got[1]:
            break
    engine.send("accepted usermove")
    engine.send("new")
    engine.send(mode)
    engine.send("post")
    engine.send(f"level {args.level}")
    board = chess.Board(fen)
    if fen != chess.STARTING_FEN:
        engine.send("force")
        engine.send(f"setboard {fen}")
    engine_cs = opp_cs = base_cs
    engine_moves_made = opp_moves_made = 0
    engine.send(f"time {engine_cs}")
    engine.send(f"otim {opp_cs}")
    sent_at = engine.send("go")
    hit = False

    while len(moves) < args.moves:
        # --- The engine is on move: wait for `move`. ---
        last_line = None
        limit = sent_at + engine_cs / 100 + 5
        engine_move = None
        while engine_move is None:
            got = engine.get(limit)
            if got is None:
                odd(f"no move within its clock + 5 s at ply {board.ply()}")
                result = "engine silent"
                break
            t, line = got
            if line is None:
                result = "engine exited"
                break
            if line.startswith("move "):
                engine_move = (t, line.split()[1])
            elif line.startswith(("resign", "1-0", "0-1", "1/2-1/2")):
                result = line
                break
            elif line.startswith("Illegal move") or line.startswith("Error"):
                odd(f"engine said {line!r}")
            else:
                thinking = parse_thinking(line)
                if thinking:
                    last_line = thinking
        if engine_move is None:
            break
        t_move, text = engine_move
        think = t_move - sent_at
        try:
            move = board.parse_uci(text)
        except ValueError:
            odd(f"illegal engine move {text} in {board.fen()}")
            result = "illegal move"
            break
        engine_cs -= round(think * 100)
        engine_moves_made += 1
        if engine_cs < 0:
            odd(f"flagged: {engine_cs} cs after move {len(moves) + 1}")
        engine_cs += inc_cs
        if mps and engine_moves_made % mps == 0:
            engine_cs += base_cs
        reported_cs = last_line["cs"] if last_line else None
        if reported_cs is not None and not hit and reported_cs > think * 100 + 5:
            odd(f"move {len(moves) + 1}: thinking time {reported_cs} cs > {think * 100:.0f} cs measured")
        moves.append({"n": len(moves) + 1, "fullmove": board.fullmove_number, "hit": hit,
                      "think": think, "depth": last_line["depth"] if last_line else None,
                      "reported_cs": reported_cs, "clock_cs": engine_cs})
        pv = last_line["pv"] if last_line else []
        board.push(move)
        if board.is_game_over(claim_draw=True):
            # The engine announces the result itself; take it if it comes.
            got = engine.get(time.monotonic() + 0.5)
            while got and got[1] is not None and not got[1].startswith(("1-0", "0-1", "1/2-1/2")):
                got = engine.get(time.monotonic() + 0.5)
            result = got[1] if got and got[1] else board.result(claim_draw=True)
            break
        if len(moves) >= args.moves:
            break

        # --- The opponent is on move: think, watching what the engine says meanwhile. ---
        opp_think = rng.uniform(*args.opp_think)
        miss = rng.random() < args.miss_rate
        hint = None
        ponder_lines = 0
        until = t_move + opp_think
        while True:
            got = engine.get(until)
            if got is None:
                break
            t, line = got
            if line is None:
                result = "engine exited"
                break
            if line.startswith("move "):
                odd(f"sent {line!r} while the opponent was on move (ply {board.ply()})")
            elif line.startswith("Hint:"):
                hint = hint or line.split()[1]
            elif parse_thinking(line):
                ponder_lines += 1
        if result:
            break
        pondered_on = hint if mode == "hard" else None
        if mode == "hard" and hint is None:
            odd(f"no Hint: after move {len(moves)} ({text})")
        if mode == "easy" and ponder_lines:
            odd(f"{ponder_lines} thinking lines while the opponent was on move with easy")
        expected = hint
        if expected is None:
            # Ask, as a GUI would; ping marks the end of the answer.
            engine.pings += 1
            engine.send("hint")
            engine.send(f"ping {engine.pings}")
            deadline = time.monotonic() + 2
            while (got := engine.get(deadline)) and got[1] is not None and got[1] != f"pong {engine.pings}":
                if got[1].startswith("Hint:"):
                    expected = got[1].split()[1]
                elif got[1].startswith("move "):
                    odd(f"sent {got[1]!r} while the opponent was on move")
        if expected is None and len(pv) >= 2 and pv[0] == text:
            expected = pv[1]
        reply = None
        if expected is not None:
            try:
                reply = board.parse_uci(expected)
            except ValueError:
                odd(f"expected reply {expected} is not legal in {board.fen()}")
        legal = sorted(board.legal_moves, key=lambda m: m.uci())
        if reply is None or (miss and len(legal) > 1):
            reply = rng.choice([m for m in legal if m != reply])
        opp_cs -= round(opp_think * 100)
        opp_moves_made += 1
        opp_cs += inc_cs
        if mps and opp_moves_made % mps == 0:
            opp_cs += base_cs
        # xboard: time, otim, then the move.
        engine.send(f"time {engine_cs}")
        engine.send(f"otim {opp_cs}")
        sent_at = engine.send(f"usermove {reply.uci()}")
        hit = pondered_on is not None and reply.uci() == pondered_on
        board.push(reply)
        if board.is_game_over(claim_draw=True):
            result = board.result(claim_draw=True)
            break

    engine.send("force")
    # Nothing may come after force but a pong: a late move would be a bug.
    engine.send("ping 999999")
    deadline = time.monotonic() + 3
    while (got := engine.get(deadline)) and got[1] is not None and got[1] != "pong 999999":
        if got[1].startswith("move "):
            odd(f"sent {got[1]!r} after force")
    engine.close()
    used_cs = sum(round(m["think"] * 100) for m in moves)
    return {"mode": mode, "game": game_no, "fen": fen, "moves": moves, "result": result,
            "used_cs": used_cs, "clock_cs": engine_cs, "oddities": oddities}


def stats(values):
    if not values:
        return "     -        -   "
    return f"{statistics.mean(values):6.2f}  {statistics.median(values):6.2f}"


def report(runs, args):
    print(f"level {args.level}, opponent think {args.opp_think[0]}-{args.opp_think[1]} s, "
          f"miss rate {args.miss_rate}, {args.moves} engine moves a game\n")
    if args.per_move:
        for run in runs:
            print(f"game {run['game']} {run['mode']}: result {run['result'] or '- (move limit)'}")
            print("  n  full  hit  think_s  depth  reported_cs  clock_s")
            for m in run["moves"]:
                print(f"{m['n']:3d} {m['fullmove']:5d}  {'H' if m['hit'] else '.':>3}  {m['think']:7.2f}  "
                      f"{m['depth'] if m['depth'] is not None else '-':>5}  "
                      f"{m['reported_cs'] if m['reported_cs'] is not None else '-':>11}  {m['clock_cs'] / 100:7.2f}")
            print()

    print("per run                 moves  hits   mean  median (s)   depth  used_s  clock_left_s  result")
    for run in runs:
        ms = run["moves"]
        depths = [m["depth"] for m in ms if m["depth"] is not None]
        print(f"game {run['game']} {run['mode']:4}             {len(ms):5d}  {sum(m['hit'] for m in ms):4d}  "
              f"{stats([m['think'] for m in ms])}      {statistics.mean(depths) if depths else 0:5.1f}  "
              f"{run['used_cs'] / 100:6.1f}  {run['clock_cs'] / 100:12.1f}  {run['result'] or '-'}")

    # Pair each hard move after a ponder hit with the easy move at the same index of the same game.
    hard_hits, easy_same, hard_other, depth_h, depth_e = [], [], [], [], []
    for hard in (r for r in runs if r["mode"] == "hard"):
        easy = next((r for r in runs if r["mode"] == "easy" and r["game"] == hard["game"]), None)
        easy_by_n = {m["n"]: m for m in easy["moves"]} if easy else {}
        for m in hard["moves"]:
            if not m["hit"]:
                hard_other.append(m["think"])
                continue
            hard_hits.append(m["think"])
            if m["n"] in easy_by_n:
                e = easy_by_n[m["n"]]
                easy_same.append(e["think"])
                if m["depth"] is not None and e["depth"] is not None:
                    depth_h.append(m["depth"])
                    depth_e.append(e["depth"])
    print("\nthink time per engine move    count   mean  median (s)")
    print(f"hard, after a ponder hit      {len(hard_hits):5d}  {stats(hard_hits)}")
    print(f"easy, same move indices       {len(easy_same):5d}  {stats(easy_same)}")
    print(f"hard, no ponder hit           {len(hard_other):5d}  {stats(hard_other)}")
    if depth_h:
        print(f"depth on those moves: hard {statistics.mean(depth_h):.1f}, easy {statistics.mean(depth_e):.1f}")
    for mode in ("hard", "easy"):
        mine = [r for r in runs if r["mode"] == mode]
        if mine:
            print(f"total clock used, {mode}: {sum(r['used_cs'] for r in mine) / 100:.1f} s over "
                  f"{sum(len(r['moves']) for r in mine)} moves")
    oddities = [o for r in runs for o in r["oddities"]]
    print("\nprotocol/clock checks: " + ("all clean" if not oddities else f"{len(oddities)} oddities"))
    for o in oddities:
        print("  " + o)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", default="target/release/plugboard")
    parser.add_argument("--games", type=int, default=2, help="games per mode (start position, then built-in FENs)")
    parser.add_argument("--fen", action="append", help="start position(s) instead of the built-in list")
    parser.add_argument("--moves", type=int, default=30, help="engine moves per game")
    parser.add_argument("--level", default="0 1 0", help='xboard level "MPS BASE INC" (default: 1 min sudden death)')
    parser.add_argument("--opp-think", type=float, nargs=2, default=(1.0, 2.0), metavar=("MIN", "MAX"),
                        help="opponent think time range in seconds")
    parser.add_argument("--miss-rate", type=float, default=0.0, help="share of opponent moves that avoid the hint")
    parser.add_argument("--modes", default="hard,easy", help="comma-separated, run in this order for each game")
    parser.add_argument("--seed", default="ponder", help="seeds opponent think times and misses")
    parser.add_argument("--per-move", action="store_true", help="print every move of every run")
    parser.add_argument("--transcript", help="write the timestamped protocol transcript here")
    args = parser.parse_args()

    fens = args.fen or DEFAULT_FENS
    transcript = open(args.transcript, "w") if args.transcript else None
    runs = []
    try:
        for game_no in range(1, args.games + 1):
            fen = fens[(game_no - 1) % len(fens)]
            for mode in args.modes.split(","):
                run = play_game(args, mode, fen, game_no, transcript)
                print(f"game {game_no} {mode}: {len(run['moves'])} moves, {run['used_cs'] / 100:.1f} s used, "
                      f"{sum(m['hit'] for m in run['moves'])} ponder hits", file=sys.stderr, flush=True)
                runs.append(run)
    finally:
        if transcript:
            transcript.close()
    report(runs, args)


if __name__ == "__main__":
    main()
