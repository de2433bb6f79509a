#!/usr/bin/env python3
"""Share of an EPD test suite an xboard engine solves at a fixed time per position.

For each position the engine gets `st SECONDS` (through python-chess's XBoard
client, as a GUI would drive it); a position counts as solved when the move
played is one of its `bm` moves and none of its `am` moves. A measure, not a test.

  scripts/epd.py [--engine target/release/plugboard] [--suite ../shared/data/epd/wac.epd] [--seconds 1]
"""
import argparse
import sys
import time

import chess
import chess.engine


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", default="target/release/plugboard")
    parser.add_argument("--suite", default="../shared/data/epd/wac.epd")
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE, repeatable")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()

    engine = chess.engine.SimpleEngine.popen_xboard(args.engine.split())
    options = {"Use book": False} if "Use book" in engine.options else {}
    for option in args.option:
        name, value = option.split("=", 1)
        options[name] = value
    if options:
        engine.configure(options)
    solved = total = 0
    started = time.monotonic()
    with open(args.suite) as suite:
        for line in suite:
            if not line.strip():
                continue
            board, ops = chess.Board.from_epd(line)
            best = ops.get("bm", [])
            avoid = ops.get("am", [])
            result = engine.play(board, chess.engine.Limit(time=args.seconds), game=object())
            ok = result.move is not None and (not best or result.move in best) and result.move not in avoid
            solved += ok
            total += 1
            if args.verbose or not ok:
                played = board.san(result.move) if result.move else "none"
                wanted = " ".join(board.san(m) for m in best) or "not " + " ".join(board.san(m) for m in avoid)
                print(f"{ops.get('id', '?')}: {'ok  ' if ok else 'MISS'} played {played}, wanted {wanted}", flush=True)
    engine.quit()
    print(f"solved {solved}/{total} ({100 * solved / max(total, 1):.1f}%) at {args.seconds:g} s per position "
          f"in {time.monotonic() - started:.0f} s: {args.engine} on {args.suite}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
