#!/usr/bin/env python3
"""Plugboard over UCI against Plugboard over CECP, refereed by python-chess.

    python3 scripts/uci-vs-cecp.py target/release/plugboard [--games 40] [--tc 10+0.1]
                                   [--results target/matches/uci-vs-cecp.jsonl]

The same binary, the same plugins and settings on both sides; only the front
end differs, so the score says what the UCI front end costs (or gains). Each
opening (eight plies drawn by weight from tests/data/books/gm2001.bin with a
fixed seed) is played twice, each front end White once. The clocks are kept
here: the wall time of each `play` call, less the increment, comes off the
mover's clock, and a clock below zero is a loss on time. A game ends by the
rules (python-chess's `is_game_over(claim_draw=True)`) or as a draw at 300 plies.

Resumable: each finished game is appended to the results file as one JSON line,
and a run goes on after the games already there. Prints each game and the
running score; the last line is the total with an Elo estimate.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import time

import chess
import chess.engine
import chess.polyglot

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOOK = os.path.join(REPO, "tests", "data", "books", "gm2001.bin")
MAX_PLIES = 300


def opening(index: int) -> list[chess.Move]:
    """Eight plies by the book's weights; the same for the same index."""
    rng = random.Random(1000 + index)
    board = chess.Board()
    moves = []
    with chess.polyglot.open_reader(BOOK) as book:
        for _ in range(8):
            entries = list(book.find_all(board))
            if not entries:
                break
            entry = rng.choices(entries, weights=[e.weight for e in entries])[0]
            moves.append(entry.move)
            board.push(entry.move)
    return moves


def play_game(engine_path: str, opening_moves: list[chess.Move], uci_white: bool, base: float, inc: float) -> dict:
    uci = chess.engine.SimpleEngine.popen_uci([engine_path])
    cecp = chess.engine.SimpleEngine.popen_xboard([engine_path])
    try:
        board = chess.Board()
        for m in opening_moves:
            board.push(m)
        players = {chess.WHITE: uci if uci_white else cecp, chess.BLACK: cecp if uci_white else uci}
        clocks = {chess.WHITE: base, chess.BLACK: base}
        result, reason = "1/2-1/2", "300 plies"
        while True:
            if board.is_game_over(claim_draw=True):
                outcome = board.outcome(claim_draw=True)
                result, reason = outcome.result(), outcome.termination.name.lower()
                break
            if board.ply() >= MAX_PLIES:
                break
            side = board.turn
            limit = chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
                                       white_inc=inc, black_inc=inc)
            started = time.monotonic()
            played = players[side].play(board, limit, game=id(board))
            clocks[side] -= time.monotonic() - started
            if clocks[side] < 0:
                result = "0-1" if side == chess.WHITE else "1-0"
                reason = "time"
                break
            clocks[side] += inc
            if played.move is None or played.move not in board.legal_moves:
                result = "0-1" if side == chess.WHITE else "1-0"
                reason = f"illegal move {played.move}"
                break
            board.push(played.move)
        return {"result": result, "reason": reason, "plies": board.ply(), "uci_white": uci_white,
                "clocks": [round(clocks[chess.WHITE], 2), round(clocks[chess.BLACK], 2)],
                "moves": " ".join(m.uci() for m in board.move_stack)}
    finally:
        for engine in (uci, cecp):
            try:
                engine.quit()
            except (chess.engine.EngineError, chess.engine.EngineTerminatedError):
                engine.close()


def uci_points(game: dict) -> float:
    if game["result"] == "1/2-1/2":
        return 0.5
    white_won = game["result"] == "1-0"
    return 1.0 if white_won == game["uci_white"] else 0.0


def elo(score: float, games: int) -> str:
    if games == 0:
        return "-"
    p = min(max(score / games, 1e-6), 1 - 1e-6)
    diff = -400 * math.log10(1 / p - 1)
    return f"{diff:+.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("engine")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--tc", default="10+0.1", help="base+increment in seconds")
    parser.add_argument("--results", default=os.path.join(REPO, "target", "matches", "uci-vs-cecp.jsonl"))
    args = parser.parse_args()
    base, inc = (float(x) for x in args.tc.split("+"))
    os.makedirs(os.path.dirname(os.path.abspath(args.results)), exist_ok=True)
    done = []
    if os.path.exists(args.results):
        with open(args.results) as f:
            done = [json.loads(line) for line in f if line.strip()]
    for number in range(len(done), args.games):
        game = play_game(os.path.abspath(args.engine), opening(number // 2), number % 2 == 0, base, inc)
        game["number"] = number + 1
        with open(args.results, "a") as f:
            f.write(json.dumps(game) + "\n")
        done.append(game)
        score = sum(uci_points(g) for g in done)
        print(f"game {number + 1}: UCI {'White' if game['uci_white'] else 'Black'} {game['result']} "
              f"({game['reason']}, {game['plies']} plies, clocks {game['clocks']}); "
              f"UCI {score}/{len(done)}", flush=True)
    score = sum(uci_points(g) for g in done)
    wins = sum(1 for g in done if uci_points(g) == 1.0)
    draws = sum(1 for g in done if uci_points(g) == 0.5)
    losses = len(done) - wins - draws
    time_losses = sum(1 for g in done if g["reason"] == "time")
    illegal = sum(1 for g in done if g["reason"].startswith("illegal"))
    print(f"total: UCI {score}/{len(done)} (+{wins} ={draws} -{losses}), Elo {elo(score, len(done))}; "
          f"time losses {time_losses}, illegal moves {illegal}", flush=True)


if __name__ == "__main__":
    main()
