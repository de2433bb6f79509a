#!/usr/bin/env python3
"""Every variant the engine announces, played through python-chess's XBoard client.

python-chess has its own implementation of each variant's rules, written apart
from shakmaty's: each game runs until python-chess says it is over (or 120 plies),
and every move the engine chooses must be legal by python-chess's rules too. It
also checks that python-chess, which sends `variant` and `setboard` itself, finds
the variant in the engine's `variants` feature.

Usage: python_chess_variants.py ENGINE
"""

import sys

import chess
import chess.engine
import chess.variant

BOARDS = [
    chess.variant.AtomicBoard,
    chess.variant.SuicideBoard,
    chess.variant.GiveawayBoard,
    chess.variant.ThreeCheckBoard,
    chess.variant.CrazyhouseBoard,
    chess.variant.KingOfTheHillBoard,
    chess.variant.RacingKingsBoard,
    chess.variant.HordeBoard,
]
MAX_PLIES = 120


def main() -> int:
    engine_path = sys.argv[1]
    failures = []
    with chess.engine.SimpleEngine.popen_xboard(engine_path) as engine:
        announced = str(engine.protocol.features.get("variants", "")).split(",")
        for board_class in BOARDS:
            name = board_class.xboard_variant
            if name not in announced:
                failures.append(f"{name}: not in the variants feature {announced}")
                continue
            board = board_class()
            while not board.is_game_over() and len(board.move_stack) < MAX_PLIES:
                result = engine.play(board, chess.engine.Limit(depth=2), game=board_class)
                if result.move is None or result.move not in board.legal_moves:
                    failures.append(f"{name}: {result.move} is not legal in {board.fen()}")
                    break
                board.push(result.move)
            print(f"{name}: {len(board.move_stack)} plies, {board.result(claim_draw=True)}, {board.fen()}")
    for failure in failures:
        print("FAIL", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
