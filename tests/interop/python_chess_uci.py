#!/usr/bin/env python3
"""Interop test: Plugboard driven by python-chess's UCI client.

Usage (from the repository root):

    python3 tests/interop/python_chess_uci.py target/release/plugboard

Part 1 plays a complete game between two Plugboards, each through
``chess.engine.SimpleEngine.popen_uci``: White with ``Threads``, ``Hash``,
``Move Overhead`` (UCI's spelling of the engine's ``Move overhead``) and
``Evaluation`` set, and pondering (``ponder=True``); Black with the ``material``
evaluation. The clocks are kept here, with each move's real time charged:
a side fails the test if it makes an illegal move, loses on time, sends a
principal variation that is not legal from the position, crashes or stops
answering.

Part 2 analyses the start position with ``multipv=3``: three lines whose first
moves differ, each line legal, each with a depth and a score, the best first.

Exit status 0 when everything passed, 1 on a failure (with a message saying
what went wrong), 2 on a usage error. python-chess's transcript of both engines
is kept in a temporary folder whose path is printed.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from typing import Optional

import chess
import chess.engine

from interop_common import (
    TestFailure,
    arm_wall_limit,
    capture_python_chess_logs,
    disarm_wall_limit,
    engine_path,
    log,
    summary_end,
)

WALL_LIMIT_S = 200
MAX_PLIES = 120


def legal_line(board: chess.Board, pv: list[chess.Move], what: str) -> None:
    """Fails unless every move of `pv` is legal in turn from `board`."""
    line = board.copy()
    for m in pv:
        if m not in line.legal_moves:
            raise TestFailure(f"{what}: {m.uci()} of the PV {[x.uci() for x in pv]} is not legal in {line.fen()}")
        line.push(m)


def play_game(white: chess.engine.SimpleEngine, black: chess.engine.SimpleEngine, base_s: float,
              inc_s: float) -> str:
    board = chess.Board()
    clocks = {chess.WHITE: base_s, chess.BLACK: base_s}
    while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
        side = board.turn
        engine = white if side == chess.WHITE else black
        limit = chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
                                   white_inc=inc_s, black_inc=inc_s)
        started = time.monotonic()
        result = engine.play(board, limit, ponder=(side == chess.WHITE), info=chess.engine.INFO_ALL)
        clocks[side] -= time.monotonic() - started
        if clocks[side] < 0:
            raise TestFailure(f"{'White' if side else 'Black'} lost on time at ply {board.ply()}")
        clocks[side] += inc_s
        if result.move is None or result.move not in board.legal_moves:
            raise TestFailure(f"illegal or no move {result.move} in {board.fen()}")
        legal_line(board, result.info.get("pv", []), f"ply {board.ply()}")
        # After a ponder hit python-chess reads only what comes after `ponderhit`,
        # which may be the best move alone; without pondering a line always comes.
        if side == chess.BLACK and ("score" not in result.info or "depth" not in result.info):
            raise TestFailure(f"no score or depth parsed at ply {board.ply()}: {result.info}")
        board.push(result.move)
    log(f"game over after {board.ply()} plies: {board.result(claim_draw=True)}; clocks "
        f"{clocks[chess.WHITE]:.1f} s / {clocks[chess.BLACK]:.1f} s")
    return board.result(claim_draw=True)


def analyse_three_lines(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board()
    infos = engine.analyse(board, chess.engine.Limit(depth=6), multipv=3)
    if len(infos) != 3:
        raise TestFailure(f"multipv=3 gave {len(infos)} lines: {infos}")
    firsts = set()
    for rank, info in enumerate(infos, start=1):
        pv = info.get("pv", [])
        if not pv or "score" not in info or info.get("multipv") != rank:
            raise TestFailure(f"line {rank} lacks a PV, a score or its number: {info}")
        legal_line(board, pv, f"line {rank}")
        firsts.add(pv[0])
    if len(firsts) != 3:
        raise TestFailure(f"the three lines do not start with three moves: {infos}")
    scores = [info["score"].white().score(mate_score=100_000) for info in infos]
    if scores != sorted(scores, reverse=True):
        raise TestFailure(f"the lines are not best first: {scores}")
    log(f"multipv=3: {[(info['pv'][0].uci(), info['score'].white().score()) for info in infos]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("engine", help="path to the plugboard binary, e.g. target/release/plugboard")
    parser.add_argument("--keep", default=None, help="folder for the logs (default: a new temp folder)")
    args = parser.parse_args()
    engine_file = engine_path(args.engine)
    if engine_file is None:
        return 2
    workdir = args.keep or tempfile.mkdtemp(prefix="plugboard-pychess-uci-")
    os.makedirs(workdir, exist_ok=True)
    warnings = capture_python_chess_logs(os.path.join(workdir, "protocol.log"))
    arm_wall_limit(WALL_LIMIT_S)
    started = time.monotonic()
    log(f"engine: {engine_file}")
    white: Optional[chess.engine.SimpleEngine] = None
    black: Optional[chess.engine.SimpleEngine] = None
    passed = False
    try:
        stderr = open(os.path.join(workdir, "stderr.log"), "w", encoding="utf-8")
        white = chess.engine.SimpleEngine.popen_uci(engine_file, timeout=10.0, stderr=stderr, cwd=workdir)
        black = chess.engine.SimpleEngine.popen_uci(engine_file, timeout=10.0, stderr=stderr, cwd=workdir)
        for required in ("UCI_Variant", "Evaluation", "Search", "Move overhead", "Threads", "Hash", "Ponder"):
            if required not in white.options:
                raise TestFailure(f"option {required} not declared: {sorted(white.options)}")
        white.configure({"Threads": 1, "Hash": 32, "Move Overhead": 100, "Evaluation": "pesto"})
        black.configure({"Evaluation": "material"})
        play_game(white, black, 8.0, 0.1)
        analyse_three_lines(white)
        passed = not warnings.messages
        if warnings.messages:
            raise TestFailure("python-chess complained about the engine's output")
    except (TestFailure, chess.engine.EngineError, chess.engine.EngineTerminatedError, TimeoutError) as err:
        log(f"FAIL: {err}")
    finally:
        disarm_wall_limit()
        for engine in (white, black):
            if engine is not None:
                try:
                    engine.quit()
                except (chess.engine.EngineError, chess.engine.EngineTerminatedError, TimeoutError):
                    passed = False
    summary_end(warnings, workdir, time.monotonic() - started, passed)
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
