#!/usr/bin/env python3
"""Balanced opening lines for strength matches, drawn from a Polyglot book.

Walks the book from the start position, choosing among the moves that carry at
least --min-share of the weight, until --plies half-moves are played; keeps each
distinct line once. Lines are UCI move lists, which every ladder engine accepts
(Fairy-Max has no setboard). Deterministic for a given --seed.
"""
import argparse
import random

import chess
import chess.polyglot


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--book", default="tests/data/books/gm2001.bin")
    parser.add_argument("--count", type=int, default=50)
    parser.add_argument("--plies", type=int, default=8)
    parser.add_argument("--min-share", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    lines: list[str] = []
    with chess.polyglot.open_reader(args.book) as book:
        for _ in range(args.count * 50):
            if len(lines) == args.count:
                break
            board = chess.Board()
            for _ in range(args.plies):
                entries = list(book.find_all(board))
                total = sum(entry.weight for entry in entries)
                common = [entry for entry in entries if total and entry.weight >= args.min_share * total]
                if not common:
                    break
                board.push(rng.choices(common, weights=[entry.weight for entry in common])[0].move)
            line = " ".join(move.uci() for move in board.move_stack)
            if len(board.move_stack) == args.plies and line not in lines:
                lines.append(line)
    print(f"# {len(lines)} lines of {args.plies} plies from {args.book}, moves of >= {args.min_share:.0%} weight, seed {args.seed}")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
