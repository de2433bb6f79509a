#!/usr/bin/env python3
"""Quiet positions labelled with their game's result, for tuning the evaluation.

Reads PGN files of finished games (e.g. the ones scripts/ladder.sh and
match.py write) and prints one line per kept position: its FEN, a semicolon,
and the game's result from White's side (1, 0.5 or 0). A position is kept
when it is past the opening line (--skip plies), the side to move is not in
check, and the move played from it is neither a capture nor a promotion nor a
check: the static evaluation of such a position is what the search trusts, so
that is where the result should teach it. Games that ended by a crash, a time
forfeit or an illegal move say nothing about the position and are skipped.

With --stockfish, each position also gets a third field: Stockfish's score at
--depth in centipawns for White (mates as +-3000), so that the tuner can learn
from a stronger judge as well as from one noisy result per game.
"""
import argparse
import multiprocessing
import sys

import chess
import chess.engine
import chess.pgn

RESULTS = {"1-0": "1", "0-1": "0", "1/2-1/2": "0.5"}


def quiet_positions(game: chess.pgn.Game, skip: int):
    board = game.board()
    for ply, move in enumerate(game.mainline_moves()):
        quiet = not (
            board.is_check() or board.is_capture(move) or move.promotion or board.gives_check(move)
        )
        if ply >= skip and quiet:
            yield board.fen()
        board.push(move)


_engine = None
_depth = 0


def _open_engine(command: str, depth: int) -> None:
    global _engine, _depth
    _engine = chess.engine.SimpleEngine.popen_uci(command)
    _engine.configure({"Threads": 1, "Hash": 16})
    _depth = depth


def _white_score(fen: str) -> int:
    info = _engine.analyse(chess.Board(fen), chess.engine.Limit(depth=_depth))
    return info["score"].white().score(mate_score=3000)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("pgn", nargs="+")
    parser.add_argument("--skip", type=int, default=16, help="plies of opening to leave out")
    parser.add_argument("--stockfish", help="UCI engine command that scores each position")
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--jobs", type=int, default=2, help="engine processes scoring at once")
    args = parser.parse_args()

    kept: list[tuple[str, str]] = []

    kept_games = skipped_games = positions = 0
    for path in args.pgn:
        with open(path, encoding="utf-8", errors="replace") as pgn:
            while (game := chess.pgn.read_game(pgn)) is not None:
                result = RESULTS.get(game.headers.get("Result", "*"))
                if result is None or game.headers.get("Termination", "normal") != "normal":
                    skipped_games += 1
                    continue
                kept_games += 1
                for fen in quiet_positions(game, args.skip):
                    kept.append((fen, result))
                    positions += 1
    if args.stockfish:
        with multiprocessing.Pool(args.jobs, _open_engine, (args.stockfish, args.depth)) as pool:
            scores = pool.imap(_white_score, [fen for fen, _ in kept], chunksize=256)
            for (fen, result), score in zip(kept, scores):
                print(f"{fen};{result};{score}")
    else:
        for fen, result in kept:
            print(f"{fen};{result}")
    print(f"{kept_games} games kept, {skipped_games} skipped, {positions} positions", file=sys.stderr)


if __name__ == "__main__":
    main()
