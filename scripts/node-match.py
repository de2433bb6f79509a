#!/usr/bin/env python3
"""A fixed-node match between two xboard engines, to compare evaluations (two
networks, a network and pesto) apart from their speed: each move is searched for
NODES nodes (python-chess's Limit(nodes), which CECP sends as `nps 1` and
`st NODES`), so a busy machine does not change the games.

    scripts/node-match.py --e1 CMD --e2 CMD --nodes N --games G --openings FILE --out FILE

Openings are lines of UCI moves from the start (scripts/openings.py writes
them); game 2k and 2k+1 play line k with the colours swapped, engine 1 White in
even games. Resumable: each finished game is appended to OUT as `GAME RESULT
PLIES` (RESULT 1, = or 0 for engine 1), and running the same command plays the
games still missing. Prints engine 1's wins, draws and losses with an Elo
difference and its 95 % interval every 10 games and at the end. Games end by
python-chess's rules (claimable draws claimed), by resignation, or as draws
after --max-plies plies.

Example (the embedded network against pesto):
    python3 scripts/openings.py --count 100 > target/openings.txt
    scripts/node-match.py --e1 "target/release/plugboard --eval nnue" \\
        --e2 "target/release/plugboard --eval pesto" --nodes 25000 --games 200 \\
        --openings target/openings.txt --out target/nnue-pesto-25k.txt
"""
import argparse
import math
import os
import shlex

import chess
import chess.engine


def elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def summary(results):
    wins, draws, losses = (sum(1 for r in results.values() if r == x) for x in ("1", "=", "0"))
    games = wins + draws + losses
    if games == 0:
        return "no games"
    score = (wins + draws / 2) / games
    variance = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score**2) / games
    margin = 1.96 * math.sqrt(variance / games)
    return (f"{games} games: +{wins} ={draws} -{losses}, score {score:.3f}, "
            f"Elo {elo(score):+.0f} [{elo(score - margin):+.0f}, {elo(score + margin):+.0f}]")


def play(first, second, line, first_is_white, nodes, max_plies, game):
    board = chess.Board()
    for move in line.split():
        board.push_uci(move)
    plies = 0
    while board.outcome(claim_draw=True) is None and plies < max_plies:
        engine = first if (board.turn == chess.WHITE) == first_is_white else second
        played = engine.play(board, chess.engine.Limit(nodes=nodes), game=game)
        if played.resigned or played.move is None:
            lost = board.turn == chess.WHITE
            return ("0" if lost == first_is_white else "1"), plies
        board.push(played.move)
        plies += 1
    outcome = board.outcome(claim_draw=True)
    if outcome is None or outcome.winner is None:
        return "=", plies
    return ("1" if (outcome.winner == chess.WHITE) == first_is_white else "0"), plies


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--e1", required=True, help="engine 1's command line")
    parser.add_argument("--e2", required=True, help="engine 2's command line")
    parser.add_argument("--nodes", type=int, required=True)
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--openings", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--max-plies", type=int, default=400)
    args = parser.parse_args()
    lines = [l.strip() for l in open(args.openings) if l.strip() and not l.startswith("#")]
    results = {}
    if os.path.exists(args.out):
        for record in open(args.out):
            game, result = record.split()[:2]
            results[int(game)] = result
    first = chess.engine.SimpleEngine.popen_xboard(shlex.split(args.e1))
    second = chess.engine.SimpleEngine.popen_xboard(shlex.split(args.e2))
    try:
        for game in range(args.games):
            if game in results:
                continue
            line = lines[(game // 2) % len(lines)]
            result, plies = play(first, second, line, game % 2 == 0, args.nodes, args.max_plies, game)
            results[game] = result
            with open(args.out, "a") as out:
                out.write(f"{game} {result} {plies}\n")
            if len(results) % 10 == 0:
                print(summary(results), flush=True)
    finally:
        first.quit()
        second.quit()
    print(summary(results))


if __name__ == "__main__":
    main()
